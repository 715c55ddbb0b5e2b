// `opentabs config set <key> <value>` keys (spec §1.3): effects on the config object and
// the errors people see for mistakes.
#include <doctest/doctest.h>

#include "test/support/test_os.hpp"

#include "config/cli_setting.hpp"
#include "config/config.hpp"

using namespace opentabs;
using namespace opentabs::config;

namespace {

const cli_path_context kPaths{"/home/alice/work", "/home/alice", "/home/alice/.opentabs"};

json::object fresh() { return default_config_object(); }

std::string ok_message(json::object& root, std::string_view key, std::string_view value) {
  auto r = apply_cli_setting(root, key, value, kPaths);
  if (!r.ok()) FAIL(r.err().message);
  return *r;
}

error fails(json::object& root, std::string_view key, std::string_view value) {
  auto before = root;
  auto r = apply_cli_setting(root, key, value, kPaths);
  REQUIRE_FALSE(r.ok());
  CHECK(root == before);  // a rejected setting changes nothing
  return r.err();
}

}  // namespace

TEST_CASE("tool-permission.<plugin>.<tool> stores an explicit override, off included") {
  auto root = fresh();
  CHECK(ok_message(root, "tool-permission.slack.send_message", "auto") == "tool-permission.slack.send_message = auto");
  ok_message(root, "tool-permission.slack.delete_message", "off");
  ok_message(root, "tool-permission.browser.browser_execute_script", "ask");
  CHECK(root.at("permissions").at("slack").at("tools") ==
        json::value(json::object{{"send_message", "auto"}, {"delete_message", "off"}}));
  CHECK(root.at("permissions").at("browser").at("tools").at("browser_execute_script") == json::value("ask"));
}

TEST_CASE("plugin-permission.<plugin>: ask/auto set the level, off deletes the entry") {
  auto root = fresh();
  ok_message(root, "tool-permission.slack.wipe", "off");
  ok_message(root, "plugin-permission.slack", "auto");
  // The per-tool "off" survives turning the plugin on.
  CHECK(root.at("permissions").at("slack") ==
        json::value(json::object{{"tools", json::object{{"wipe", "off"}}}, {"permission", "auto"}}));
  CHECK(ok_message(root, "plugin-permission.slack", "off") == "plugin-permission.slack = off (entry removed)");
  CHECK(root.at("permissions").get_object().empty());
}

TEST_CASE("permission values other than off/ask/auto are rejected") {
  auto root = fresh();
  auto e = fails(root, "plugin-permission.slack", "enabled");
  CHECK(e.is(errc::invalid_params));
  CHECK(e.message == "Invalid permission \"enabled\" for plugin-permission.slack: use off, ask or auto");
  CHECK(fails(root, "tool-permission.slack.x", "AUTO").is(errc::invalid_params));
  CHECK(fails(root, "tool-permission.slack", "auto").message.find("tool-permission.<plugin>.<tool>") != std::string::npos);
  CHECK(fails(root, "tool-permission..x", "auto").message.find("Invalid plugin name") != std::string::npos);
  CHECK(fails(root, "plugin-permission.", "auto").is(errc::invalid_params));
  CHECK(fails(root, "plugin-permission.sl ack", "auto").is(errc::invalid_params));
}

TEST_CASE("setting.<plugin>.<key> keeps JSON types, unquotes strings and removes on ''") {
  auto root = fresh();
  ok_message(root, "setting.jira.host", "acme.atlassian.net");
  ok_message(root, "setting.jira.pageSize", "50");
  ok_message(root, "setting.jira.verbose", "true");
  ok_message(root, "setting.jira.label", "\"quoted text\"");
  ok_message(root, "setting.slack.workspace", R"({"work": "https://acme.slack.com"})");
  const auto& jira = root.at("settings").at("jira").get_object();
  CHECK(jira.at("host") == json::value("acme.atlassian.net"));
  CHECK(jira.at("pageSize") == json::value(50));
  CHECK(jira.at("verbose") == json::value(true));
  CHECK(jira.at("label") == json::value("quoted text"));
  CHECK(root.at("settings").at("slack").at("workspace").at("work") == json::value("https://acme.slack.com"));

  CHECK(ok_message(root, "setting.jira.verbose", "") == "setting.jira.verbose removed");
  CHECK_FALSE(root.at("settings").at("jira").get_object().contains("verbose"));
  CHECK(ok_message(root, "setting.jira.verbose", "") == "setting.jira.verbose was not set");

  CHECK(fails(root, "setting.jira.list", "[1,2]").is(errc::invalid_params));
  CHECK(fails(root, "setting.slack.workspace", R"({"work": 5})").message.find("instance names to URL strings") !=
        std::string::npos);
}

TEST_CASE("port accepts 1-65535 only") {
  auto root = fresh();
  CHECK(ok_message(root, "port", "9600") == "port = 9600");
  CHECK(root.at("port") == json::value(9600));
  for (const char* bad : {"0", "65536", "-1", "80a", "", "99999999999"}) {
    auto e = fails(root, "port", bad);
    CHECK(e.is(errc::invalid_params));
    CHECK(e.message.find("1 to 65535") != std::string::npos);
  }
}

TEST_CASE("toolNames accepts single-underscore or double-underscore, and config.json reads it back") {
  auto root = fresh();
  CHECK(ok_message(root, "toolNames", "double-underscore") == "toolNames = double-underscore");
  std::vector<std::string> warnings;
  CHECK(config_from_object(root, "config.json", warnings).tool_names == tool_name_style::double_underscore);
  CHECK(warnings.empty());
  for (const char* bad : {"double_underscore", "__", ""}) {
    auto e = fails(root, "toolNames", bad);
    CHECK(e.is(errc::invalid_params));
    CHECK(e.message.find("single-underscore (<plugin>_<tool>) or double-underscore (<plugin>__<tool>)") != std::string::npos);
  }
  root["toolNames"] = 3;
  CHECK(config_from_object(root, "config.json", warnings).tool_names == tool_name_style::single_underscore);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].find("\"toolNames\"") != std::string::npos);
}

