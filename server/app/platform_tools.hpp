// The two platform tools that are always callable (spec §4.6): plugin_inspect hands the
// agent a plugin's adapter source plus a single-use review token (10 minutes), and
// plugin_mark_reviewed spends the token to enable the plugin at ask or auto for that exact
// version.  Not audited, never behind a permission — they are how permissions get granted
// after review.
#pragma once

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "app/permission_grants.hpp"
#include "app/plugin_catalog.hpp"
#include "app/tool_backend.hpp"
#include "tools/tool.hpp"
#include "tools/tool_service.hpp"

namespace opentabs::app {

class review_tokens {
 public:
  using clock = std::chrono::steady_clock;
  explicit review_tokens(std::chrono::milliseconds ttl = std::chrono::minutes(10)) : ttl_(ttl) {}

  std::string issue(const std::string& plugin, const std::string& version, clock::time_point now);
  // Spends the token: true only for an unused, unexpired token issued for plugin+version.
  bool redeem(const std::string& token, const std::string& plugin, const std::string& version, clock::time_point now);

 private:
  struct grant {
    std::string plugin, version;
    clock::time_point expires;
  };
  std::chrono::milliseconds ttl_;
  std::map<std::string, grant> grants_;
};

std::vector<tools::tool_def> platform_tool_defs();

// The backend of tool_kind::platform: outside the permission gate and the audit.
class platform_tools final : public tool_backend {
 public:
  // `grants` keeps {permission, reviewedVersion} for a plugin and announces the change.
  platform_tools(const plugin_catalog& catalog, permission_grants& grants) : catalog_(catalog), grants_(grants) {}

  bool behind_gate() const override { return false; }
  net::awaitable<tools::call_result> dispatch(admitted_call& call) override;
  tools::call_result call(const tools::tool_def& tool, const json::object& args);

 private:
  tools::call_result inspect(const json::object& args);
  tools::call_result mark_reviewed(const json::object& args);
  // "Plugin "x" not found. Available plugins: a, b" (as plugin_list_tabs says it).
  tools::call_result not_found(const std::string& name) const;

  const plugin_catalog& catalog_;
  permission_grants& grants_;
  review_tokens tokens_;
};

}  // namespace opentabs::app
