// Section-preserving edits: each changes exactly its section and nothing else — hand-added
// keys, other plugins' entries and key order survive (spec §2, "read-modify-write of only
// that section").
#include <doctest/doctest.h>

#include "config/config.hpp"
#include "config/config_edits.hpp"

using namespace opentabs;
using namespace opentabs::config;
using tools::permission;

namespace {

json::object obj(const std::string& text) {
  auto r = json::parse_object(text);
  REQUIRE(r.ok());
  return *r;
}

// A config someone edited by hand: an unknown key, CLI keys, an out-of-order layout.
const char* kHandEdited = R"({
  "version": 3,
  "port": 9600,
  "myNote": {"keep": ["me", 1]},
  "localPlugins": ["~/dev/a"],
  "permissions": {
    "browser": {"permission": "auto"},
    "slack": {"permission": "ask", "tools": {"send_message": "auto"}},
    "jira": {"permission": "auto", "reviewedVersion": "2.0.0"}
  },
  "settings": {"slack": {"workspace": {"work": "https://acme.slack.com"}}},
  "telemetry": false
})";

std::vector<std::string> keys(const json::object& o) {
  std::vector<std::string> out;
  for (const auto& kv : o) out.emplace_back(kv.key());
  return out;
}

// Everything except `section` is identical, and the top-level key order is unchanged.
void check_only_section_changed(const json::object& before, const json::object& after, const std::string& section) {
  CHECK(keys(before) == keys(after));
  for (const auto& kv : before) {
    if (kv.key() == section) continue;
    CHECK_MESSAGE(kv.value() == after.at(kv.key()), "section ", std::string(kv.key()), " changed");
  }
}

}  // namespace

TEST_CASE("set_tool_permission touches only permissions.<plugin>.tools.<tool>") {
  auto before = obj(kHandEdited);
  auto root = before;
  CHECK(set_tool_permission(root, "slack", "delete_message", permission::off));
  check_only_section_changed(before, root, "permissions");
  const auto& slack = root.at("permissions").at("slack").get_object();
  CHECK(slack.at("permission") == json::value("ask"));
  CHECK(slack.at("tools").at("send_message") == json::value("auto"));
  CHECK(slack.at("tools").at("delete_message") == json::value("off"));
  CHECK(root.at("permissions").at("jira") == before.at("permissions").at("jira"));
  CHECK_FALSE(set_tool_permission(root, "slack", "delete_message", permission::off));  // no change → no write

  // A plugin without any entry yet, and a browser tool (full name under "browser").
  CHECK(set_tool_permission(root, "github", "create_issue", permission::ask));
  CHECK(root.at("permissions").at("github") == json::value(json::object{{"tools", json::object{{"create_issue", "ask"}}}}));
  CHECK(set_tool_permission(root, "browser", "browser_execute_script", permission::off));
  CHECK(root.at("permissions").at("browser").at("permission") == json::value("auto"));
  CHECK(root.at("permissions").at("browser").at("tools").at("browser_execute_script") == json::value("off"));
}

TEST_CASE("remove_tool_permission drops the override and emptied containers") {
  auto root = obj(kHandEdited);
  CHECK(remove_tool_permission(root, "slack", "send_message"));
  CHECK(root.at("permissions").at("slack") == json::value(json::object{{"permission", "ask"}}));
  CHECK_FALSE(remove_tool_permission(root, "slack", "send_message"));
  set_tool_permission(root, "github", "x", permission::auto_);
  CHECK(remove_tool_permission(root, "github", "x"));
  CHECK_FALSE(root.at("permissions").get_object().contains("github"));
}

TEST_CASE("set_plugin_permission sets level and reviewedVersion and clears tool overrides") {
  auto before = obj(kHandEdited);
  auto root = before;
  CHECK(set_plugin_permission(root, "slack", {permission::auto_, std::string("1.4.0"), true}));
  check_only_section_changed(before, root, "permissions");
  CHECK(root.at("permissions").at("slack") ==
        json::value(json::object{{"permission", "auto"}, {"reviewedVersion", "1.4.0"}}));
  CHECK(root.at("permissions").at("browser") == before.at("permissions").at("browser"));

  // Without a reviewed version the stored one stays; overrides can be kept on request.
  CHECK(set_plugin_permission(root, "jira", {permission::ask, std::nullopt, true}));
  CHECK(root.at("permissions").at("jira") == json::value(json::object{{"permission", "ask"}, {"reviewedVersion", "2.0.0"}}));
  set_tool_permission(root, "jira", "search", permission::off);
  CHECK(set_plugin_permission(root, "jira", {permission::auto_, std::nullopt, false}));
  CHECK(root.at("permissions").at("jira").at("tools").at("search") == json::value("off"));
  CHECK_FALSE(set_plugin_permission(root, "jira", {permission::auto_, std::nullopt, false}));
}

TEST_CASE("remove_plugin_permissions removes one plugin's entry only") {
  auto before = obj(kHandEdited);
  auto root = before;
  CHECK(remove_plugin_permissions(root, "slack"));
  CHECK_FALSE(root.at("permissions").get_object().contains("slack"));
  CHECK(root.at("permissions").get_object().size() == 2);
  check_only_section_changed(before, root, "permissions");
  CHECK_FALSE(remove_plugin_permissions(root, "slack"));
}

