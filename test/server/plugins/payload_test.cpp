// Tests for the plugin payloads of §3.6: key names, key order, omitted optional keys.
#include "plugins/payload.hpp"

#include <doctest/doctest.h>

#include "temp_tree.hpp"

using namespace opentabs;
using namespace opentabs::plugins;
using opentabs::testing::temp_tree;

namespace {
std::vector<std::string> keys(const json::object& o) {
  std::vector<std::string> out;
  for (auto& kv : o) out.emplace_back(kv.key());
  return out;
}
}  // namespace

TEST_CASE("SyncPlugin for fixture-notes has the observed keys in the observed order") {
  auto loaded = load_plugin(temp_tree::fixture("notes"), "local");
  REQUIRE(loaded.ok());
  auto p = make_plugin(std::move(*loaded), nullptr);
  permission_state perms;
  perms.plugin = tools::permission::auto_;
  perms.reviewed = true;
  perms.tools["echo"] = tools::permission::ask;
  auto o = sync_plugin_payload(p, perms);
  CHECK(keys(o) == std::vector<std::string>{"name", "version", "displayName", "urlPatterns", "excludePatterns",
                                            "npmPackageName", "permission", "reviewed", "iconSvg", "iconInactiveSvg",
                                            "iconDarkSvg", "iconDarkInactiveSvg", "hasPreScript", "tools", "sourcePath",
                                            "adapterHash", "adapterFile", "source", "sdkVersion", "configSchema"});
  CHECK(o.at("name") == "fixture-notes");
  CHECK(o.at("npmPackageName") == "opentabs-plugin-fixture-notes");
  CHECK(o.at("permission") == "auto");
  CHECK(o.at("reviewed") == true);
  CHECK(o.at("hasPreScript") == false);
  CHECK(o.at("adapterFile") == json::value(json::str(p.files.adapter_file)));
  CHECK(o.at("adapterHash").get_string().size() == 64);
  CHECK(o.at("source") == "local");
  auto& tools = o.at("tools").get_array();
  REQUIRE(tools.size() == p.loaded.tools.size());
  auto& echo = tools[0].get_object();
  CHECK(keys(echo) == std::vector<std::string>{"name", "displayName", "description", "summary", "icon", "group", "permission"});
  CHECK(echo.at("name") == "echo");
  CHECK(echo.at("permission") == "ask");
  CHECK(tools[1].get_object().at("permission") == "auto");
}

TEST_CASE("core, config-state and SyncPlugin for a configured fixture-tracker") {
  auto loaded = load_plugin(temp_tree::fixture("tracker"), "npm");
  REQUIRE(loaded.ok());
  auto user = *json::parse_object(R"({"instanceUrl":{"alpha":"http://localhost:9516"},"teamName":"core"})");
  auto p = make_plugin(std::move(*loaded), &user);
  permission_state perms;  // everything off, not reviewed
  auto core = core_plugin_payload(p, perms);
  CHECK(keys(core) == std::vector<std::string>{"name", "version", "displayName", "urlPatterns", "homepage", "npmPackageName",
                                               "permission", "reviewed", "instanceMap", "hasPreScript", "tools"});
  CHECK(json::dump(core.at("urlPatterns")) == R"(["*://localhost:9516/*"])");
  CHECK(json::dump(core.at("instanceMap")) == R"({"alpha":"*://localhost:9516/*"})");
  CHECK(core.at("homepage") == "http://localhost:9516");
  CHECK(core.at("permission") == "off");
  CHECK(core.at("hasPreScript") == true);

  auto sync = sync_plugin_payload(p, perms, update_info{"0.4.0", "npm install -g @fixture/opentabs-plugin-tracker@0.4.0"});
  auto k = keys(sync);
  CHECK(std::vector<std::string>(k.begin() + 11, k.end()) ==
        std::vector<std::string>{"sourcePath", "adapterHash", "adapterFile", "source", "sdkVersion", "update",
                                 "configSchema", "resolvedSettings", "preScriptFile", "preScriptHash"});
  CHECK(sync.at("preScriptFile") == json::value(json::str(p.files.pre_script_file)));
  CHECK(sync.at("preScriptHash") == json::value(json::str(p.loaded.pre_script_hash)));
  CHECK(json::dump(sync.at("update")) == R"({"latestVersion":"0.4.0","updateCommand":"npm install -g @fixture/opentabs-plugin-tracker@0.4.0"})");
  CHECK(json::dump(sync.at("resolvedSettings")) == R"({"instanceUrl":{"alpha":"http://localhost:9516"},"teamName":"core"})");

  auto state = config_state_plugin_payload(p, perms, "closed");
  auto sk = keys(state);
  CHECK(std::vector<std::string>(sk.begin() + 11, sk.end()) ==
        std::vector<std::string>{"source", "tabState", "sdkVersion", "configSchema", "resolvedSettings"});
  CHECK(state.at("tabState") == "closed");
}
