// What every command needs to know before it runs: the config directory and its files, the
// port to talk to (precedence --port → OPENTABS_PORT → config.json "port" → 9515), the
// terminal, and whether the caller asked for JSON.  resolve_port() is pure and tested.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "cli/terminal.hpp"
#include "config/config_paths.hpp"
#include "util/result.hpp"

namespace opentabs::cli {

inline constexpr std::uint16_t kDefaultPort = 9515;

struct port_choice {
  std::uint16_t port = kDefaultPort;
  std::string source;  // "--port", "OPENTABS_PORT", "config.json", "default"
};

// "9515" → 9515.  Errors (code "usage") name where the bad value came from.
// `allow_ephemeral` accepts 0 ("any free port"), which only a foreground `start` can use.
result<std::uint16_t> parse_port(std::string_view text, std::string_view source, bool allow_ephemeral = false);

// The port by precedence.  A bad --port or environment value is an error (naming `env_name`,
// the variable it came from: OPENTABS_PORT or PORT); a bad config value too (it names
// config.json), since silently using another port would confuse everyone.
result<port_choice> resolve_port(std::optional<std::string_view> flag, std::optional<std::string_view> env,
                                 std::optional<std::int64_t> config_port, bool allow_ephemeral = false,
                                 std::string_view env_name = "OPENTABS_PORT");

// config.json's top-level "port" when the file exists and holds one (nothing is created).
std::optional<std::int64_t> read_config_port(const config::config_paths& paths);

struct context {
  config::config_paths paths;
  port_choice port;
  terminal term;
  bool json = false;  // the command's --json flag
};

}  // namespace opentabs::cli
