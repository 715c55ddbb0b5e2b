// Port precedence and config-port lookup (see context.hpp).
#include "cli/context.hpp"

#include <charconv>

#include "cli/cli_failure.hpp"
#include "config/config.hpp"
#include "json/json.hpp"
#include "util/files.hpp"
#include "util/strings.hpp"

namespace opentabs::cli {

result<std::uint16_t> parse_port(std::string_view text, std::string_view source, bool allow_ephemeral) {
  auto t = trim(text);
  int n = 0;
  auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), n);
  if (t.empty() || ec != std::errc() || p != t.data() + t.size() || n < (allow_ephemeral ? 0 : 1) || n > 65535)
    return make_error(cli_failure::usage, "invalid port '" + std::string(text) + "' from " + std::string(source) +
                                   ": expected a number from 1 to 65535");
  return static_cast<std::uint16_t>(n);
}

result<port_choice> resolve_port(std::optional<std::string_view> flag, std::optional<std::string_view> env,
                                 std::optional<std::int64_t> config_port, bool allow_ephemeral,
                                 std::string_view env_name) {
  if (flag) {
    auto p = parse_port(*flag, "--port", allow_ephemeral);
    if (!p) return p.err();
    return port_choice{*p, "--port"};
  }
  if (env && !trim(*env).empty()) {
    auto p = parse_port(*env, env_name, allow_ephemeral);
    if (!p) return p.err();
    return port_choice{*p, std::string(env_name)};
  }
  if (config_port) {
    if (*config_port < 1 || *config_port > 65535)
      return make_error(cli_failure::usage, "invalid \"port\" " + std::to_string(*config_port) +
                                     " in config.json: expected 1 to 65535 (fix it with `opentabs config set port <n>`)");
    return port_choice{static_cast<std::uint16_t>(*config_port), "config.json"};
  }
  return port_choice{kDefaultPort, "default"};
}

std::optional<std::int64_t> read_config_port(const config::config_paths& paths) {
  auto text = read_file(paths.config_json(), config::kMaxConfigBytes);
  if (!text) return std::nullopt;
  auto root = json::parse_object(*text);
  if (!root) return std::nullopt;
  return json::get_int(*root, "port");
}

}  // namespace opentabs::cli
