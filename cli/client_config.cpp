// MCP client configuration snippets (see client_config.hpp).
#include "cli/client_config.hpp"

#include "cli/terminal.hpp"

namespace opentabs::cli {

namespace {

std::string url(std::uint16_t port, bool gateway) {
  return "http://127.0.0.1:" + std::to_string(port) + (gateway ? "/mcp/gateway" : "/mcp");
}

json::object auth_headers(const std::string& secret) {
  return json::object{{"Authorization", json::str("Bearer " + secret)}};
}

std::string indent(const std::string& text, const std::string& pad) {
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    auto nl = text.find('\n', start);
    auto line = text.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
    out += pad + line + "\n";
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  return out;
}

std::string pretty(const json::object& o) {
  std::string s = json::dump_pretty(o);
  while (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

}  // namespace

json::object claude_code_config(std::uint16_t port, const std::string& secret, bool gateway) {
  return json::object{{"mcpServers", json::object{{"opentabs", json::object{{"type", "http"},
                                                                            {"url", json::str(url(port, gateway))},
                                                                            {"headers", auth_headers(secret)}}}}}};
}

json::object opencode_config(std::uint16_t port, const std::string& secret, bool gateway) {
  return json::object{{"mcp", json::object{{"opentabs", json::object{{"type", "remote"},
                                                                     {"url", json::str(url(port, gateway))},
                                                                     {"headers", auth_headers(secret)}}}}}};
}

json::object opencode_stdio_config(std::uint16_t port) {
  json::array command{"opentabs", "start", "--stdio"};
  if (port != 9515) {
    command.push_back("--port");
    command.push_back(json::str(std::to_string(port)));
  }
  return json::object{{"mcp", json::object{{"opentabs", json::object{{"type", "local"}, {"command", command}}}}}};
}

json::object cursor_config(std::uint16_t port, const std::string& secret) {
  return claude_code_config(port, secret, false);
}

json::object windsurf_config(std::uint16_t port, const std::string& secret) {
  return json::object{{"mcpServers", json::object{{"opentabs", json::object{{"serverUrl", json::str(url(port, false))},
                                                                            {"headers", auth_headers(secret)}}}}}};
}

json::object stdio_config(std::uint16_t port) {
  json::array args{"start", "--stdio"};
  if (port != 9515) {
    args.push_back("--port");
    args.push_back(json::str(std::to_string(port)));
  }
  return json::object{{"mcpServers", json::object{{"opentabs", json::object{{"command", "opentabs"}, {"args", args}}}}}};
}

std::string claude_mcp_add_command(std::uint16_t port, const std::string& secret, bool gateway) {
  return "claude mcp add --transport http opentabs " + url(port, gateway) + " \\\n  --header \"Authorization: Bearer " +
         secret + "\"";
}

std::string render_client_config(const client_config_inputs& in) {
  const bool c = in.color;
  std::string out;
  auto section = [&](const std::string& title, const std::string& where) {
    out += "\n" + bold(title, c) + (where.empty() ? "" : dim("  " + where, c)) + "\n";
  };
  out += bold("MCP client configuration", c) + dim("  (the secret is in the Authorization header; keep it private)", c) + "\n";

  section("Claude Code", "run:");
  out += indent(claude_mcp_add_command(in.port, in.secret, false), "  ");
  out += dim("  or merge into ~/.claude.json:", c) + "\n";
  out += indent(pretty(claude_code_config(in.port, in.secret, false)), "  ");

  section("OpenCode", "opencode.json in your project root:");
  out += indent(pretty(opencode_config(in.port, in.secret)), "  ");

  section("Cursor", ".cursor/mcp.json:");
  out += indent(pretty(cursor_config(in.port, in.secret)), "  ");

  section("Windsurf", "~/.codeium/windsurf/mcp_config.json:");
  out += indent(pretty(windsurf_config(in.port, in.secret)), "  ");

  section("Gateway variant", "2 tools in context (opentabs_list_tools, opentabs_call); use /mcp/gateway in any of the above:");
  out += indent(claude_mcp_add_command(in.port, in.secret, true), "  ");
  out += indent(pretty(claude_code_config(in.port, in.secret, true)), "  ");
  out += dim("  OpenCode (opencode.json):", c) + "\n";
  out += indent(pretty(opencode_config(in.port, in.secret, true)), "  ");

  section("Stdio variant", "the client starts the bridge (and the server when needed); no secret in the file:");
  out += indent(pretty(stdio_config(in.port)), "  ");
  out += dim("  OpenCode (opencode.json):", c) + "\n";
  out += indent(pretty(opencode_stdio_config(in.port)), "  ");
  return out;
}

}  // namespace opentabs::cli
