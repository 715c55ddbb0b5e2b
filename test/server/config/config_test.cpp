// config.json parsing (spec §2.1): the default file, corrupt and half-written files, wrong
// types, invalid permission values and unknown-key warnings.
#include <doctest/doctest.h>

#include "config/config.hpp"

using namespace opentabs;
using namespace opentabs::config;
using tools::permission;

namespace {

const fs::path kPath = "/home/alice/.opentabs/config.json";

config_file parse_ok(const std::string& text, std::vector<std::string>& warnings) {
  auto root = parse_config_text(text, kPath);
  REQUIRE(root.ok());
  return config_from_object(*root, kPath, warnings);
}

bool any_contains(const std::vector<std::string>& lines, const std::string& needle) {
  for (const auto& l : lines)
    if (l.find(needle) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("the default file is the original's, byte for byte") {
  CHECK(default_config_text() ==
        "{\n"
        "  \"localPlugins\": [],\n"
        "  \"localPluginDirs\": [],\n"
        "  \"permissions\": {},\n"
        "  \"settings\": {},\n"
        "  \"additionalAllowedDirectories\": [],\n"
        "  \"version\": 3,\n"
        "  \"updateCheckIntervalMinutes\": 30\n"
        "}\n");
  std::vector<std::string> warnings;
  auto c = parse_ok(default_config_text(), warnings);
  CHECK(warnings.empty());
  CHECK(c.version == 3);
  CHECK(c.update_check_interval_minutes == 30);
  CHECK(c.local_plugins.empty());
  CHECK(c.permissions.empty());
  CHECK_FALSE(c.port.has_value());
}

TEST_CASE("a full, valid config parses into the struct") {
  std::vector<std::string> warnings;
  auto c = parse_ok(R"({
    "localPlugins": ["~/plugins/e2e-test", "/opt/p"],
    "localPluginDirs": ["~/plugin-dev"],
    "permissions": {
      "browser": {"permission": "auto"},
      "e2e-test": {"permission": "auto", "reviewedVersion": "0.0.91", "tools": {"greet": "ask", "echo": "off"}}
    },
    "settings": {"slack": {"workspace": {"work": "https://acme.slack.com"}, "limit": 5}},
    "additionalAllowedDirectories": ["/srv/plugins"],
    "version": 3,
    "updateCheckIntervalMinutes": 0
  })",
                    warnings);
  CHECK(warnings.empty());
  CHECK(c.local_plugins == std::vector<std::string>{"~/plugins/e2e-test", "/opt/p"});
  CHECK(c.local_plugin_dirs == std::vector<std::string>{"~/plugin-dev"});
  CHECK(c.additional_allowed_directories == std::vector<std::string>{"/srv/plugins"});
  CHECK(c.update_check_interval_minutes == 0);
  REQUIRE(c.permissions.count("e2e-test"));
  const auto& e2e = c.permissions.at("e2e-test");
  CHECK(e2e.permission == permission::auto_);
  CHECK(e2e.reviewed_version == "0.0.91");
  CHECK(e2e.tools.at("greet") == permission::ask);
  CHECK(e2e.tools.at("echo") == permission::off);
  CHECK(c.permissions.at("browser").permission == permission::auto_);
  REQUIRE(c.settings.count("slack"));
  CHECK(json::get_int(c.settings.at("slack"), "limit") == 5);
}

TEST_CASE("a truncated (half-written) file is an error naming the file and the line/column") {
  std::string full = default_config_text();
  std::string torn = full.substr(0, full.find("\"settings\""));  // cut mid-object, as a SIGKILL would
  auto r = parse_config_text(torn, kPath);
  REQUIRE_FALSE(r.ok());
  CHECK(r.err().code() == "parse_error");
  CHECK(r.err().message.find(kPath.string()) != std::string::npos);
  CHECK(r.err().message.find("line 5") != std::string::npos);
  CHECK(r.err().message.find("column") != std::string::npos);
}

TEST_CASE("an empty file, trailing garbage and a non-object are errors") {
  CHECK(parse_config_text("", kPath).err().code() == "parse_error");
  auto garbage = parse_config_text("{\"version\": 3}\n}", kPath);
  REQUIRE_FALSE(garbage.ok());
  CHECK(garbage.err().message.find("line 2, column 1") != std::string::npos);
  auto arr = parse_config_text("[1,2]", kPath);
  REQUIRE_FALSE(arr.ok());
  CHECK(arr.err().is(errc::invalid_request));
  CHECK(arr.err().message.find(kPath.string()) != std::string::npos);
  CHECK(arr.err().message.find("array") != std::string::npos);
}

TEST_CASE("a file over 1 MiB is refused") {
  std::string big = "{\"localPlugins\": [\"" + std::string(kMaxConfigBytes, 'a') + "\"]}";
  auto r = parse_config_text(big, kPath);
  REQUIRE_FALSE(r.ok());
  CHECK(r.err().code() == "too_large");
  CHECK(r.err().message.find(kPath.string()) != std::string::npos);
}

TEST_CASE("wrong types are dropped with warnings that name the key and file; the rest still loads") {
  std::vector<std::string> warnings;
  auto c = parse_ok(R"({
    "localPlugins": "~/one-plugin",
    "localPluginDirs": ["~/ok", 7, "", null],
    "permissions": ["browser"],
    "settings": {"slack": "not-an-object", "jira": {"host": "x"}},
    "additionalAllowedDirectories": {"a": 1},
    "version": 3,
    "updateCheckIntervalMinutes": -5,
    "port": "9515",
    "telemetry": "no"
  })",
                    warnings);
  CHECK(c.local_plugins.empty());
  CHECK(c.local_plugin_dirs == std::vector<std::string>{"~/ok"});
  CHECK(c.permissions.empty());
  CHECK(c.settings.size() == 1);
  CHECK(c.settings.count("jira"));
  CHECK(c.additional_allowed_directories.empty());
  CHECK(c.update_check_interval_minutes == 30);
  CHECK_FALSE(c.port.has_value());
  CHECK_FALSE(c.telemetry.has_value());
  CHECK(any_contains(warnings, "\"localPlugins\" in " + kPath.string() + " must be an array of strings, got string"));
  CHECK(any_contains(warnings, "Dropped \"localPluginDirs\"[1]"));
  CHECK(any_contains(warnings, "Dropped \"localPluginDirs\"[2]"));
  CHECK(any_contains(warnings, "Dropped \"localPluginDirs\"[3]"));
  CHECK(any_contains(warnings, "\"permissions\" in " + kPath.string() + " must be an object, got array"));
  CHECK(any_contains(warnings, "Dropped settings for plugin \"slack\""));
  CHECK(any_contains(warnings, "\"updateCheckIntervalMinutes\""));
  CHECK(any_contains(warnings, "\"port\""));
  CHECK(any_contains(warnings, "\"telemetry\""));
}

