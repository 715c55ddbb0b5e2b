#include "app/plugin_backend.hpp"

#include "app/call_results.hpp"
#include "audit/audit_code.hpp"
#include "app/extension_wire.hpp"
#include "app/invocation_notice.hpp"
#include "app/plugin_tabs.hpp"

namespace opentabs::app {

call_target plugin_backend::take_target(json::object& args) const {
  call_target target;
  if (auto t = json::get_int(args, "tabId"); t && *t > 0) target.tab_id = *t;
  if (const auto* i = json::get_string(args, "instance"); i && !i->empty()) target.instance = std::string(*i);
  args.erase("tabId");
  args.erase("instance");
  return target;
}

status plugin_backend::check_arguments(const schema::validator& validator, const tools::tool_def& tool,
                                       const json::object& args) const {
  return validator.validate(args, tool.name);
}

result<std::int64_t> plugin_backend::instance_tab(const tools::tool_def& tool, const std::string& instance) const {
  const auto* p = catalog_.find_plugin(tool.plugin);
  const json::value* pattern = p ? p->settings.instance_map.if_contains(instance) : nullptr;
  if (!pattern || !pattern->is_string()) {
    std::string valid;
    if (p)
      for (const auto& kv : p->settings.instance_map) valid += (valid.empty() ? "" : ", ") + std::string(kv.key());
    return make_error(errc::tool_failed, "Unknown instance \"" + instance + "\" for plugin \"" + tool.plugin +
                                             "\". Valid instances: " + (valid.empty() ? "(none)" : valid));
  }
  std::string pattern_text(pattern->get_string());
  if (auto tab = tab_for_host_pattern(hub_, tool.plugin, pattern_text)) return *tab;
  return make_error(errc::tool_failed, "No open tab found for instance \"" + instance + "\" (" + pattern_text +
                                           "). Open the site in the browser first.");
}

net::awaitable<tools::call_result> plugin_backend::dispatch(admitted_call& call) {
  const auto& tool = call.tool;
  if (hub_.open_requests_for_plugin(tool.plugin) >= kMaxConcurrentPerPlugin) {
    call.audit.error = audit::make_audit_error(audit::audit_code::rate_limited, "too many concurrent dispatches");
    co_return tools::call_result::text("Too many concurrent dispatches for plugin \"" + tool.plugin + "\" (limit: " +
                                           std::to_string(kMaxConcurrentPerPlugin) +
                                           "). Wait for in-flight requests to complete.",
                                       true, errc::rate_limited);
  }
  invocation_notice notice(hub_, tool.plugin, tool.base_name);
  tools::call_result r;
  std::optional<std::int64_t> tab_id = call.target.tab_id;
  if (!hub_.connected()) {
    r = tools::call_result::text(extension_not_connected_text(hub_), true, errc::tool_failed);
    call.audit.error = audit::make_audit_error(audit::audit_code::unknown, "Extension not connected");
  } else if (!call.target.instance.empty() && !tab_id) {
    if (auto tab = instance_tab(tool, call.target.instance)) tab_id = *tab;
    else r = tools::call_result::text(tab.err().message, true, errc::tool_failed);
  }
  if (!r.is_error) r = co_await send(call, tab_id);
  notice.finish(!r.is_error);
  co_return r;
}

net::awaitable<tools::call_result> plugin_backend::send(admitted_call& call, std::optional<std::int64_t> tab_id) {
  const auto& tool = call.tool;
  auto params = tool_dispatch_params(tool.plugin, tool.base_name, std::move(call.args), tab_id);
  request_options ro;
  ro.plugin = tool.plugin;
  ro.label.reserve(tool.plugin.size() + 1 + tool.base_name.size());
  ro.label.append(tool.plugin).append("/").append(tool.base_name);
  ro.connection_id = hub_.choose_connection("", tab_id, tool.plugin);
  if (call.options.on_progress) {
    auto cb = call.options.on_progress;
    ro.on_progress = [cb](double progress, std::optional<double> total, const std::string& message) {
      cb({progress, total, message});
    };
  }
  ro.cancel = call.options.cancel;
  auto reply = co_await hub_.request("tool.dispatch", std::move(params), std::move(ro));
  if (!reply.ok()) call.audit.error = audit_error_of(reply);
  co_return reply.ok() ? success_result(reply.result, true) : plugin_failure(reply);
}

}  // namespace opentabs::app
