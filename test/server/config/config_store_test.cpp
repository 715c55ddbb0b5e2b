// config.json on disk: default creation, corrupt files (the caller keeps its last good
// config and the file is never overwritten), migrations with config.json.backup, atomic
// section-preserving updates that keep hand edits and leave no temp files.
#include <doctest/doctest.h>

#include "config/config_edits.hpp"
#include "config/config_store.hpp"
#include "test/server/config/scratch_dir.hpp"

using namespace opentabs;
using namespace opentabs::config;
using opentabs::test::mode_of;
using opentabs::test::read_text;
using opentabs::test::scratch_dir;
using opentabs::test::write_text;
using tools::permission;

namespace {

bool any_contains(const std::vector<std::string>& lines, const std::string& needle) {
  for (const auto& l : lines)
    if (l.find(needle) != std::string::npos) return true;
  return false;
}

config_store::edit_fn tool_off(std::string plugin, std::string tool) {
  return [plugin, tool](json::object& root) -> result<bool> {
    return set_tool_permission(root, plugin, tool, permission::off);
  };
}

}  // namespace

TEST_CASE("a missing config.json is created with the default content, mode 0600") {
  scratch_dir tmp;
  config_store store(tmp / "config.json", "/home/alice");
  auto r = store.load();
  REQUIRE(r.ok());
  CHECK(r->created);
  CHECK(r->warnings.empty());
  CHECK(read_text(tmp / "config.json") == default_config_text());
  CHECK_POSIX_MODE(mode_of(tmp / "config.json") == 0600);
  auto again = store.load();
  REQUIRE(again.ok());
  CHECK_FALSE(again->created);
  CHECK(tmp.entries() == std::vector<std::string>{"config.json"});
}

TEST_CASE("a corrupt or half-written config.json is an error and is left untouched") {
  scratch_dir tmp;
  auto path = tmp / "config.json";
  config_store store(path, "/home/alice");
  const std::string torn = "{\n  \"localPlugins\": [\"~/dev/a\"],\n  \"permissions\": {\"slack\": {\"permi";
  write_text(path, torn);
  auto r = store.load();
  REQUIRE_FALSE(r.ok());
  CHECK(r.err().code() == "parse_error");
  CHECK(r.err().message.find(path.string()) != std::string::npos);
  CHECK(r.err().message.find("line 3") != std::string::npos);

  // An update must not replace what someone is in the middle of writing.
  auto u = store.update(tool_off("slack", "x"));
  REQUIRE_FALSE(u.ok());
  CHECK(read_text(path) == torn);
  CHECK(tmp.entries() == std::vector<std::string>{"config.json"});

  write_text(path, "[]");
  CHECK(store.load().err().is(errc::invalid_request));
  write_text(path, std::string(kMaxConfigBytes + 10, ' '));
  auto big = store.load();
  REQUIRE_FALSE(big.ok());
  CHECK(big.err().code() == "too_large");
  CHECK(big.err().message.find(path.string()) != std::string::npos);
}

TEST_CASE("load reports unknown keys and dropped values as warnings") {
  scratch_dir tmp;
  auto path = tmp / "config.json";
  write_text(path, R"({"version": 3, "localPlugin": [], "permissions": {"slack": {"permission": "always"}}})");
  config_store store(path, "/home/alice");
  auto r = store.load();
  REQUIRE(r.ok());
  CHECK(any_contains(r->warnings, "Unknown config key \"localPlugin\" in " + path.string() + ". Did you mean \"localPlugins\"?"));
  CHECK(any_contains(r->warnings, "Dropped invalid permission \"always\""));
  CHECK(r->cfg.permissions.at("slack").permission == std::nullopt);
}

