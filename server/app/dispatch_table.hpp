// The requests the server has sent to the extension and is waiting on (tool.dispatch,
// browser.*, plugin.uninstall, ...): a table of records with an explicit lifecycle —
// pending → replied | failed — plus the timing rules of spec §3.3: a 30 s timeout that
// each progress report resets to min(30 s, time left before the 300 s cap).  Sans-I/O:
// time is passed in, so every rule is testable without sleeping; extension_hub owns the
// timers that wake the waiting coroutines.
#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "json/json.hpp"

namespace opentabs::app {

using clock_type = std::chrono::steady_clock;

// How a request ended.
struct ext_reply {
  enum class kind {
    result,        // the extension answered with a result
    error,         // the extension answered with a JSON-RPC error
    timeout,       // no answer before the deadline
    disconnected,  // the connection it was sent on went away
    cancelled,     // the caller gave up (MCP notifications/cancelled)
    shutdown,      // the server is stopping
    not_sent,      // no connection to send it on
    unsupported,   // the connection's extension does not handle the method (not sent)
  };
  kind outcome = kind::result;
  json::value result;      // kind::result
  std::int64_t code = 0;   // kind::error
  std::string message;     // kind::error, and a human text for the local kinds
  json::value data;        // kind::error: error.data when present

  bool ok() const { return outcome == kind::result; }
};

struct dispatch_timing {
  std::chrono::milliseconds timeout{30'000};  // reset by progress
  std::chrono::milliseconds cap{300'000};     // absolute
};

class dispatch_table {
 public:
  struct record {
    std::string connection_id;
    std::string plugin;     // concurrency accounting; empty when not a plugin call
    std::string label;      // "plugin/tool" or the method, for timeout messages
    clock_type::time_point started;
    clock_type::time_point deadline;
    clock_type::time_point cap;
    std::chrono::milliseconds timeout{0};
    std::optional<ext_reply> outcome;
  };

  explicit dispatch_table(dispatch_timing timing = {}) : timing_(timing) {}

  // Registers a request about to be sent.  Returns false when `id` is already in use.
  bool add(const std::string& id, std::string connection_id, std::string plugin, std::string label,
           clock_type::time_point now);
  // An answer arrived.  False for unknown, already-settled (duplicate) or late ids: those
  // are ignored by the caller.
  bool settle(std::string_view id, ext_reply reply);
  // A progress report: pushes the deadline out.  False for unknown or settled ids.
  bool progress(std::string_view id, clock_type::time_point now);
  // Settles every open request sent on `connection_id` as disconnected; returns their ids.
  std::vector<std::string> fail_connection(const std::string& connection_id, const std::string& message);
  // Settles every open request (server shutdown).
  std::vector<std::string> fail_all(ext_reply::kind kind, const std::string& message);
  // Settles the request as timed out when its deadline has passed.  True if it did.
  bool expire_if_due(std::string_view id, clock_type::time_point now);

  const record* find(std::string_view id) const;
  // Removes a settled record and returns its outcome (the waiter's last step).
  std::optional<ext_reply> take(std::string_view id);

  std::size_t open_count() const;
  std::size_t open_for_plugin(const std::string& plugin) const;
  std::size_t size() const { return records_.size(); }
  const dispatch_timing& timing() const { return timing_; }

 private:
  dispatch_timing timing_;
  std::map<std::string, record, std::less<>> records_;
};

}  // namespace opentabs::app
