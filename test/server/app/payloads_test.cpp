// The documents built from the server's state: sync.full (failed plugins by specifier, the
// browser tools sorted with their permissions), the config state (plugins sorted, each
// with its best tab state over every profile, the WebMCP sites), and /health (failed
// plugins by path, every discovery error, each plugin's tabs, disabled browser tools).
#include "app/payloads.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "app/server_state.hpp"
#include "fake_extension.hpp"
#include "tool_defs.hpp"
#include "tools/browser_catalog.hpp"
#include "util/random.hpp"

using namespace opentabs;
using namespace opentabs::app;
using opentabs::app::testing::fake_extension;
namespace fs = std::filesystem;

namespace {

plugins::plugin loaded(std::string name, std::string version) {
  plugins::plugin p;
  p.loaded.name = std::move(name);
  p.loaded.version = std::move(version);
  p.loaded.source = "local";
  p.tools.push_back(opentabs::app::testing::tool_of_kind(p.loaded.name, "run", tools::tool_kind::plugin));
  return p;
}

struct payload_fixture {
  payload_fixture() {
    state.catalog.plugins = {loaded("zeta", "2.0.0"), loaded("alpha", "1.0.0")};
    state.catalog.discovery_errors = {{"./broken", "package.json is missing", "local", false},
                                      {"./not-yet", "the folder does not exist", "local", true}};
  }
  ~payload_fixture() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  std::vector<std::string> names(const json::array& a, std::string_view key) const {
    std::vector<std::string> out;
    for (const auto& v : a) out.emplace_back(v.as_object().at(key).as_string());
    return out;
  }

  fs::path dir = [] {
    auto d = fs::temp_directory_path() / ("opentabs-payloads-test-" + uuid_v4());
    fs::create_directories(d);
    return d;
  }();
  asio::io_context io;
  server_state state{config::config_paths{dir}, dir};
  testing::connection_log connections;
  extension_hub hub{io.get_executor(), dispatch_timing{}, connections};
  webmcp_directory webmcp;
};

}  // namespace

TEST_CASE("browser permission and a plugin's permissions come from config.json, off when unset") {
  payload_fixture f;
  CHECK(browser_permission(f.state.config.cfg) == "off");
  f.state.config.cfg.permissions["browser"].permission = tools::permission::ask;
  CHECK(browser_permission(f.state.config.cfg) == "ask");

  auto& zeta = f.state.catalog.plugins[0];
  auto unset = permissions_of(f.state.config.cfg, zeta);
  CHECK(unset.plugin == tools::permission::off);
  CHECK_FALSE(unset.reviewed);
  auto& configured = f.state.config.cfg.permissions["zeta"];
  configured.permission = tools::permission::auto_;
  configured.reviewed_version = "2.0.0";
  configured.tools["run"] = tools::permission::ask;
  auto set = permissions_of(f.state.config.cfg, zeta);
  CHECK(set.plugin == tools::permission::auto_);
  CHECK(set.reviewed);
  REQUIRE(set.tools.count("run") == 1);
  CHECK(set.tools.at("run") == tools::permission::ask);
  configured.reviewed_version = "1.9.0";  // reviewed an older version
  CHECK_FALSE(permissions_of(f.state.config.cfg, zeta).reviewed);
}

TEST_CASE("sync.full: plugins in registry order, failed plugins by specifier, browser tools sorted by name with their permission") {
  payload_fixture f;
  f.state.config.cfg.permissions["browser"].tools["browser_list_tabs"] = tools::permission::auto_;
  auto o = sync_full_params(f.state.config, f.state.catalog);
  CHECK(f.names(o.at("plugins").as_array(), "name") == std::vector<std::string>{"zeta", "alpha"});
  CHECK(json::dump(o.at("failedPlugins")) == R"([{"specifier":"./broken","error":"package.json is missing"}])");
  const auto& browser = o.at("browserTools").as_array();
  CHECK(browser.size() == tools::browser_tool_catalog().size());
  auto names = f.names(browser, "name");
  CHECK(std::is_sorted(names.begin(), names.end()));
  for (const auto& t : browser) {
    const auto& tool = t.as_object();
    CHECK(tool.at("permission").as_string() == (tool.at("name").as_string() == "browser_list_tabs" ? "auto" : "off"));
  }
  CHECK(o.at("browserPermission").as_string() == "off");
  CHECK_FALSE(o.at("skipPermissions").as_bool());
  CHECK_FALSE(o.contains("extensionHash"));  // no extension installed in the config folder
}

