#include "app/audit_record.hpp"

#include "util/clock.hpp"
#include "util/log.hpp"

namespace opentabs::app {

audit_record::audit_record(audit::audit_log& log, const tools::tool_def& tool) : log_(log) {
  entry_.timestamp = iso8601_now();
  entry_.tool = tool.name;
  entry_.plugin = tool.plugin;
}

void audit_record::fail(audit::audit_code code, std::string message) {
  if (!entry_.error) entry_.error = audit::make_audit_error(code, std::move(message));
}

tools::call_result audit_record::finish(tools::call_result r) {
  if (withdrawn_ || recorded_) return r;
  recorded_ = true;
  entry_.duration_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started_).count();
  entry_.success = !r.is_error;
  if (r.is_error && !entry_.error) {
    std::string message;
    if (!r.content.empty())
      if (const auto* t = json::get_string(r.content.front().as_object(), "text")) message = std::string(*t);
    entry_.error = audit::make_audit_error(audit::audit_code::unknown, std::move(message));
  }
  if (entry_.success) entry_.error.reset();
  if (auto st = log_.append(std::move(entry_)); !st) log::warn("audit log: " + st.err().message);
  return r;
}

}  // namespace opentabs::app
