#include "app/extension_handlers.hpp"

#include <map>
#include <memory>

#include "app/extension_wire.hpp"
#include "app/original_lines.hpp"
#include "app/payloads.hpp"
#include "app/plugin_log_limiter.hpp"
#include "app/tab_changes.hpp"
#include "app/side_panel_asker.hpp"
#include "app/webmcp_naming.hpp"
#include "config/config_edits.hpp"
#include "config/permissions.hpp"
#include "jsonrpc/jsonrpc.hpp"
#include "tools/browser_catalog.hpp"
#include "util/log.hpp"
#include "util/original_log.hpp"

namespace opentabs::app {

namespace {

using outcome = extension_hub::inbound_outcome;
using reply = outcome;

outcome none() { return {}; }
outcome handled() { return outcome{outcome::kind::handled, {}}; }
outcome answer(json::object body) { return outcome{outcome::kind::reply, std::move(body)}; }

outcome ok_result() { return answer(json::object{{"result", json::object{{"ok", true}}}}); }

outcome error_reply(errc kind, std::string message) { return answer(extension_error_reply(make_error(kind, std::move(message)))); }

class handlers {
 public:
  explicit handlers(handler_context ctx) : ctx_(std::move(ctx)) {}

  // Registers every method this class answers in the hub's method table.
  static void register_methods(const std::shared_ptr<handlers>& self, extension_hub::method_table& table) {
    using jsonrpc::params_kind, jsonrpc::call_kind, jsonrpc::rate_class;
    auto add = [&](std::string name, params_kind params, call_kind calls,
                   reply (handlers::*fn)(ext_connection&, const json::object&, const json::value*)) {
      table.add(std::move(name), {[self, fn](ext_connection& c, const json::object& p, const json::value* id) {
                                    return ((*self).*fn)(c, p, id);
                                  },
                                  params, calls, rate_class::limited});
    };
    add("tab.syncAll", params_kind::object, call_kind::either, &handlers::tab_sync_all);
    add("tab.stateChanged", params_kind::object, call_kind::either, &handlers::tab_state_changed);
    add("tab.changed", params_kind::object, call_kind::either, &handlers::tab_changed);
    add("plugin.log", params_kind::object, call_kind::either, &handlers::plugin_log);
    add("confirmation.response", params_kind::object, call_kind::either, &handlers::confirmation_response);
    add(std::string(kCapabilitiesMethod), params_kind::object, call_kind::either, &handlers::capabilities);
    add("sync.requestFull", params_kind::none, call_kind::either, &handlers::sync_request_full);
    add("config.getState", params_kind::none, call_kind::either, &handlers::config_get_state);
    add("config.setToolPermission", params_kind::object, call_kind::either, &handlers::set_tool_permission);
    add("config.setPluginPermission", params_kind::object, call_kind::either, &handlers::set_plugin_permission);
    add("config.setAllToolsPermission", params_kind::object, call_kind::either, &handlers::set_all_tools_permission);
    add("config.setSkipPermissions", params_kind::object, call_kind::either, &handlers::set_skip_permissions);
    add("config.setPluginSettings", params_kind::object, call_kind::either, &handlers::set_plugin_settings);
    add("server.selfUpdate", params_kind::none, call_kind::request, &handlers::server_self_update);
  }

 private:
  reply tab_sync_all(ext_connection& c, const json::object& params, const json::value*) {
    const auto* tabs = json::get_object(params, "tabs");
    if (!tabs) return none();
    c.tabs.replace_all(*tabs);
    ctx_.hub.tabs_synced(c);
    log::original_line(original_lines::tab_sync_all(c.label, tabs->size(), c.id));
    return handled();
  }

  reply tab_state_changed(ext_connection& c, const json::object& params, const json::value* id) {
    const bool is_request = id != nullptr;
    const auto* plugin = json::get_string(params, "plugin");
    const auto* state = json::get_string(params, "state");
    std::string problem;
    if (!plugin) problem = "Missing params: plugin";
    else if (!state || !parse_tab_state(*state)) problem = "Invalid state: must be closed, unavailable or ready";
    else if (!ctx_.catalog.find_plugin(*plugin)) problem = "Plugin not found: " + std::string(*plugin);
    if (!problem.empty()) {
      if (is_request) return error_reply(errc::invalid_params, problem);
      log::debug("tab.stateChanged rejected: " + problem);
      return none();
    }
    c.tabs.set(std::string(*plugin), tab_map::parse_entry(params));
    log::original_line(original_lines::tab_state_changed(*plugin, *state, c.label));
    return handled();
  }