// Skipped on Windows: the test data are POSIX paths (/home/alice), which are not absolute on Windows.
TEST_CASE("a v1 file is migrated to v3, its original bytes kept in config.json.backup" * doctest::skip(opentabs::testing::on_windows)) {
  scratch_dir tmp;
  auto path = tmp / "config.json";
  const std::string v1 =
      "{\"localPlugins\": [\"/home/alice/dev/slack\"], \"permissions\": {\"slack\": {\"permission\": \"ask\"}},\n"
      " \"settings\": {\"slack\": {\"workspace\": \"https://acme.slack.com\"}}, \"myNote\": \"keep\"}";
  write_text(path, v1);
  config_store store(path, "/home/alice");
  auto r = store.load();
  REQUIRE(r.ok());
  CHECK(r->migrated_from == 1);
  CHECK(read_text(tmp / "config.json.backup") == v1);
  CHECK_POSIX_MODE(mode_of(tmp / "config.json.backup") == 0600);
  CHECK(r->cfg.version == 3);
  CHECK(r->cfg.local_plugins == std::vector<std::string>{"~/dev/slack"});
  CHECK(r->cfg.settings.at("slack").at("workspace") == json::value(json::object{{"default", "https://acme.slack.com"}}));
  CHECK(any_contains(r->warnings, "migrated from v1 to v2"));
  CHECK(any_contains(r->warnings, "Config backup written to"));

  // The migrated file is on disk, keeps the hand-added key, and loads without migrating again.
  auto on_disk = json::parse_object(read_text(path));
  REQUIRE(on_disk.ok());
  CHECK(on_disk->at("version") == json::value(3));
  CHECK(on_disk->at("myNote") == json::value("keep"));
  auto again = store.load();
  REQUIRE(again.ok());
  CHECK_FALSE(again->migrated_from.has_value());
  CHECK(tmp.entries() == std::vector<std::string>{"config.json", "config.json.backup"});
}

TEST_CASE("a newer-version file loads as-is with a warning and is not rewritten") {
  scratch_dir tmp;
  auto path = tmp / "config.json";
  const std::string v9 = R"({"version": 9, "localPlugins": ["/home/alice/p"], "newThing": {}})";
  write_text(path, v9);
  config_store store(path, "/home/alice");
  auto r = store.load();
  REQUIRE(r.ok());
  CHECK(r->cfg.version == 9);
  CHECK(r->cfg.local_plugins == std::vector<std::string>{"/home/alice/p"});
  CHECK(any_contains(r->warnings, "is newer than supported version 3; loading as-is"));
  CHECK(read_text(path) == v9);
  CHECK_FALSE(std::filesystem::exists(tmp / "config.json.backup"));
}

TEST_CASE("updates are section-preserving: a hand edit of another section survives") {
  scratch_dir tmp;
  auto path = tmp / "config.json";
  config_store store(path, "/home/alice");
  REQUIRE(store.load().ok());

  // The server has the file loaded; now a person edits other sections by hand.
  auto hand = json::parse_object(read_text(path));
  REQUIRE(hand.ok());
  (*hand)["localPlugins"] = json::array{"~/dev/new-plugin"};
  (*hand)["settings"] = json::object{{"jira", json::object{{"host", "https://acme.atlassian.net"}}}};
  (*hand)["port"] = 9600;
  (*hand)["personalNote"] = "do not delete";
  write_text(path, format_config_text(*hand));

  // The server persists one tool permission.
  auto r = store.update(tool_off("slack", "delete_message"));
  REQUIRE(r.ok());
  auto after = json::parse_object(read_text(path));
  REQUIRE(after.ok());
  CHECK(after->at("localPlugins") == json::value(json::array{"~/dev/new-plugin"}));
  CHECK(after->at("settings") == hand->at("settings"));
  CHECK(after->at("port") == json::value(9600));
  CHECK(after->at("personalNote") == json::value("do not delete"));
  CHECK(after->at("permissions").at("slack").at("tools").at("delete_message") == json::value("off"));
  CHECK(r->cfg.local_plugins == std::vector<std::string>{"~/dev/new-plugin"});
  CHECK(r->cfg.permissions.at("slack").tools.at("delete_message") == permission::off);
  CHECK_POSIX_MODE(mode_of(path) == 0600);
  CHECK(tmp.entries() == std::vector<std::string>{"config.json"});  // no temp files left
}

TEST_CASE("many successive updates round-trip and leave no temp files") {
  scratch_dir tmp;
  auto path = tmp / "config.json";
  config_store store(path, "/home/alice");
  for (int i = 0; i < 20; ++i) {
    auto r = store.update([i](json::object& root) -> result<bool> {
      return set_plugin_setting(root, "counter", "n", json::value(i));
    });
    REQUIRE(r.ok());
  }
  auto final_load = store.load();
  REQUIRE(final_load.ok());
  CHECK(final_load->cfg.settings.at("counter").at("n") == json::value(19));
  CHECK(tmp.entries() == std::vector<std::string>{"config.json"});
}

