// MCP client snippets: each client's exact shape, the secret carried as data (a secret with
// JSON-special characters could never break the file), and the stdio variant's port.
#include <doctest/doctest.h>

#include "cli/client_config.hpp"

using namespace opentabs;
using namespace opentabs::cli;

TEST_CASE("the shapes each client expects") {
  auto claude = claude_code_config(9515, "s3cret", false);
  CHECK(json::dump(claude) ==
        "{\"mcpServers\":{\"opentabs\":{\"type\":\"http\",\"url\":\"http://127.0.0.1:9515/mcp\",\"headers\":{"
        "\"Authorization\":\"Bearer s3cret\"}}}}");
  CHECK(json::dump(opencode_config(9515, "s")) ==
        "{\"mcp\":{\"opentabs\":{\"type\":\"remote\",\"url\":\"http://127.0.0.1:9515/mcp\",\"headers\":{"
        "\"Authorization\":\"Bearer s\"}}}}");
  CHECK(json::dump(windsurf_config(9515, "s")) ==
        "{\"mcpServers\":{\"opentabs\":{\"serverUrl\":\"http://127.0.0.1:9515/mcp\",\"headers\":{\"Authorization\":"
        "\"Bearer s\"}}}}");
  CHECK(json::dump(claude_code_config(9515, "s", true)).find("/mcp/gateway") != std::string::npos);
  CHECK(claude_mcp_add_command(9600, "s", false) ==
        "claude mcp add --transport http opentabs http://127.0.0.1:9600/mcp \\\n  --header \"Authorization: Bearer s\"");
}

TEST_CASE("OpenCode forms: remote for /mcp and /mcp/gateway, local with a command array for stdio") {
  CHECK(json::dump(opencode_config(9515, "s", true)) ==
        "{\"mcp\":{\"opentabs\":{\"type\":\"remote\",\"url\":\"http://127.0.0.1:9515/mcp/gateway\",\"headers\":{"
        "\"Authorization\":\"Bearer s\"}}}}");
  CHECK(json::dump(opencode_stdio_config(9515)) ==
        "{\"mcp\":{\"opentabs\":{\"type\":\"local\",\"command\":[\"opentabs\",\"start\",\"--stdio\"]}}}");
  CHECK(json::dump(opencode_stdio_config(9600)).find("\"--stdio\",\"--port\",\"9600\"]") != std::string::npos);
  // The rendered block offers them in the gateway and stdio sections.
  auto text = render_client_config({9515, "s", false});
  auto gateway = text.find("Gateway variant");
  auto stdio = text.find("Stdio variant");
  REQUIRE(gateway != std::string::npos);
  REQUIRE(stdio != std::string::npos);
  CHECK(text.find("\"type\": \"remote\"", gateway) < stdio);
  CHECK(text.find("\"type\": \"local\"", stdio) != std::string::npos);
}

TEST_CASE("stdio variant: default port is implicit, others are passed") {
  CHECK(json::dump(stdio_config(9515)) ==
        "{\"mcpServers\":{\"opentabs\":{\"command\":\"opentabs\",\"args\":[\"start\",\"--stdio\"]}}}");
  CHECK(json::dump(stdio_config(9600)).find("\"--port\",\"9600\"") != std::string::npos);
}

TEST_CASE("the rendered block has every client and embeds the secret as JSON data") {
  auto text = render_client_config({9515, "a\"b", false});
  for (const char* needle : {"Claude Code", "claude mcp add", "~/.claude.json", "OpenCode", "opencode.json", "Cursor",
                             "Windsurf", "Gateway variant", "Stdio variant", "\"Bearer a\\\"b\""})
    CHECK_MESSAGE(text.find(needle) != std::string::npos, needle);
  CHECK(text.find("\x1b[") == std::string::npos);  // no colour when off
}