TEST_CASE("config state: plugins sorted by name, each with its best tab state over every profile") {
  payload_fixture f;
  fake_extension a(f.hub, "A-profile");
  fake_extension b(f.hub, "B-profile");
  a.connection()->tabs.set("alpha", plugin_tabs{tab_state::unavailable, {}});
  b.connection()->tabs.set("alpha", plugin_tabs{tab_state::ready, {}});
  b.connection()->tabs.set("zeta", plugin_tabs{tab_state::unavailable, {}});
  auto o = config_state(f.state.config, f.state.catalog, f.webmcp, f.hub);
  const auto& plugins = o.at("plugins").as_array();
  CHECK(f.names(plugins, "name") == std::vector<std::string>{"alpha", "zeta"});
  CHECK(plugins[0].as_object().at("tabState").as_string() == "ready");
  CHECK(plugins[1].as_object().at("tabState").as_string() == "unavailable");
  CHECK(o.at("webmcpSites").as_array().empty());
  CHECK(o.contains("browserTools"));  // the rest is sync.full's
}

TEST_CASE("WebMCP sites: each with its permission key, configured permission, tabs and tools") {
  payload_fixture f;
  json::object frame{{"tabId", 4},
                     {"frameId", 0},
                     {"documentId", "doc1"},
                     {"url", "https://shop.example/"},
                     {"tools", json::array{json::object{{"name", "search"}, {"description", "finds"}}}}};
  REQUIRE(f.webmcp.replace_frame("A-profile", frame));
  const auto sites = f.webmcp.sites();
  REQUIRE(sites.size() == 1);
  f.state.config.cfg.permissions[sites[0].key].permission = tools::permission::ask;
  auto payload = webmcp_sites_payload(f.state.config.cfg, f.webmcp);
  REQUIRE(payload.size() == 1);
  const auto& site = payload[0].as_object();
  CHECK(site.at("key").as_string() == sites[0].key);
  CHECK(site.at("permission").as_string() == "ask");
  CHECK(json::dump(site.at("tabs")) == "[4]");
  CHECK(json::dump(site.at("tools")) == R"([{"name":"search","permission":"ask"}])");
}

TEST_CASE("/health: connections, failed plugins by path, every discovery error, each plugin's tabs, disabled browser tools") {
  payload_fixture f;
  fake_extension ext(f.hub, "A-profile");
  tab_info tab;
  tab.tab_id = 9;
  tab.url = "https://alpha.example/";
  tab.ready = true;
  ext.connection()->tabs.set("alpha", plugin_tabs{tab_state::ready, {tab}});
  f.state.config.cfg.permissions["browser"].permission = tools::permission::auto_;
  f.state.config.cfg.permissions["browser"].tools["browser_list_tabs"] = tools::permission::off;
  f.state.catalog.registry.rebuild({f.state.catalog.plugins[0].tools[0], f.state.catalog.plugins[1].tools[0]},
                                   tools::browser_tool_catalog(), {});
  auto h = health_payload(f.state, f.hub, 3, mcp::client_counts{1, 2, 4});
  CHECK(h.at("extensionConnected").as_bool());
  CHECK(json::dump(h.at("extensionConnections")) == "1");
  CHECK(json::dump(h.at("mcpClients")) == "3");
  CHECK(json::dump(h.at("mcpClientsActive")) == "5");
  CHECK(json::dump(h.at("mcpSessionsIdle")) == "2");
  CHECK(json::dump(h.at("plugins")) == "2");
  CHECK(json::dump(h.at("pluginToolCount")) == "2");
  CHECK(json::dump(h.at("toolCount")) == std::to_string(2 + tools::browser_tool_catalog().size()));
  CHECK(json::dump(h.at("failedPlugins")) == R"([{"path":"./broken","error":"package.json is missing"}])");
  CHECK(h.at("discoveryErrors").as_array().size() == 2);  // the missing folder too
  CHECK(json::dump(h.at("disabledBrowserTools")) == R"(["browser_list_tabs"])");
  const auto& details = h.at("pluginDetails").as_array();
  REQUIRE(details.size() == 2);
  const auto& alpha = details[1].as_object();
  CHECK(alpha.at("name").as_string() == "alpha");
  CHECK(alpha.at("tabState").as_string() == "ready");
  CHECK(json::dump(alpha.at("tabs")) == R"([{"tabId":9,"url":"https://alpha.example/","title":"","ready":true}])");
  CHECK(details[0].as_object().at("tabState").as_string() == "closed");
}