  // Our extension's tab events (PROTOCOL.md tab.changed): MCP resource notifications, once
  // app/tab_changes has debounced them.
  reply tab_changed(ext_connection&, const json::object& params, const json::value* id) {
    const auto tab = json::get_int(params, "tabId");
    const auto* change = json::get_string(params, "change");
    if (!tab || *tab <= 0 || !change || !is_tab_change(*change)) {
      if (id) return error_reply(errc::invalid_params, "tab.changed needs tabId (a positive integer) and change (opened, navigated, loaded or closed)");
      return none();
    }
    ctx_.events.tab_changed(*tab, *change);
    return handled();
  }

  // Our extension's announcement of the request methods it handles (extension_capabilities.hpp).
  reply capabilities(ext_connection& c, const json::object& params, const json::value* id) {
    const bool is_request = id != nullptr;
    auto caps = parse_capabilities(params);
    if (!caps) {
      if (is_request) return error_reply(errc::invalid_params, caps.err().message);
      log::warn("extension " + c.label + ": " + caps.err().message);
      return handled();
    }
    log::info("extension " + c.label + " announced " + std::to_string(caps->methods.size()) + " methods" +
              (caps->extension_version.empty() ? std::string() : " (extension " + caps->extension_version + ")"));
    c.capabilities = std::move(*caps);
    return is_request ? ok_result() : handled();
  }

  reply plugin_log(ext_connection&, const json::object& params, const json::value*) {
    const auto* plugin = json::get_string(params, "plugin");
    const auto* level = json::get_string(params, "level");
    const auto* message = json::get_string(params, "message");
    if (!plugin || !level || !message || plugin->size() > 128) return none();
    if (*level != "debug" && *level != "info" && *level != "warning" && *level != "error") return none();
    tools::plugin_log_entry e;
    e.plugin = std::string(*plugin);
    e.level = std::string(*level);
    e.message = std::string(std::string_view(*message).substr(0, 16384));
    if (const auto* d = json::find(params, "data")) e.data = *d;
    e.ts = json::get_int(params, "ts").value_or(0);
    // Only plugins we know get a ring: a page cannot make us allocate rings for made-up names.
    if (!ctx_.catalog.find_plugin(e.plugin)) return none();
    std::string line = e.level + " " + e.message;
    if (!e.data.is_null()) line += " " + json::dump(e.data).substr(0, 4096);
    write_plugin_log_line(e.plugin, line);
    ctx_.plugin_logs[e.plugin].push(e);
    ctx_.events.plugin_log(e);
    return handled();
  }

  reply confirmation_response(ext_connection&, const json::object& params, const json::value*) {
    const auto* id = json::get_string(params, "id");
    const auto* d = json::get_string(params, "decision");
    if (!id || !d) return none();
    decision dec;
    if (*d == "allow") dec = json::get_bool(params, "alwaysAllow").value_or(false) ? decision::allow_always : decision::allow;
    else if (*d == "deny") dec = decision::deny;
    else return none();
    auto given = ctx_.confirm.answer(std::string(*id), dec, audit::decided_by::side_panel);
    // Decided elsewhere first (the agent's dialog): the side panel is told who decided, and
    // its entry goes; the lost answer is in the audit log.
    side_panel_asker(ctx_.hub).not_used(std::string(*id), given);
    return handled();
  }

  // Which (plugin, tool-key) pairs exist, for validation of permission changes.
  std::optional<std::string> check_tool(std::string_view plugin, std::string_view tool) {
    if (plugin == "browser") {
      if (!tools::find_browser_tool(tool)) return "Browser tool not found: " + std::string(tool);
      return std::nullopt;
    }
    // WebMCP sites ("webmcp:<site>") may be configured before or after their pages are open.
    if (webmcp::is_permission_key(plugin)) {
      if (!webmcp::valid_tool_name(tool)) return "Invalid WebMCP tool name: " + std::string(tool);
      return std::nullopt;
    }
    const auto* p = ctx_.catalog.find_plugin(plugin);
    if (!p) return "Plugin not found: " + std::string(plugin);
    if (p->find_tool(tool)) return std::nullopt;
    return "Tool not found: " + std::string(tool) + " in plugin " + std::string(plugin);
  }

