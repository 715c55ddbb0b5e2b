// The prompts /mcp offers, which clients show as slash commands (Claude Code:
// /mcp__opentabs__work_on_tab, ...):
// - work_on_tab {tabId, task?}: the tab's accessibility snapshot, taken through the tool
//   pipeline as a browser_snapshot call (the same permission check, question and audit
//   line as the agent's own call), and which tools fit that tab: the plugins that reported
//   it, the WebMCP tools its page publishes, and the browser tools that act on a tab;
// - build_plugin {site?, tabId?, goal?}: how to make a plugin with opentabs' own tools and
//   CLI, the plugin SDK's essentials, and with a tab the site's analysis
//   (plugin_analyze_site, through the pipeline); without a site or tab it asks the person
//   which site and what for (a 2025-11-25 elicitation or a 2026-07-28 InputRequiredResult,
//   put to the person by the endpoint, mcp/prompt_requests);
// - review_plugin {plugin}: what an installed plugin can reach (its URL patterns, its
//   tools and their permission), where it came from, and its last audit entries, with the
//   review steps (plugin_inspect, plugin_mark_reviewed only with the person's consent).
#pragma once

#include <string>
#include <vector>

#include "app/completion_sources.hpp"
#include "app/plugin_catalog.hpp"
#include "audit/audit_log.hpp"
#include "mcp/prompt_service.hpp"
#include "tools/tool_service.hpp"

namespace opentabs::app {

class browser_prompts final : public mcp::prompt_service {
 public:
  // `tools`: the pipeline the prompts' own tool calls go through.
  browser_prompts(tools::tool_service& tools, const plugin_catalog& catalog, const webmcp_directory& webmcp, const audit::audit_log& audit,
                  const completion_sources& sources);

  std::vector<mcp::prompt_def> list_prompts() const override;
  net::awaitable<result<mcp::prompt_result>> get_prompt(std::string name, json::object arguments, json::object answers,
                                                        tools::call_options options) override;
  std::vector<std::string> question_keys(std::string_view name) const override;
  void register_completions(mcp::completion_registry& registry) override;
  bool asks_client(std::string_view name) const override;

  // The inputRequests key of build_plugin's question.
  static constexpr std::string_view site_question_key = "opentabs_plugin_site";

 private:
  net::awaitable<result<mcp::prompt_result>> work_on_tab(const json::object& arguments, tools::call_options options);
  // Without a site or a tab, asks the person which site (site_question_key in `answers`).
  net::awaitable<result<mcp::prompt_result>> build_plugin(const json::object& arguments, const json::object& answers, tools::call_options options);
  result<mcp::prompt_result> review_plugin(const json::object& arguments) const;

  tools::tool_service& tools_;
  const plugin_catalog& catalog_;
  const webmcp_directory& webmcp_;
  const audit::audit_log& audit_;
  const completion_sources& sources_;
};

// The text of a tool result's text blocks, joined.
std::string result_text(const tools::call_result& r);

}  // namespace opentabs::app
