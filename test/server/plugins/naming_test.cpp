// Tests for plugin naming: package → plugin names, reserved names, tool name readings.
#include "plugins/naming.hpp"

#include <doctest/doctest.h>

using namespace opentabs::plugins;
using opentabs::errc;

TEST_CASE("package names map to plugin names") {
  CHECK(*plugin_name_from_package("opentabs-plugin-slack") == "slack");
  CHECK(*plugin_name_from_package("@opentabs-dev/opentabs-plugin-github") == "github");
  CHECK(*plugin_name_from_package("@myorg/opentabs-plugin-jira") == "myorg-jira");
  CHECK(*plugin_name_from_package("@fixture/opentabs-plugin-tracker") == "fixture-tracker");
  CHECK(*plugin_name_from_package("opentabs-plugin-e2e-test") == "e2e-test");
}

TEST_CASE("bad package names say which rule they break") {
  auto r = plugin_name_from_package("slack-plugin");
  REQUIRE_FALSE(r.ok());
  CHECK(r.err().is(errc::invalid_params));
  CHECK(r.err().message == "package name \"slack-plugin\" must be opentabs-plugin-<name> or @<scope>/opentabs-plugin-<name>");
  CHECK(plugin_name_from_package("@org/other").err().message.find("@<scope>/opentabs-plugin-<name>") != std::string::npos);
  CHECK(plugin_name_from_package("opentabs-plugin-Bad_Name").err().message.find("must match ^[a-z0-9]+(-[a-z0-9]+)*$") != std::string::npos);
  CHECK(plugin_name_from_package("opentabs-plugin-").err().message.find("must match") != std::string::npos);
  CHECK(plugin_name_from_package("opentabs-plugin-a--b").ok() == false);
  CHECK(plugin_name_from_package("opentabs-plugin-browser").err().message.starts_with(
      "package name \"opentabs-plugin-browser\" gives plugin name \"browser\", which is reserved: the server's own tools use the prefix \"browser_\""));
  // Issue 13 item 11: the WebMCP prefix is reserved too, and the message lists every reserved name.
  auto webmcp = plugin_name_from_package("opentabs-plugin-webmcp");
  REQUIRE_FALSE(webmcp.ok());
  CHECK(webmcp.err().message.find("\"webmcp\", which is reserved") != std::string::npos);
  CHECK(webmcp.err().message.find("reserved names: system, browser, opentabs, extension, config, plugin, tool, mcp, webmcp") != std::string::npos);
  CHECK(plugin_name_from_package("@opentabs-dev/opentabs-plugin-webmcp").ok() == false);
  CHECK(plugin_name_from_package("opentabs-plugin-webmcp-tools").ok());  // only the exact name is a prefix
  CHECK(plugin_name_from_package("@opentabs-dev/opentabs-plugin-mcp").ok() == false);
  CHECK(plugin_name_from_package("@/opentabs-plugin-x").ok() == false);
  CHECK(plugin_name_from_package("@x/opentabs-plugin-../../etc").ok() == false);
}

TEST_CASE("plugin name rule and reserved names") {
  CHECK(is_valid_plugin_name("a"));
  CHECK(is_valid_plugin_name("a-1-b"));
  CHECK_FALSE(is_valid_plugin_name("-a"));
  CHECK_FALSE(is_valid_plugin_name("a-"));
  CHECK_FALSE(is_valid_plugin_name("a_b"));
  CHECK_FALSE(is_valid_plugin_name("A"));
  CHECK_FALSE(is_valid_plugin_name("a/b"));
  CHECK_FALSE(is_valid_plugin_name(std::string(65, 'a')));
  CHECK(reserved_plugin_names().size() == 9);
  for (auto& r : reserved_plugin_names()) CHECK(is_reserved_plugin_name(r));
  CHECK_FALSE(is_reserved_plugin_name("slack"));
}

TEST_CASE("tool names: single underscore canonical, double underscore accepted") {
  CHECK(canonical_tool_name("slack", "send_message") == "slack_send_message");
  CHECK(tool_name_readings("slack_send_message") == std::vector<tool_name_parts>{{"slack", "send_message"}});
  CHECK(tool_name_readings("slack__send_message") ==
        std::vector<tool_name_parts>{{"slack", "send_message"}, {"slack", "_send_message"}});
  CHECK(tool_name_readings("e2e-test__echo").front() == tool_name_parts{"e2e-test", "echo"});
  CHECK(tool_name_readings("noseparator").empty());
  CHECK(tool_name_readings("_x").empty());
  CHECK(tool_name_readings("Bad_x").empty());
  CHECK(tool_name_readings("slack_").empty());
  CHECK(is_valid_tool_base_name("send_message"));
  CHECK(is_valid_tool_base_name("getUser"));
  CHECK_FALSE(is_valid_tool_base_name("_hidden"));
  CHECK_FALSE(is_valid_tool_base_name("a b"));
  CHECK_FALSE(is_valid_tool_base_name(""));
}
