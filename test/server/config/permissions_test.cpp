// Permission resolution (spec §2.2): tool override → plugin level → off; skip-permissions
// turns only ask into auto; browser tools use the "browser" key and full tool names.
#include <doctest/doctest.h>

#include "config/config.hpp"
#include "config/permissions.hpp"

using namespace opentabs;
using namespace opentabs::config;
using tools::permission;

namespace {
config_file from(const std::string& text) {
  auto root = parse_config_text(text, "/c/config.json");
  REQUIRE(root.ok());
  std::vector<std::string> warnings;
  auto c = config_from_object(*root, "/c/config.json", warnings);
  REQUIRE(warnings.empty());
  return c;
}
}  // namespace

TEST_CASE("configured permission: tool override, then plugin level, then off") {
  auto c = from(R"({"version": 3, "permissions": {
      "e2e-test": {"permission": "auto", "reviewedVersion": "0.0.91", "tools": {"greet": "ask", "danger": "off"}},
      "jira": {"tools": {"search": "auto"}}}})");
  CHECK(configured_permission(c, "e2e-test", "greet") == permission::ask);
  CHECK(configured_permission(c, "e2e-test", "danger") == permission::off);
  CHECK(configured_permission(c, "e2e-test", "echo") == permission::auto_);
  CHECK(configured_permission(c, "jira", "search") == permission::auto_);
  CHECK(configured_permission(c, "jira", "create") == permission::off);
  CHECK(configured_permission(c, "unknown", "x") == permission::off);
  CHECK(plugin_permission(c, "e2e-test") == permission::auto_);
  CHECK(plugin_permission(c, "jira") == permission::off);
}

TEST_CASE("browser tools: everything off by default, then the browser entry") {
  config_file empty;
  CHECK(configured_permission(empty, "browser", "browser_list_tabs") == permission::off);
  auto c = from(R"({"version": 3, "permissions": {"browser": {"permission": "ask",
                                                              "tools": {"browser_execute_script": "off"}}}})");
  CHECK(configured_permission(c, kBrowserPermissionKey, "browser_list_tabs") == permission::ask);
  CHECK(configured_permission(c, kBrowserPermissionKey, "browser_execute_script") == permission::off);
}

TEST_CASE("browserToolGroups set a browser group's level; a tool entry still wins; other plugins are untouched") {
  auto c = from(R"({"version": 3, "browserToolGroups": {"Network": "off", "CSS": "ask"}, "hideDisabledTools": true,
                    "permissions": {"browser": {"permission": "auto", "tools": {"browser_throttle_network": "auto"}},
                                    "Network": {"permission": "auto"}}})");
  CHECK(c.hide_disabled_tools);
  CHECK(configured_permission(c, kBrowserPermissionKey, "browser_enable_network_capture") == permission::off);
  CHECK(configured_permission(c, kBrowserPermissionKey, "browser_throttle_network") == permission::auto_);
  CHECK(configured_permission(c, kBrowserPermissionKey, "browser_get_element_styles") == permission::ask);
  CHECK(configured_permission(c, kBrowserPermissionKey, "browser_snapshot") == permission::auto_);
  CHECK(configured_permission(c, "Network", "anything") == permission::auto_);
  config_file plain;
  CHECK_FALSE(plain.hide_disabled_tools);
  // A group level applies even without a permissions.browser entry.
  auto only_groups = from(R"({"version": 3, "browserToolGroups": {"Tabs": "auto"}})");
  CHECK(configured_permission(only_groups, kBrowserPermissionKey, "browser_list_tabs") == permission::auto_);
  CHECK(configured_permission(only_groups, kBrowserPermissionKey, "browser_snapshot") == permission::off);
}

TEST_CASE("bad hideDisabledTools and browserToolGroups values are warnings naming the key") {
  auto root = parse_config_text(R"({"version": 3, "hideDisabledTools": "yes", "browserToolGroups": {"Network": "never"}})", "/c/config.json");
  REQUIRE(root.ok());
  std::vector<std::string> warnings;
  auto c = config_from_object(*root, "/c/config.json", warnings);
  REQUIRE(warnings.size() == 2);
  CHECK(warnings[0].find("\"hideDisabledTools\"") != std::string::npos);
  CHECK(warnings[1].find("\"browserToolGroups\".Network") != std::string::npos);
  CHECK_FALSE(c.hide_disabled_tools);
  CHECK(c.browser_tool_groups.empty());
}

TEST_CASE("skip-permissions turns ask into auto and nothing else") {
  CHECK(effective_permission(permission::ask, true) == permission::auto_);
  CHECK(effective_permission(permission::off, true) == permission::off);
  CHECK(effective_permission(permission::auto_, true) == permission::auto_);
  CHECK(effective_permission(permission::ask, false) == permission::ask);
  auto c = from(R"({"version": 3, "permissions": {"slack": {"permission": "ask", "tools": {"wipe": "off"}}}})");
  CHECK(effective_permission(c, "slack", "send", true) == permission::auto_);
  CHECK(effective_permission(c, "slack", "send", false) == permission::ask);
  CHECK(effective_permission(c, "slack", "wipe", true) == permission::off);
}

TEST_CASE("reviewed means reviewedVersion equals the installed version") {
  auto c = from(R"({"version": 3, "permissions": {"e2e-test": {"permission": "auto", "reviewedVersion": "0.0.91"},
                                                  "slack": {"permission": "auto"}}})");
  CHECK(is_reviewed(c, "e2e-test", "0.0.91"));
  CHECK_FALSE(is_reviewed(c, "e2e-test", "0.0.92"));
  CHECK_FALSE(is_reviewed(c, "slack", "1.0.0"));
  CHECK_FALSE(is_reviewed(c, "none", "1.0.0"));
}
