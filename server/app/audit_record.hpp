// The audit entry of one tool call (spec §2.4), owned by the one object that writes it:
// started when the pipeline admits the lookup, given its failure detail by the stages
// (and backends) on the way, and recorded by finish() with the call's result.  Every exit
// of a call passes its result through finish(), so the entry is written exactly once; a
// question put to the user (input_required) or a request that answered no question is not
// a call, and withdraw() says so.  The destructor records nothing: a call frame destroyed
// at shutdown may outlive the log.
#pragma once

#include <chrono>

#include "audit/audit_code.hpp"
#include "audit/audit_entry.hpp"
#include "audit/audit_log.hpp"
#include "tools/tool.hpp"
#include "tools/tool_service.hpp"

namespace opentabs::app {

class audit_record {
 public:
  audit_record(audit::audit_log& log, const tools::tool_def& tool);
  audit_record(const audit_record&) = delete;
  audit_record& operator=(const audit_record&) = delete;

  audit::audit_entry& entry() { return entry_; }
  // Sets the failure detail (code, message) unless a stage already did.
  void fail(audit::audit_code code, std::string message);
  // This exit is not a call: finish() will record nothing.
  void withdraw() { withdrawn_ = true; }
  // Records the entry with the outcome of `r` (the first time) and hands `r` back.
  tools::call_result finish(tools::call_result r);
  bool recorded() const { return recorded_; }

 private:
  audit::audit_log& log_;
  audit::audit_entry entry_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  bool withdrawn_ = false;
  bool recorded_ = false;
};

}  // namespace opentabs::app