TEST_CASE("settings edits touch only settings.<plugin>") {
  auto before = obj(kHandEdited);
  auto root = before;
  json::object jira{{"host", "https://acme.atlassian.net"}, {"pageSize", 50}};
  CHECK(set_plugin_settings(root, "jira", jira));
  check_only_section_changed(before, root, "settings");
  CHECK(root.at("settings").at("jira") == json::value(jira));
  CHECK(root.at("settings").at("slack") == before.at("settings").at("slack"));
  CHECK_FALSE(set_plugin_settings(root, "jira", jira));

  CHECK(set_plugin_setting(root, "jira", "pageSize", json::value(10)));
  CHECK(root.at("settings").at("jira").at("pageSize") == json::value(10));
  CHECK(set_plugin_setting(root, "jira", "pageSize", std::nullopt));
  CHECK(set_plugin_setting(root, "jira", "host", std::nullopt));
  CHECK_FALSE(root.at("settings").get_object().contains("jira"));
  CHECK(set_plugin_settings(root, "slack", json::object{}));
  CHECK(root.at("settings").get_object().empty());
}

TEST_CASE("string lists: add is idempotent, remove removes every copy") {
  auto before = obj(kHandEdited);
  auto root = before;
  CHECK(add_to_string_list(root, "localPlugins", "~/dev/b"));
  CHECK_FALSE(add_to_string_list(root, "localPlugins", "~/dev/b"));
  check_only_section_changed(before, root, "localPlugins");
  CHECK(root.at("localPlugins") == json::value(json::array{"~/dev/a", "~/dev/b"}));
  CHECK(add_to_string_list(root, "additionalAllowedDirectories", "/srv/p"));  // created when missing
  CHECK(root.at("additionalAllowedDirectories") == json::value(json::array{"/srv/p"}));
  root.at("localPlugins").get_array().push_back("~/dev/a");
  CHECK(remove_from_string_list(root, "localPlugins", "~/dev/a"));
  CHECK(root.at("localPlugins") == json::value(json::array{"~/dev/b"}));
  CHECK_FALSE(remove_from_string_list(root, "localPlugins", "~/nope"));
}

TEST_CASE("an edit replaces a section of the wrong type (which the parser ignored anyway)") {
  auto root = obj(R"({"version": 3, "permissions": ["oops"], "localPlugins": "x"})");
  CHECK(set_tool_permission(root, "slack", "t", permission::ask));
  CHECK(root.at("permissions").is_object());
  CHECK(add_to_string_list(root, "localPlugins", "~/p"));
  CHECK(root.at("localPlugins") == json::value(json::array{"~/p"}));
}

TEST_CASE("prune removes entries of uninstalled plugins and overrides of vanished tools, never browser") {
  auto before = obj(kHandEdited);
  auto root = before;
  set_tool_permission(root, "slack", "old_tool", permission::off);
  set_tool_permission(root, "browser", "browser_removed_tool", permission::off);
  set_tool_permission(root, "broken-local", "x", permission::auto_);
  prune_inputs in;
  in.tools_by_plugin["slack"] = {"send_message", "read_messages"};
  in.tools_by_plugin["browser"] = {"browser_list_tabs", "browser_execute_script"};
  in.keep = {"broken-local"};  // configured but failed to load this time
  auto removed = prune_permissions(root, in);
  const auto& perms = root.at("permissions").get_object();
  CHECK_FALSE(perms.contains("jira"));
  CHECK(perms.contains("broken-local"));
  CHECK(perms.at("slack").at("tools") == json::value(json::object{{"send_message", "auto"}}));
  CHECK(perms.at("browser") == json::value(json::object{{"permission", "auto"}}));
  CHECK(removed.size() == 3);
  check_only_section_changed(before, root, "permissions");

  // With no browser tool list at all the browser entry is left alone.
  auto root2 = obj(kHandEdited);
  set_tool_permission(root2, "browser", "browser_anything", permission::off);
  prune_permissions(root2, prune_inputs{});
  CHECK(root2.at("permissions").get_object().contains("browser"));
  CHECK(root2.at("permissions").at("browser").at("tools").get_object().contains("browser_anything"));
  CHECK_FALSE(root2.at("permissions").get_object().contains("slack"));
}

TEST_CASE("reset_stale_reviews: a new installed version resets a reviewed plugin to off") {
  auto root = obj(R"({"version": 3, "permissions": {
      "jira": {"permission": "auto", "reviewedVersion": "2.0.0", "tools": {"search": "ask"}},
      "e2e-test": {"permission": "auto", "reviewedVersion": "0.0.91"},
      "slack": {"permission": "auto"},
      "browser": {"permission": "auto"}}})");
  auto reset = reset_stale_reviews(root, {{"jira", "2.1.0"}, {"e2e-test", "0.0.91"}, {"slack", "1.0.0"}});
  CHECK(reset == std::vector<std::string>{"jira"});
  const auto& perms = root.at("permissions").get_object();
  CHECK(perms.at("jira") == json::value(json::object{{"permission", "off"}}));
  CHECK(perms.at("e2e-test").at("permission") == json::value("auto"));
  CHECK(perms.at("slack").at("permission") == json::value("auto"));
  CHECK(perms.at("browser").at("permission") == json::value("auto"));
  CHECK(reset_stale_reviews(root, {{"jira", "2.1.0"}}).empty());  // idempotent
}