// Skipped on Windows: the test data are POSIX paths (/home/alice), which are not absolute on Windows.
TEST_CASE("localPlugins.add resolves against cwd, stores ~/ under home and detects duplicates" * doctest::skip(opentabs::testing::on_windows)) {
  auto root = fresh();
  CHECK(ok_message(root, "localPlugins.add", "../plugins/slack/") == "Added to localPlugins: ~/plugins/slack");
  ok_message(root, "localPlugins.add", "/opt/plugins/jira");
  CHECK(root.at("localPlugins") == json::value(json::array{"~/plugins/slack", "/opt/plugins/jira"}));
  // The same directory spelt differently is recognised.
  CHECK(ok_message(root, "localPlugins.add", "/home/alice/plugins/slack") ==
        "Already registered in localPlugins: ~/plugins/slack");
  CHECK(ok_message(root, "localPlugins.add", "~/plugins/./slack") ==
        "Already registered in localPlugins: ~/plugins/slack");
  CHECK(root.at("localPlugins").get_array().size() == 2);
}

// Skipped on Windows: the test data are POSIX paths (/home/alice), which are not absolute on Windows.
TEST_CASE("localPlugins.remove finds entries stored as ~/, absolute or relative to the config dir" * doctest::skip(opentabs::testing::on_windows)) {
  auto root = fresh();
  root["localPlugins"] = json::array{"~/plugins/slack", "/opt/plugins/jira", "local/p"};
  CHECK(ok_message(root, "localPlugins.remove", "/home/alice/plugins/slack") == "Removed from localPlugins: ~/plugins/slack");
  CHECK(ok_message(root, "localPlugins.remove", "/home/alice/.opentabs/local/p") == "Removed from localPlugins: local/p");
  CHECK(root.at("localPlugins") == json::value(json::array{"/opt/plugins/jira"}));
  auto e = fails(root, "localPlugins.remove", "nothing-here");
  CHECK(e.code() == "not_found");
  CHECK(e.message == "Path not found in localPlugins: /home/alice/work/nothing-here");
  CHECK(fails(root, "localPlugins.add", "").is(errc::invalid_params));
}

// Skipped on Windows: the test data are POSIX paths (/home/alice), which are not absolute on Windows.
TEST_CASE("allowedDirectories.add|remove edit additionalAllowedDirectories with absolute paths" * doctest::skip(opentabs::testing::on_windows)) {
  auto root = fresh();
  ok_message(root, "allowedDirectories.add", "/srv/plugins");
  ok_message(root, "allowedDirectories.add", "shared");
  CHECK(root.at("additionalAllowedDirectories") == json::value(json::array{"/srv/plugins", "/home/alice/work/shared"}));
  ok_message(root, "allowedDirectories.remove", "/srv/plugins/");
  CHECK(root.at("additionalAllowedDirectories") == json::value(json::array{"/home/alice/work/shared"}));
}

TEST_CASE("unknown keys get a did-you-mean and the list of supported keys") {
  auto root = fresh();
  auto e = fails(root, "tool-permision.slack.send", "auto");
  CHECK(e.is(errc::invalid_params));
  CHECK(e.message.find("Unknown config key \"tool-permision.slack.send\". Did you mean \"tool-permission.slack.send\"?") !=
        std::string::npos);
  CHECK(e.message.find("Supported keys:") != std::string::npos);
  CHECK(fails(root, "prot", "9515").message.find("Did you mean \"port\"?") != std::string::npos);
  CHECK(fails(root, "localPlugins.ad", "x").message.find("Did you mean \"localPlugins.add\"?") != std::string::npos);
  CHECK(fails(root, "secret", "x").message.find("Did you mean") == std::string::npos);
}
