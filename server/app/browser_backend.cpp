#include "app/browser_backend.hpp"

#include <memory>
#include <vector>

#include "app/call_results.hpp"
#include "audit/audit_code.hpp"
#include "app/fan_out_results.hpp"
#include "app/invocation_notice.hpp"
#include "app/plugin_tabs.hpp"
#include "net/run_bounded.hpp"
#include "tools/browser_catalog.hpp"
#include "tools/browser_wire.hpp"

namespace opentabs::app {

net::awaitable<tools::call_result> browser_backend::dispatch(admitted_call& call) {
  const auto& tool = call.tool;
  call.args = tools::to_wire_params(tool.name, tools::with_schema_defaults(tool, std::move(call.args)));
  if (tool.name == "plugin_list_tabs") {
    const auto* p = json::get_string(call.args, "plugin");
    co_return tools::call_result::text(
        json::dump(list_plugin_tabs(catalog_.plugins, hub_, p ? std::string(*p) : std::string())));
  }
  // Ours (the OpenTabs wire has none): the caller's name, so the extension puts a tab it opens
  // into the caller's tab group and refuses to act on a tab in another client's group.
  if (!call.options.client.empty())
    call.args["clientGroup"] = json::str(std::string_view(call.options.client).substr(0, client_tabs::max_name));
  if (auto served = co_await handler_.call(tool, call.args, call.options)) {
    if (served->is_error && !call.audit.error) call.audit.error = audit::make_audit_error(audit::audit_code::unknown, "");
    co_return std::move(*served);
  }
  if (tool.method.empty())
    co_return tools::call_result::text("Browser tool error: " + tool.name + " is not available in this build", true,
                                       errc::tool_failed);
  invocation_notice notice(hub_, "browser", tool.name);
  tools::call_result r;
  if (!hub_.connected()) {
    r = tools::call_result::text("Browser tool error: " + extension_not_connected_text(hub_), true, errc::tool_failed);
    call.audit.error = audit::make_audit_error(audit::audit_code::unknown, "Extension not connected");
  } else if (tool.fan_out) {
    r = co_await ask_every(call);
  } else {
    r = co_await ask_one(call);
  }
  notice.finish(!r.is_error);
  co_return r;
}

net::awaitable<tools::call_result> browser_backend::ask_every(admitted_call& call) {
  const auto& tool = call.tool;
  // Shared with the request tasks: a cancelled call may stop waiting before they finish.
  auto answers = std::make_shared<std::vector<profile_answer>>();
  for (auto* c : hub_.connections()) answers->push_back({c->id, {}});
  auto shared_args = std::make_shared<const json::object>(std::move(call.args));
  std::vector<net::task_fn> asks;
  for (std::size_t i = 0; i < answers->size(); ++i)
    asks.push_back([this, answers, i, method = tool.method, shared_args]() -> net::awaitable<void> {
      request_options ro;
      ro.connection_id = (*answers)[i].connection_id;
      (*answers)[i].reply = co_await hub_.request(method, *shared_args, std::move(ro));
    });
  auto ex = co_await asio::this_coro::executor;
  co_await net::run_bounded(ex, std::move(asks), answers->size(), "fan-out request");
  const ext_reply* first_error = nullptr;
  std::size_t answered = 0;
  for (const auto& [cid, reply] : *answers) {
    if (!reply.ok()) {
      if (!first_error) first_error = &reply;
      continue;
    }
    ++answered;
    // browser_list_tabs rebuilds the tab → connection index that routes later calls.
    if (tool.name != "browser_list_tabs") continue;
    if (const auto* arr = reply.result.if_array())
      for (const auto& item : *arr)
        if (const auto* o = item.if_object())
          if (auto tid = json::get_int(*o, "id")) hub_.set_tab_owner(*tid, cid);
  }
  if (answered == 0 && first_error) {
    call.audit.error = audit_error_of(*first_error);
    co_return browser_failure(*first_error);
  }
  co_return success_result(merge_fan_out(tool.name, *answers), false);
}

net::awaitable<tools::call_result> browser_backend::ask_one(admitted_call& call) {
  request_options ro;
  std::optional<std::int64_t> tab = json::get_int(call.args, "tabId");
  if (const auto* cid = json::get_string(call.args, "connectionId")) ro.connection_id = std::string(*cid);
  else ro.connection_id = hub_.choose_connection("", tab, "");
  ro.label = call.tool.method;
  if (call.options.on_progress) {
    auto cb = call.options.on_progress;
    ro.on_progress = [cb](double p, std::optional<double> t, const std::string& m) { cb({p, t, m}); };
  }
  ro.cancel = call.options.cancel;
  auto reply = co_await hub_.request(call.tool.method, std::move(call.args), std::move(ro));
  if (reply.ok()) {
    note_holder(call, tab, reply.result);
    co_return browser_success(call.tool.name, reply.result);
  }
  call.audit.error = audit_error_of(reply);
  co_return browser_failure(reply);
}

void browser_backend::client_ended(std::string_view client) {
  holders_.ended(client);
  hub_.broadcast(json::object{{"jsonrpc", "2.0"},
                              {"method", "browser.clientEnded"},
                              {"params", json::object{{"clientGroup", json::str(client.substr(0, client_tabs::max_name))}}}});
}

// A client holds the tabs it opened (they are in its tab group) until they are closed or it
// ends; acting on a tab does not take it (the extension refuses actions on another client's
// tab, and reading one takes nothing).
void browser_backend::note_holder(const admitted_call& call, std::optional<std::int64_t> tab, const json::value& result) {
  if (call.tool.name == "browser_open_tab") {
    if (const auto* o = result.if_object())
      if (auto opened = json::get_int(*o, "id")) holders_.touched(call.options.client, *opened);
  } else if (tab && call.tool.name == "browser_close_tab") {
    holders_.closed(*tab);
  }
}

}  // namespace opentabs::app
