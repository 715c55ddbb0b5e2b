// Tests for discover(): path specifiers, allowed roots, localPluginDirs, npm scan, merge,
// and broken or vanishing plugins reported while the others load.
#include "plugins/discovery.hpp"

#include <doctest/doctest.h>

#include <cstdlib>

#include "temp_tree.hpp"

using namespace opentabs;
using namespace opentabs::plugins;
using opentabs::testing::temp_tree;
using opentabs::testing::write_minimal_plugin;
using opentabs::testing::set_env;
using opentabs::testing::unset_env;

namespace {

// home, tmpdir and cwd all inside the temp tree, so nothing outside it is "allowed".
discovery_input input_for(const temp_tree& t) {
  fs::create_directories(t / "home/.opentabs");
  fs::create_directories(t / "tmp");
  fs::create_directories(t / "cwd");
  discovery_input in;
  in.home = t / "home";
  in.config_dir = t / "home/.opentabs";
  in.tmpdir = t / "tmp";
  in.cwd = t / "cwd";
  return in;
}

std::vector<std::string> names(const discovery_result& r) {
  std::vector<std::string> out;
  for (auto& p : r.plugins) out.push_back(p.name + ":" + p.source);
  return out;
}

}  // namespace

TEST_CASE("specifiers: ~/, absolute, relative to the config dir, package names") {
  fs::path home = "/h", cfg = "/h/.opentabs";
  CHECK(*resolve_specifier("~/p", home, cfg).path == "/h/p");
  CHECK(*resolve_specifier("/abs/p", home, cfg).path == "/abs/p");
  CHECK(*resolve_specifier("./p", home, cfg).path == "/h/.opentabs/p");
  CHECK(*resolve_specifier("../p", home, cfg).path == "/h/p");
  CHECK(resolve_specifier("opentabs-plugin-x", home, cfg).package == "opentabs-plugin-x");
  CHECK_FALSE(resolve_specifier("@s/opentabs-plugin-x", home, cfg).path.has_value());
}

TEST_CASE("local plugins load; broken ones are reported while the others load") {
  temp_tree t;
  auto in = input_for(t);
  write_minimal_plugin(t, "home/plugins/good", "good");
  write_minimal_plugin(t, "home/plugins/broken", "broken");
  fs::remove(t / "home/plugins/broken/dist/tools.json");
  t.copy_fixture("notes", "home/plugins/notes");
  in.local_plugins = {"~/plugins/good", "../plugins/broken", "~/plugins/missing", (t / "home/plugins/notes").string()};
  auto r = discover(in);
  CHECK(names(r) == std::vector<std::string>{"good:local", "fixture-notes:local"});
  // A path that is not there is skipped, as by the original, and listed with its words
  // ("Path not found: ..."), marked so it is not a failed plugin; a plugin that is there but
  // broken is a failed plugin.
  REQUIRE(r.errors.size() == 2);
  CHECK(r.errors[0].specifier == "~/plugins/missing");
  CHECK(r.errors[0].error == "Path not found: " + (t / "home" / "plugins" / "missing").string() + " — check that the directory exists in your config");
  CHECK(r.errors[0].path_missing);
  CHECK(r.errors[1].specifier == "../plugins/broken");
  CHECK(r.errors[1].error == "dist/tools.json: missing");
  CHECK(r.errors[1].source == "local");
  CHECK_FALSE(r.errors[1].path_missing);
  CHECK(r.warnings.empty());
}

// Skipped on Windows: the mingw-w64 libstdc++ implements no std::filesystem::create_symlink (ENOSYS).
TEST_CASE("a plugin outside the allowed roots is a discovery error" * doctest::skip(opentabs::testing::on_windows)) {
  temp_tree t;
  auto in = input_for(t);
  write_minimal_plugin(t, "elsewhere/p", "outside");
  in.local_plugins = {(t / "elsewhere/p").string()};
  auto r = discover(in);
  CHECK(r.plugins.empty());
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].error.find("is outside the allowed directories") != std::string::npos);

  SUBCASE("a symlink inside home pointing outside is still outside") {
    fs::create_directory_symlink(t / "elsewhere/p", t / "home/link");
    in.local_plugins = {"~/link"};
    auto r2 = discover(in);
    CHECK(r2.plugins.empty());
    REQUIRE(r2.errors.size() == 1);
    CHECK(r2.errors[0].error.find("outside the allowed directories") != std::string::npos);
  }
  SUBCASE("additionalAllowedDirectories admits it") {
    in.additional_allowed_directories = {(t / "elsewhere").string()};
    auto r2 = discover(in);
    CHECK(names(r2) == std::vector<std::string>{"outside:local"});
    CHECK(r2.errors.empty());
  }
}

// Skipped on Windows: the mingw-w64 libstdc++ implements no std::filesystem::create_symlink (ENOSYS).
TEST_CASE("localPluginDirs adds children with an opentabs field, de-duplicated by realpath" * doctest::skip(opentabs::testing::on_windows)) {
  temp_tree t;
  auto in = input_for(t);
  write_minimal_plugin(t, "home/dev/a", "a");
  write_minimal_plugin(t, "home/dev/b", "b");
  t.write("home/dev/not-a-plugin/package.json", R"({"name":"x","version":"1"})");
  t.write("home/dev/file.txt", "x");
  fs::create_directory_symlink(t / "home/dev/a", t / "home/dev/a-again");
  in.local_plugins = {"~/dev/a"};
  in.local_plugin_dirs = {"~/dev", "~/nope"};
  auto expanded = expand_local_plugin_dirs(in);
  CHECK(expanded.plugin_dirs.size() == 3);  // a, a-again, b
  auto r = discover(in);
  CHECK(names(r) == std::vector<std::string>{"a:local", "b:local"});
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].specifier == "~/nope");
  CHECK(r.errors[0].error.find("does not exist") != std::string::npos);
}

