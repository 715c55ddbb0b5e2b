// Settings checks before anything is written: a loaded plugin's settings against its
// configSchema (the problem without the "Settings validation failed: " prefix), a plugin
// that is not loaded by its name and the size bound.
#include "app/plugin_settings.hpp"

#include <doctest/doctest.h>

using namespace opentabs;
using namespace opentabs::app;

namespace {

std::vector<plugins::plugin> one_plugin_with_mode_setting() {
  plugins::plugin p;
  p.loaded.name = "settings-demo";
  plugins::config_field mode;
  mode.key = "mode";
  mode.type = "select";
  mode.options = {"fast", "safe"};
  p.loaded.config_fields.push_back(mode);
  return {p};
}

}  // namespace

TEST_CASE("a loaded plugin's settings are checked against its configSchema") {
  auto loaded = one_plugin_with_mode_setting();
  CHECK_FALSE(settings_problem(loaded, "settings-demo", json::object{{"mode", "safe"}}).has_value());
  auto problem = settings_problem(loaded, "settings-demo", json::object{{"mode", "turbo"}});
  REQUIRE(problem.has_value());
  CHECK(*problem == "mode: must be one of: fast, safe");
}

TEST_CASE("settings of a plugin that is not loaded need a plugin name and stay small") {
  std::vector<plugins::plugin> none;
  CHECK_FALSE(settings_problem(none, "not-installed-yet", json::object{{"anything", 1}}).has_value());
  auto bad_name = settings_problem(none, "Not A Name", json::object{});
  REQUIRE(bad_name.has_value());
  CHECK(*bad_name == "\"Not A Name\" is not a plugin name (lowercase letters, digits and hyphens)");
  auto long_name = unloaded_plugin_settings_problem(std::string(100, 'X'), json::object{});
  REQUIRE(long_name.has_value());
  CHECK(long_name->find(std::string(64, 'X') + "…\"") != std::string::npos);
  CHECK(long_name->find(std::string(65, 'X')) == std::string::npos);
  json::object big{{"blob", std::string(max_unloaded_settings_bytes, 'a')}};
  auto too_big = unloaded_plugin_settings_problem("ok-name", big);
  REQUIRE(too_big.has_value());
  CHECK(too_big->find("; the limit is 65536") != std::string::npos);
}