  reply persist(ext_connection& c, const config::config_store::edit_fn& edit, const json::value* id) {
    auto r = ctx_.config.store.update(edit);
    if (!r) return error_reply(errc::io, "Could not save config.json: " + r.err().message);
    ctx_.reload.apply_own_change(false, &r->cfg);
    return ok_when_saved(c, id);
  }

  // The side panel is told "ok" only once the edit just made is in config.json; while
  // another program holds its lock the answer waits (reload_pipeline::wait_until_saved) and
  // then says it is saved, or accepted and not written yet, or dropped.
  reply ok_when_saved(const ext_connection& c, const json::value* id) {
    const auto ticket = ctx_.reload.save_ticket();
    if (!id || ctx_.config.store.written_through() >= ticket) return ok_result();
    ctx_.reload.when_saved(ticket, [&hub = ctx_.hub, &reload = ctx_.reload, connection = c.id,
                                    id = *id](reload_pipeline::save_state state) {
      json::object reply{{"jsonrpc", "2.0"}, {"id", id}};
      if (state == reload_pipeline::save_state::saved)
        reply["result"] = json::object{{"ok", true}};
      else if (state == reload_pipeline::save_state::waiting)
        reply["result"] = json::object{{"ok", true}, {"saved", false}, {"message", json::str(reload.unsaved_message(state))}};
      else
        reply["error"] = extension_error_json(make_error(errc::io, "Could not save config.json: " + reload.unsaved_message(state)));
      hub.send_to(connection, reply);
    });
    return outcome{outcome::kind::deferred, {}};
  }

  reply sync_request_full(ext_connection& c, const json::object&, const json::value*) {
    ctx_.hub.send_to(c.id, jsonrpc::notification_object("sync.full", sync_full_params(ctx_.config, ctx_.catalog)));
    return none();
  }

  reply config_get_state(ext_connection&, const json::object&, const json::value*) {
    return answer(json::object{{"result", config_state(ctx_.config, ctx_.catalog, ctx_.webmcp, ctx_.hub)}});
  }

  // The real server updates itself with npm; a native build is updated the way it was
  // installed, so say that instead of "Method not found".
  reply server_self_update(ext_connection&, const json::object&, const json::value*) {
    return error_reply(errc::unsupported, std::string("This opentabs server (") + OPENTABS_VERSION +
                                              ") cannot update itself: install the newer version the way you installed this one, "
                                              "then restart it (opentabs stop; opentabs start)");
  }

  reply set_tool_permission(ext_connection& c, const json::object& params, const json::value* id) {
    const auto* plugin = json::get_string(params, "plugin");
    const auto* tool = json::get_string(params, "tool");
    const auto* perm = json::get_string(params, "permission");
    if (!plugin || !tool || !perm) return error_reply(errc::invalid_params, "Missing params: plugin, tool and permission are required");
    auto level = tools::parse_permission(*perm);
    if (!level) return error_reply(errc::invalid_params, "Invalid permission: must be off, ask or auto");
    if (auto problem = check_tool(*plugin, *tool)) return error_reply(errc::invalid_params, *problem);
    std::string p(*plugin), t(*tool);
    auto plugin_default = config::plugin_permission(ctx_.config.cfg, p);
    return persist(c, [p, t, level = *level, plugin_default](json::object& root) -> result<bool> {
      // An override equal to the plugin default is no override at all.
      if (level == plugin_default) return config::remove_tool_permission(root, p, t);
      return config::set_tool_permission(root, p, t, level);
    }, id);
  }

  reply set_plugin_permission(ext_connection& c, const json::object& params, const json::value* id) {
    const auto* plugin = json::get_string(params, "plugin");
    const auto* perm = json::get_string(params, "permission");
    if (!plugin || !perm) return error_reply(errc::invalid_params, "Missing params: plugin and permission are required");
    auto level = tools::parse_permission(*perm);
    if (!level) return error_reply(errc::invalid_params, "Invalid permission: must be off, ask or auto");
    const plugins::plugin* installed = ctx_.catalog.find_plugin(*plugin);
    if (*plugin != "browser" && !webmcp::is_permission_key(*plugin) && !installed)
      return error_reply(errc::invalid_params, "Plugin not found: " + std::string(*plugin));
    config::plugin_permission_change change;
    change.level = *level;
    // reviewedVersion is the user's consent to the code of one version (the side panel sends
    // it only when its confirmation was accepted); it is recorded only for exactly the
    // version installed now, and only for plugins.  Without it nothing becomes reviewed.
    if (const auto* rv = json::find(params, "reviewedVersion")) {
      if (!installed) return error_reply(errc::invalid_params, "Invalid params: reviewedVersion applies to installed plugins only, not " + std::string(*plugin));
      if (!rv->is_string()) return error_reply(errc::invalid_params, "Invalid params: reviewedVersion must be a string");
      if (std::string_view reviewed = rv->get_string(); reviewed != installed->loaded.version)
        return error_reply(errc::invalid_params, "Invalid params: reviewedVersion \"" + std::string(reviewed.substr(0, 64)) +
                                       "\" is not the installed version " + installed->loaded.version + " of " +
                                       std::string(*plugin) + "; review it again");
      change.reviewed_version = installed->loaded.version;
    }
    std::string p(*plugin);
    return persist(c, [p, change](json::object& root) -> result<bool> { return config::set_plugin_permission(root, p, change); }, id);
  }