TEST_CASE("update on a missing file starts from the defaults; a no-op edit does not write") {
  scratch_dir tmp;
  auto path = tmp / "config.json";
  config_store store(path, "/home/alice");
  auto r = store.update([](json::object& root) -> result<bool> {
    return set_plugin_permission(root, "browser", {permission::auto_, std::nullopt, true});
  });
  REQUIRE(r.ok());
  CHECK(r->created);
  auto on_disk = json::parse_object(read_text(path));
  REQUIRE(on_disk.ok());
  CHECK(on_disk->at("updateCheckIntervalMinutes") == json::value(30));
  CHECK(on_disk->at("permissions").at("browser").at("permission") == json::value("auto"));

  // A hand edit of formatting must stay byte-identical when an edit changes nothing.
  const std::string compact = R"({"version":3,"permissions":{"browser":{"permission":"auto"}}})";
  write_text(path, compact);
  auto noop = store.update([](json::object& root) -> result<bool> {
    return set_plugin_permission(root, "browser", {permission::auto_, std::nullopt, true});
  });
  REQUIRE(noop.ok());
  CHECK(read_text(path) == compact);
}

TEST_CASE("an edit that fails aborts the update without writing") {
  scratch_dir tmp;
  auto path = tmp / "config.json";
  config_store store(path, "/home/alice");
  REQUIRE(store.load().ok());
  auto before = read_text(path);
  auto r = store.update([](json::object& root) -> result<bool> {
    set_tool_permission(root, "x", "y", permission::auto_);  // partial change that must not land
    return make_error(errc::invalid_params, "nope");
  });
  REQUIRE_FALSE(r.ok());
  CHECK(r.err().message == "nope");
  CHECK(read_text(path) == before);
}

TEST_CASE("a missing config directory is created (0700) on first load and on update") {
  scratch_dir tmp;
  config_store store(tmp / "fresh" / "config.json", "/home/alice");
  auto r = store.load();
  REQUIRE(r.ok());
  CHECK(r->created);
  CHECK_POSIX_MODE(mode_of(tmp / "fresh") == 0700);
  std::filesystem::remove_all(tmp / "fresh");
  REQUIRE(store.update(tool_off("slack", "x")).ok());
  CHECK(std::filesystem::exists(tmp / "fresh" / "config.json"));
}

TEST_CASE("a failing write is an error value, not an exception") {
  // /sys refuses mkdir even for root, so "file missing, cannot create" is real here.
  // (Permission bits would not do: the tests may run as root.)
  if (!std::filesystem::is_directory("/sys")) return;
  config_store store(fs::path("/sys") / ("ot-config-test-" + random_hex(4)) / "config.json", "/home/alice");
  auto r = store.update(tool_off("slack", "x"));
  REQUIRE_FALSE(r.ok());
  CHECK(r.err().code() == "io");
  // load() still gives the defaults, with a warning, so the server can run.
  auto l = store.load();
  REQUIRE(l.ok());
  CHECK(l->created);
  CHECK(any_contains(l->warnings, "Cannot create default config"));
  CHECK(l->cfg.update_check_interval_minutes == 30);
}

// Skipped on Windows: a path under a regular file is "not found" there (ERROR_PATH_NOT_FOUND), not ENOTDIR, so load starts from defaults (README: open on Windows).
TEST_CASE("a config path that cannot be read is an error for load and update" * doctest::skip(opentabs::testing::on_windows)) {
  scratch_dir tmp;
  write_text(tmp / "not-a-dir", "x");  // the "directory" is a regular file
  config_store blocked(tmp / "not-a-dir" / "config.json", "/home/alice");
  CHECK(blocked.load().err().code() == "io");
  CHECK(blocked.update(tool_off("slack", "x")).err().code() == "io");
  CHECK(read_text(tmp / "not-a-dir") == "x");
}

TEST_CASE("an update that would make config.json larger than the loader accepts is refused and changes nothing") {
  scratch_dir tmp;
  config_store store(tmp / "config.json", "/home/alice");
  REQUIRE(store.load().ok());
  const auto before = read_text(tmp / "config.json");
  auto huge = [](json::object& root) -> result<bool> {
    root["settings"] = json::object{{"p", json::object{{"blob", json::str(std::string(kMaxConfigBytes, 'x'))}}}};
    return true;
  };
  auto r = store.update(huge);
  REQUIRE_FALSE(r.ok());
  CHECK(r.err().code() == "too_large");
  CHECK(r.err().message.find("nothing was saved") != std::string::npos);
  CHECK(read_text(tmp / "config.json") == before);
  // The store keeps working.
  CHECK(store.update(tool_off("slack", "send_message")).ok());
  CHECK(store.load().ok());
}
