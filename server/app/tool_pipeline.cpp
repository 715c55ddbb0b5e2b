#include "app/tool_pipeline.hpp"

#include <memory>

#include "app/plugin_tabs.hpp"
#include "config/permissions.hpp"
#include "schema/lazy_validator.hpp"
#include "util/clock.hpp"
#include "util/env.hpp"
#include "util/log.hpp"
#include "util/random.hpp"
#include "util/test_fault.hpp"

namespace opentabs::app {

namespace {

// A result with `notice` (an answer of the caller's that was not used) told after its content.
tools::call_result with_notice(tools::call_result r, const std::string& notice) {
  if (!notice.empty()) r.content.push_back(json::object{{"type", "text"}, {"text", json::str(notice)}});
  return r;
}

tools::call_result bad_request(std::string text) { return tools::call_result::text(std::move(text), true, errc::invalid_params); }

// The site or tab a call acts on, for the permission question: the tab with the host it
// shows, the host a `url` argument opens (as Chrome parses it), or the hosts of the
// plugin's open tabs, where the call will run.
std::string where_of(const extension_hub& hub, const tools::tool_def& tool, const json::object& args, const call_target& target) {
  std::string where;
  if (!target.instance.empty()) where = "instance \"" + target.instance + "\"";
  auto tab_id = target.tab_id;
  if (!tab_id) tab_id = json::get_int(args, "tabId");
  if (tab_id) where += (where.empty() ? "" : ", ") + describe_tab(hub, *tab_id);
  if (const auto* url = json::get_string(args, "url")) {
    auto host = host_of_url(*url);
    where += (where.empty() ? "" : ", opening ") + (host.empty() ? "a URL without a host" : host);
  }
  if (where.empty() && tool.plugin != "browser")
    if (auto hosts = plugin_tab_hosts(hub, tool.plugin); !hosts.empty()) where = "the " + tool.plugin + " tab (" + hosts + ")";
  return where;
}

tools::call_result unknown_tool(const tool_registry& registry, const std::string& name) {
  std::string text = "Tool " + name + " not found";
  auto similar = registry.similar_names(name);
  if (!similar.empty()) {
    text += ". Did you mean: ";
    for (std::size_t i = 0; i < similar.size(); ++i) text += (i ? ", " : "") + similar[i];
    text += "?";
  }
  return tools::call_result::text(text, true, errc::not_found);
}

}  // namespace

tool_pipeline::tool_pipeline(const server_config& config, const plugin_catalog& catalog, audit::audit_log& audit,
                             extension_hub& hub, confirmations& confirm, permission_grants& grants,
                             tool_backends backends)
    : config_(config),
      catalog_(catalog),
      audit_(audit),
      hub_(hub),
      backends_(backends),
      approvals_(confirm, hub, grants) {}

tools::permission tool_pipeline::effective_permission(const tools::tool_def& t) const {
  return config::effective_permission(config_.cfg, t.plugin, t.base_name, config_.skip_permissions);
}

std::vector<tools::listed_tool> tool_pipeline::list_tools() const {
  std::vector<tools::listed_tool> out;
  out.reserve(catalog_.registry.all().size());
  for (const auto& t : catalog_.registry.all()) {
    tools::listed_tool l;
    l.name = t->name;
    l.plugin = t->kind == tools::tool_kind::platform ? "platform" : t->plugin;
    if (t->kind != tools::tool_kind::platform) {
      auto p = effective_permission(*t);
      if (p == tools::permission::off && config_.cfg.hide_disabled_tools) continue;
      if (p == tools::permission::off) l.description = "[Disabled] ";
      else if (p == tools::permission::ask) l.description = "[Requires approval] ";
    }
    l.description += t->description;
    l.input_schema = t->input_schema;
    out.push_back(std::move(l));
  }
  return out;
}

void tool_pipeline::client_ended(std::string_view client) { backends_.browser.client_ended(client); }

net::awaitable<tools::call_result> tool_pipeline::call_tool(std::string name, json::object args,
                                                            tools::call_options options) {
  test_fault::throw_if_armed("pipeline-throw", name);
  // resolve.  `found` keeps the definition alive even if a reload swaps the registry meanwhile.
  auto found = catalog_.registry.find(name);
  if (!found) co_return unknown_tool(catalog_.registry, name);
  const tools::tool_def& tool = *found;
  tool_backend& backend = backends_.for_kind(tool.kind);
  if (!backend.behind_gate()) {
    audit::audit_entry not_recorded;
    admitted_call call{tool, std::move(args), {}, options, not_recorded};
    co_return co_await backend.dispatch(call);
  }

  audit_record audit(audit_, tool);
  admission admitted;
  if (auto refused = co_await admit(tool, backend, args, options, admitted, audit)) co_return audit.finish(std::move(*refused));

  // Before asking: the side panel that asks and the tabs the question names are the extension's.
  co_await backend.await_ready(tool);

  std::string notice;  // the caller's own answer came second: told with the result
  if (admitted.permission == tools::permission::ask) {
    const auto where = where_of(hub_, tool, args, admitted.target);
    auto asked = co_await confirm(tool, args, where, admitted.digest, options, audit.entry());
    notice = std::move(asked.notice);
    auto& refused = asked.stop;
    // Asking is not calling: the retry that brings the answer is audited.
    if (refused && refused->input_required) audit.withdraw();
    else if (refused && refused->failure == errc::invalid_params)
      audit.fail(audit::audit_code::invalid_input_response, "the retry's requestState or inputResponses was refused");
    else if (refused) audit.fail(audit::audit_code::permission_denied, "not approved");
    if (refused) co_return audit.finish(with_notice(std::move(*refused), notice));
  }

  // A named object in this frame: the backend works on it by reference.
  admitted_call call{tool, std::move(args), std::move(admitted.target), options, audit.entry()};
  co_return audit.finish(with_notice(co_await backend.dispatch(call), notice));
}

net::awaitable<std::optional<tools::call_result>> tool_pipeline::admit(const tools::tool_def& tool, tool_backend& backend,
                                                                       json::object& args,
                                                                       const tools::call_options& options,
                                                                       admission& out, audit_record& audit) {
  out.permission = effective_permission(tool);
  if (out.permission == tools::permission::off) {
    audit.fail(audit::audit_code::permission_denied, "tool is disabled");
    co_return disabled_result(tool);
  }
  const bool asks = out.permission == tools::permission::ask;
  if (!asks && options.input && (options.input->responses || options.input->request_state)) {
    audit.withdraw();  // a malformed request, not a call
    co_return bad_request("params.inputResponses and params.requestState answer a question, and the tool \"" + tool.name +
                          "\" asked none (it needs no approval): call it without them");
  }
  // A round trip's answer is bound to the arguments as the request carried them.
  if (options.round_trip && asks) out.digest = tools::arguments_digest(args);
  out.target = backend.take_target(args);

  auto validator = co_await validator_of(tool, backend);
  if (!validator) {
    const bool gone = validator.err().is(errc::not_found);
    audit.fail(gone ? audit::audit_code::not_found : audit::audit_code::invalid_schema, gone ? "the page no longer offers this tool" : "input schema could not be compiled");
    co_return tools::call_result::text(validator.err().message, true, gone ? errc::not_found : errc::tool_failed);
  }
  if (auto checked = backend.check_arguments(**validator, tool, args); !checked) {
    audit.fail(audit::audit_code::validation_error, checked.err().message);
    co_return tools::call_result::text(checked.err().message, true, errc::tool_failed);
  }
  co_return std::nullopt;
}

net::awaitable<result<std::shared_ptr<const schema::validator>>> tool_pipeline::validator_of(const tools::tool_def& tool,
                                                                                             tool_backend& backend) {
  if (!tool.validator) co_return co_await backend.validator_for(tool);
  // Compiled on the tool's first call (schema/lazy_validator.hpp); a refusal is logged
  // the first time and told to every caller.
  const bool first = !tool.validator->compiled();
  const auto& compiled = tool.validator->get();
  if (compiled) co_return *compiled;
  if (first) log::warn("tool " + tool.name + ": input_schema cannot be compiled, the tool cannot be called: " + compiled.err().message);
  co_return make_error(errc::tool_failed,
                       "Tool \"" + tool.name + "\" cannot be called: its input schema could not be compiled: " + compiled.err().message);
}

tools::call_result tool_pipeline::disabled_result(const tools::tool_def& tool) const {
  if (tool.kind == tools::tool_kind::browser) {
    return tools::call_result::text(
        "Tool \"" + tool.name +
            "\" is currently disabled. Browser tools are off until the user enables them: in the OpenTabs side "
            "panel (browser tools card), or with `opentabs config set tool-permission.browser." +
            tool.name + " auto` (or `plugin-permission.browser ask|auto` for all browser tools).",
        true, errc::tool_failed);
  }
  if (tool.kind == tools::tool_kind::webmcp) {
    return tools::call_result::text(
        "WebMCP tool \"" + tool.name + "\" of " + tool.plugin +
            " is turned off. Tools that web pages publish are off until the user enables their site: in the "
            "OpenTabs side panel (WebMCP card), or with `opentabs config set plugin-permission." +
            tool.plugin + " ask` (or auto).",
        true, errc::tool_failed);
  }
  const auto* p = catalog_.find_plugin(tool.plugin);
  std::string version = p ? p->loaded.version : "?";
  const auto it = config_.cfg.permissions.find(tool.plugin);
  std::string text;
  if (it != config_.cfg.permissions.end() && it->second.reviewed_version && *it->second.reviewed_version != version) {
    text = "Plugin \"" + tool.plugin + "\" has been updated from v" + *it->second.reviewed_version + " to v" + version +
           " and needs re-review.";
  } else if (it != config_.cfg.permissions.end() && it->second.reviewed_version) {
    text = "Tool \"" + tool.name + "\" of plugin \"" + tool.plugin + "\" is turned off.";
  } else {
    text = "Plugin \"" + tool.plugin + "\" (v" + version + ") has not been reviewed yet.";
  }
  text += " To enable it: call plugin_inspect with {\"plugin\":\"" + tool.plugin +
          "\"} to review the adapter code, then plugin_mark_reviewed with the review token; or ask the user to "
          "enable it in the OpenTabs side panel, or run `opentabs config set plugin-permission." +
          tool.plugin + " ask`.";
  return tools::call_result::text(text, true, errc::tool_failed);
}

// The `ask` gate: the approvals seam asks, the audit entry learns who decided.
net::awaitable<approvals::outcome> tool_pipeline::confirm(const tools::tool_def& tool, const json::object& args, const std::string& where,
                                                          const std::string& digest, tools::call_options& options,
                                                          audit::audit_entry& entry) {
  // Named: a temporary in a co_await expression is not safe to hold by reference across the
  // suspension with every compiler this builds with.
  const tools::permission_question question{tool, args, where, digest};
  auto asked = co_await approvals_.ask(question, options);
  if (asked.decided_by) entry.decided_by = asked.decided_by;
  co_return asked;
}

}  // namespace opentabs::app
