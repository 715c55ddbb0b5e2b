// Ready-to-paste MCP client configuration (printed by `opentabs start` and
// `start --show-config`): Claude Code (`claude mcp add` and ~/.claude.json), OpenCode
// (opencode.json, remote with headers, or local for stdio), Cursor, Windsurf, the /mcp/gateway
// variants and the stdio variant, each also in OpenCode's form.  Pure text generation; the snippets are valid JSON built with the JSON
// library, never by string concatenation, so a secret can never break them.
#pragma once

#include <cstdint>
#include <string>

#include "json/json.hpp"

namespace opentabs::cli {

struct client_config_inputs {
  std::uint16_t port = 9515;
  std::string secret;
  bool color = false;
};

// The whole human-readable block.
std::string render_client_config(const client_config_inputs& in);

// The individual snippets (also used by tests and `doctor`).
json::object claude_code_config(std::uint16_t port, const std::string& secret, bool gateway);
json::object opencode_config(std::uint16_t port, const std::string& secret, bool gateway = false);
// OpenCode's own stdio form ("type": "local", "command" as an array): its opencode.json
// ignores the "mcpServers" shape the other clients use.
json::object opencode_stdio_config(std::uint16_t port);
json::object cursor_config(std::uint16_t port, const std::string& secret);
json::object windsurf_config(std::uint16_t port, const std::string& secret);
json::object stdio_config(std::uint16_t port);
std::string claude_mcp_add_command(std::uint16_t port, const std::string& secret, bool gateway);

}  // namespace opentabs::cli