TEST_CASE("invalid permission values are dropped with a warning, valid neighbours kept") {
  std::vector<std::string> warnings;
  auto c = parse_ok(R"({
    "version": 3,
    "permissions": {
      "slack": {"permission": "yes", "tools": {"send_message": "auto", "delete": true, "read": "ASK"},
                "reviewedVersion": 3},
      "jira": "auto",
      "github": {"permission": "ask", "tools": ["x"]}
    }
  })",
                    warnings);
  REQUIRE(c.permissions.count("slack"));
  const auto& slack = c.permissions.at("slack");
  CHECK_FALSE(slack.permission.has_value());
  CHECK(slack.tools.size() == 1);
  CHECK(slack.tools.at("send_message") == permission::auto_);
  CHECK_FALSE(slack.reviewed_version.has_value());
  CHECK_FALSE(c.permissions.count("jira"));
  CHECK(c.permissions.at("github").permission == permission::ask);
  CHECK(c.permissions.at("github").tools.empty());
  CHECK(any_contains(warnings, "Dropped invalid permission \"yes\" (expected \"off\", \"ask\" or \"auto\") for plugin \"slack\""));
  CHECK(any_contains(warnings, "for tool \"delete\" of plugin \"slack\""));
  CHECK(any_contains(warnings, "\"ASK\""));
  CHECK(any_contains(warnings, "Dropped invalid reviewedVersion 3 for plugin \"slack\""));
  CHECK(any_contains(warnings, "Dropped permissions for plugin \"jira\""));
  CHECK(any_contains(warnings, "Dropped \"tools\" of plugin \"github\""));
}

TEST_CASE("unknown keys warn with a did-you-mean within edit distance 3") {
  std::vector<std::string> warnings;
  auto c = parse_ok(R"({"version": 3, "localPlugin": ["~/x"], "permisions": {}, "port": 9600, "telemetry": false,
                        "completelyDifferent": 1})",
                    warnings);
  CHECK(any_contains(warnings, "Unknown config key \"localPlugin\" in " + kPath.string() +
                                   ". Did you mean \"localPlugins\"?"));
  CHECK(any_contains(warnings, "Unknown config key \"permisions\" in " + kPath.string() +
                                   ". Did you mean \"permissions\"?"));
  // "port" (what `opentabs config set port` writes) and "telemetry" are known keys: no warning.
  CHECK(!any_contains(warnings, "\"port\""));
  CHECK(!any_contains(warnings, "\"telemetry\""));
  CHECK(c.port == 9600);
  CHECK(c.telemetry == false);
  bool different_has_no_suggestion = false;
  for (const auto& w : warnings)
    if (w.find("\"completelyDifferent\"") != std::string::npos) different_has_no_suggestion = w.find("Did you mean") == std::string::npos;
  CHECK(different_has_no_suggestion);
  // The misspelt key is not read as the real one.
  CHECK(c.local_plugins.empty());
}

TEST_CASE("declared_version: positive integers only, else 1") {
  CHECK(declared_version(*parse_config_text(R"({"version": 2})", kPath)) == 2);
  CHECK(declared_version(*parse_config_text(R"({"version": 3.0})", kPath)) == 3);
  CHECK(declared_version(*parse_config_text(R"({})", kPath)) == 1);
  CHECK(declared_version(*parse_config_text(R"({"version": "3"})", kPath)) == 1);
  CHECK(declared_version(*parse_config_text(R"({"version": 0})", kPath)) == 1);
  CHECK(declared_version(*parse_config_text(R"({"version": 2.5})", kPath)) == 1);
}
