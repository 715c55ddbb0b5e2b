// server.pid parsing and formatting (see pid_file.hpp).
#include "cli/pid_file.hpp"

#include <charconv>

#include "cli/cli_failure.hpp"
#include "json/json.hpp"
#include "util/strings.hpp"

namespace opentabs::cli {

result<pid_record> parse_pid_file(std::string_view text) {
  auto t = trim(text);
  pid_record r;
  if (!t.empty() && t.front() == '{') {
    auto o = json::parse_object(t);
    if (!o) return make_error(cli_failure::invalid_pid_file, "server.pid is not valid JSON");
    auto pid = json::get_int(*o, "pid");
    if (!pid || *pid <= 0 || *pid > 4194304) return make_error(cli_failure::invalid_pid_file, "server.pid has no valid \"pid\"");
    r.pid = static_cast<long>(*pid);
    if (auto port = json::get_int(*o, "port"); port && *port >= 1 && *port <= 65535)
      r.port = static_cast<std::uint16_t>(*port);
    return r;
  }
  long pid = 0;
  auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), pid);
  if (t.empty() || ec != std::errc() || p != t.data() + t.size() || pid <= 0 || pid > 4194304)
    return make_error(cli_failure::invalid_pid_file, "server.pid holds neither {\"pid\":N,\"port\":P} nor a process id");
  r.pid = pid;
  return r;
}

std::string format_pid_file(const pid_record& r) {
  json::object o{{"pid", static_cast<std::int64_t>(r.pid)}};
  if (r.port) o["port"] = static_cast<std::int64_t>(*r.port);
  return json::dump(o);
}

}  // namespace opentabs::cli
