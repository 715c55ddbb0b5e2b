// config.json migrations 1→2 (url settings become instance maps) and 2→3 (home paths
// become ~/...), and the "newer version" rule.
#include <doctest/doctest.h>

#include "test/support/test_os.hpp"

#include "config/config.hpp"
#include "config/config_migrations.hpp"

using namespace opentabs;
using namespace opentabs::config;

namespace {
const fs::path kHome = "/home/alice";
const fs::path kPath = "/home/alice/.opentabs/config.json";

json::object obj(const std::string& text) {
  auto r = json::parse_object(text);
  REQUIRE(r.ok());
  return *r;
}
}  // namespace

TEST_CASE("v1→v2 turns url strings into {\"default\": url} and leaves other values alone") {
  auto root = obj(R"({"settings": {"slack": {"workspace": "https://acme.slack.com", "name": "acme",
                                             "count": 3, "insecure": "http://localhost:8080/x",
                                             "already": {"work": "https://a.example"}},
                                   "broken": "not-an-object"}})");
  migrate_v1_to_v2(root);
  const auto& slack = root.at("settings").at("slack").get_object();
  CHECK(slack.at("workspace") == json::value(json::object{{"default", "https://acme.slack.com"}}));
  CHECK(slack.at("insecure") == json::value(json::object{{"default", "http://localhost:8080/x"}}));
  CHECK(slack.at("name") == json::value("acme"));
  CHECK(slack.at("count") == json::value(3));
  CHECK(slack.at("already") == json::value(json::object{{"work", "https://a.example"}}));
  CHECK(root.at("settings").at("broken") == json::value("not-an-object"));
}

// Skipped on Windows: the test data are POSIX paths (/home/alice), which are not absolute on Windows.
TEST_CASE("v2→v3 contracts absolute paths under $HOME to ~/ and keeps the others" * doctest::skip(opentabs::testing::on_windows)) {
  auto root = obj(R"({"localPlugins": ["/home/alice/dev/plugin-a", "/home/alice/dev/../x/", "/home/alicia/p",
                                       "/opt/plugins/b", "~/already", "relative/c", "/home/alice", 5]})");
  migrate_v2_to_v3(root, kHome);
  const auto& list = root.at("localPlugins").get_array();
  CHECK(list[0] == json::value("~/dev/plugin-a"));
  CHECK(list[1] == json::value("~/x/"));
  CHECK(list[2] == json::value("/home/alicia/p"));  // a sibling home is not under ours
  CHECK(list[3] == json::value("/opt/plugins/b"));
  CHECK(list[4] == json::value("~/already"));
  CHECK(list[5] == json::value("relative/c"));
  CHECK(list[6] == json::value("/home/alice"));
  CHECK(list[7] == json::value(5));
}

// Skipped on Windows: the test data are POSIX paths (/home/alice), which are not absolute on Windows.
TEST_CASE("migrate runs every step from a version-less (v1) file and sets version 3" * doctest::skip(opentabs::testing::on_windows)) {
  auto root = obj(R"({"localPlugins": ["/home/alice/p"], "settings": {"s": {"u": "https://x.example"}}})");
  auto out = migrate(root, kHome, kPath);
  CHECK(out.migrated);
  CHECK(out.from_version == 1);
  CHECK(out.to_version == 3);
  CHECK(out.messages.size() == 2);
  CHECK(out.messages[0].find("migrated from v1 to v2") != std::string::npos);
  CHECK(out.messages[1].find("migrated from v2 to v3") != std::string::npos);
  CHECK(root.at("version") == json::value(3));
  CHECK(root.at("localPlugins").get_array()[0] == json::value("~/p"));
  CHECK(root.at("settings").at("s").at("u").is_object());
}

// Skipped on Windows: the test data are POSIX paths (/home/alice), which are not absolute on Windows.
TEST_CASE("migrate from v2 runs only 2→3" * doctest::skip(opentabs::testing::on_windows)) {
  auto root = obj(R"({"version": 2, "settings": {"s": {"u": "https://x.example"}}, "localPlugins": ["/home/alice/q"]})");
  auto out = migrate(root, kHome, kPath);
  CHECK(out.migrated);
  CHECK(out.from_version == 2);
  CHECK(out.messages.size() == 1);
  CHECK(root.at("settings").at("s").at("u") == json::value("https://x.example"));
  CHECK(root.at("localPlugins").get_array()[0] == json::value("~/q"));
}

TEST_CASE("current and newer versions are left untouched; newer warns") {
  auto current = obj(R"({"version": 3, "localPlugins": ["/home/alice/p"]})");
  auto before = current;
  auto out = migrate(current, kHome, kPath);
  CHECK_FALSE(out.migrated);
  CHECK(out.messages.empty());
  CHECK(current == before);

  auto newer = obj(R"({"version": 7, "localPlugins": ["/home/alice/p"], "futureKey": true})");
  auto newer_before = newer;
  auto out7 = migrate(newer, kHome, kPath);
  CHECK_FALSE(out7.migrated);
  CHECK(out7.from_version == 7);
  REQUIRE(out7.messages.size() == 1);
  CHECK(out7.messages[0] == "Config version 7 in " + kPath.string() + " is newer than supported version 3; loading as-is");
  CHECK(newer == newer_before);
}

// Skipped on Windows: the test data are POSIX paths (/home/alice), which are not absolute on Windows.
TEST_CASE("expand_home and contract_home are inverses for paths under home" * doctest::skip(opentabs::testing::on_windows)) {
  CHECK(expand_home("~/a/b", kHome) == "/home/alice/a/b");
  CHECK(expand_home("~", kHome) == "/home/alice");
  CHECK(expand_home("/x", kHome) == "/x");
  CHECK(contract_home("/home/alice/a/b", kHome) == "~/a/b");
  CHECK(contract_home(expand_home("~/a/b", kHome), kHome) == "~/a/b");
  CHECK(contract_home("/anything", "/") == "/anything");
}