  // Sent by the real extension, missing from the real server: every tool of the plugin
  // gets the same level (the plugin default is set and overrides are cleared).
  reply set_all_tools_permission(ext_connection& c, const json::object& params, const json::value* id) {
    return set_plugin_permission(c, params, id);
  }

  reply set_skip_permissions(ext_connection&, const json::object& params, const json::value*) {
    auto v = json::get_bool(params, "skipPermissions");
    if (!v) return error_reply(errc::invalid_params, "Invalid params: skipPermissions must be a boolean");
    ctx_.config.skip_permissions = *v;
    ctx_.reload.apply_own_change(false, nullptr);
    return ok_result();
  }

  reply set_plugin_settings(ext_connection& c, const json::object& params, const json::value* id) {
    const auto* plugin = json::get_string(params, "plugin");
    const auto* settings = json::get_object(params, "settings");
    if (!plugin || !settings) return error_reply(errc::invalid_params, "Missing params: plugin and settings (object) are required");
    if (auto problem = ctx_.settings.problem(std::string(*plugin), *settings))
      return error_reply(errc::invalid_params, "Settings validation failed: " + *problem);
    std::string p(*plugin);
    json::object values = *settings;
    auto r = ctx_.config.store.update([p, values](json::object& root) -> result<bool> { return config::set_plugin_settings(root, p, values); });
    if (!r) return error_reply(errc::io, "Could not save config.json: " + r.err().message);
    ctx_.reload.apply_own_change(true, &r->cfg);
    return ok_when_saved(c, id);
  }

 private:
  // server.log gets a bounded share of each plugin's logging (plugin_log_limiter); what is
  // left out is summarised once its window is over, by the next line or by a timer when the
  // plugin went quiet.  MCP clients and the side panel still get every entry.
  struct file_log_budget {
    explicit file_log_budget(asio::any_io_executor ex) : timer(ex) {}
    plugin_log_limiter limiter;
    asio::steady_timer timer;
    bool timer_armed = false;
  };

  static void write_summaries(file_log_budget& b, plugin_log_limiter::clock::time_point now) {
    for (const auto& sum : b.limiter.take_summaries(now))
      log::write_prefixed("[plugin:" + sum.plugin + "]", "warning " + b.limiter.summary_text(sum));
  }

  static void arm_summary_timer(const std::shared_ptr<file_log_budget>& b) {
    auto due = b->limiter.next_summary_due();
    if (!due || b->timer_armed) return;
    b->timer_armed = true;
    b->timer.expires_at(*due);
    std::weak_ptr<file_log_budget> weak = b;
    b->timer.async_wait([weak](const asio::error_code& ec) {
      auto budget = weak.lock();
      if (!budget) return;
      budget->timer_armed = false;
      if (ec) return;
      write_summaries(*budget, plugin_log_limiter::clock::now());
      arm_summary_timer(budget);
    });
  }

  void write_plugin_log_line(const std::string& plugin, const std::string& line) {
    auto now = plugin_log_limiter::clock::now();
    write_summaries(*log_budget_, now);
    if (log_budget_->limiter.admit(plugin, line.size(), now)) log::write_prefixed("[plugin:" + plugin + "]", line);
    else arm_summary_timer(log_budget_);
  }

  handler_context ctx_;
  std::shared_ptr<file_log_budget> log_budget_ = std::make_shared<file_log_budget>(ctx_.hub.executor());
};

}  // namespace

void register_extension_handlers(extension_hub::method_table& table, handler_context ctx) {
  handlers::register_methods(std::make_shared<handlers>(std::move(ctx)), table);
}

}  // namespace opentabs::app