TEST_CASE("npm globals are scanned (plain and scoped) and a local plugin of the same name wins") {
  temp_tree t;
  auto in = input_for(t);
  write_minimal_plugin(t, "npm/opentabs-plugin-shared", "shared");
  write_minimal_plugin(t, "npm/opentabs-plugin-only-npm", "only-npm");
  t.copy_fixture("tracker", "npm/@fixture/opentabs-plugin-tracker");
  t.write("npm/left-pad/package.json", R"({"name":"left-pad","opentabs":{}})");
  t.write("npm/opentabs-plugin-noflag/package.json", R"({"name":"opentabs-plugin-noflag"})");
  write_minimal_plugin(t, "home/shared", "shared");
  in.npm_global_root = t / "npm";
  in.local_plugins = {"~/shared"};
  auto r = discover(in);
  CHECK(names(r) == std::vector<std::string>{"fixture-tracker:npm", "only-npm:npm", "shared:local"});
  CHECK(r.errors.empty());
  CHECK(r.warnings.size() == 1);

  SUBCASE("OPENTABS_SKIP_NPM_DISCOVERY=1 skips the scan") {
    set_env("OPENTABS_SKIP_NPM_DISCOVERY", "1");
    auto skipped = discover(in);
    unset_env("OPENTABS_SKIP_NPM_DISCOVERY");
    CHECK(names(skipped) == std::vector<std::string>{"shared:local"});
  }
  SUBCASE("a missing npm root (fresh prefix) means no npm plugins, not an error") {
    in.npm_global_root = t / "no-such-root";
    auto r2 = discover(in);
    CHECK(r2.errors.empty());
    CHECK(names(r2) == std::vector<std::string>{"shared:local"});
  }
}

TEST_CASE("package-name specifiers resolve through node_modules from cwd") {
  temp_tree t;
  auto in = input_for(t);
  write_minimal_plugin(t, "cwd/node_modules/opentabs-plugin-pkg", "pkg");
  in.local_plugins = {"opentabs-plugin-pkg", "opentabs-plugin-absent"};
  auto r = discover(in);
  CHECK(names(r) == std::vector<std::string>{"pkg:local"});
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].error.find("was not found in node_modules") != std::string::npos);
}

TEST_CASE("two local plugins with the same name: the second is reported") {
  temp_tree t;
  auto in = input_for(t);
  write_minimal_plugin(t, "home/one", "dup");
  write_minimal_plugin(t, "home/two", "dup");
  in.local_plugins = {"~/one", "~/two"};
  auto r = discover(in);
  CHECK(names(r) == std::vector<std::string>{"dup:local"});
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].error.find("is already provided by") != std::string::npos);
}

TEST_CASE("a plugin directory that disappears mid-discovery gives an error, not a crash") {
  temp_tree t;
  auto in = input_for(t);
  write_minimal_plugin(t, "home/dev/stays", "stays");
  write_minimal_plugin(t, "home/dev/vanishes", "vanishes");
  in.local_plugin_dirs = {"~/dev"};
  in.before_load = [&](const fs::path& dir) {
    if (dir.filename() == "vanishes") fs::remove_all(dir);
  };
  auto r = discover(in);
  CHECK(names(r) == std::vector<std::string>{"stays:local"});
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].error.find("cannot be resolved") != std::string::npos);

  SUBCASE("the whole parent vanishing before the scan") {
    fs::remove_all(t / "home/dev");
    auto r2 = discover(in);
    CHECK(r2.plugins.empty());
    REQUIRE(r2.errors.size() == 1);
    CHECK(r2.errors[0].error.find("does not exist") != std::string::npos);
  }
}

// Issue 13 item 11: two tools can never share an MCP name.
TEST_CASE("refuse_tool_name_clashes: a plugin whose tool name is taken is refused, the others stay") {
  auto plugin_with = [](std::string name, std::string path, std::vector<std::string> tools) {
    loaded_plugin p;
    p.name = std::move(name);
    p.source_path = std::move(path);
    p.source = "local";
    for (auto& t : tools) {
      plugin_tool tool;
      tool.name = std::move(t);
      p.tools.push_back(std::move(tool));
    }
    return p;
  };
  discovery_result found;
  found.plugins.push_back(plugin_with("notes", "/p/notes", {"echo", "list"}));
  found.plugins.push_back(plugin_with("notes", "/p/notes-copy", {"other", "echo"}));   // same names as the first
  found.plugins.push_back(plugin_with("tracker", "/p/tracker", {"open"}));
  found.plugins.push_back(plugin_with("shadow", "/p/shadow", {"tabs"}));               // shadow_tabs is built in here
  found.plugins.push_back(plugin_with("alias", "/p/alias", {"x"}));                    // alias__x is built in here
  refuse_tool_name_clashes(found, {"shadow_tabs", "alias__x"});

  REQUIRE(names(found) == std::vector<std::string>{"notes:local", "tracker:local"});
  REQUIRE(found.errors.size() == 3);
  CHECK(found.errors[0].specifier == "/p/notes-copy");
  CHECK(found.errors[0].error ==
        "plugin \"notes\" was not loaded: its tool name \"notes_echo\" is already taken by plugin \"notes\" (/p/notes) "
        "(two tools cannot share a name; rename the plugin or the tool)");
  CHECK(found.errors[1].error.find("\"shadow_tabs\" is already taken by a built-in tool") != std::string::npos);
  CHECK(found.errors[2].error.find("\"alias__x\" is already taken by a built-in tool") != std::string::npos);
  CHECK(found.errors[2].source == "local");
}
