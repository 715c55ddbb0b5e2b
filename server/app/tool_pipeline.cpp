#include "app/tool_pipeline.hpp"
#include "app/fan_out_results.hpp"

#include <memory>

#include "app/call_results.hpp"
#include "app/extension_wire.hpp"
#include "app/invocation_notice.hpp"
#include "config/permissions.hpp"
#include "jsonrpc/jsonrpc.hpp"
#include "mcp/permission_prompt.hpp"
#include "net/run_bounded.hpp"
#include "schema/lazy_validator.hpp"
#include "tools/browser_catalog.hpp"
#include "tools/browser_wire.hpp"
#include "util/clock.hpp"
#include "util/env.hpp"
#include "util/log.hpp"
#include "util/random.hpp"
#include "util/test_fault.hpp"

namespace opentabs::app {

namespace {

constexpr std::size_t kMaxConcurrentPerPlugin = 25;

std::string host_of_pattern(std::string_view pattern) {
  // "*://host[:port]/*" → "host[:port]"
  auto p = pattern.find("://");
  if (p == std::string_view::npos) return {};
  auto rest = pattern.substr(p + 3);
  return std::string(rest.substr(0, rest.find('/')));
}

std::string host_of_url(std::string_view url) {
  auto p = url.find("://");
  if (p == std::string_view::npos) return {};
  auto rest = url.substr(p + 3);
  rest = rest.substr(0, rest.find_first_of("/?#"));
  if (auto at = rest.rfind('@'); at != std::string_view::npos) rest = rest.substr(at + 1);
  return std::string(rest);
}

// 127.0.0.1 and [::1] count as localhost when matching instance hosts (spec §3.7 step 5).
std::string normalize_host(std::string host) {
  for (const char* loop : {"127.0.0.1", "[::1]"}) {
    std::string_view l(loop);
    if (host.rfind(l, 0) == 0 && (host.size() == l.size() || host[l.size()] == ':'))
      host = "localhost" + host.substr(l.size());
  }
  return host;
}

// A client retrying without answering is asked again, this many rounds in all.
constexpr std::int64_t kMaxPromptRounds = 5;

decision decision_of(mcp::permission_answer a) {
  switch (a) {
    case mcp::permission_answer::allow_once: return decision::allow;
    case mcp::permission_answer::always_allow: return decision::allow_always;
    default: return decision::deny;
  }
}

// Who settled a question the side panel was shown, for confirmation.settled.
std::string_view decided_by_text(decision d, bool answered_in_agent) {
  switch (d) {
    case decision::allow:
    case decision::allow_always:
    case decision::deny: return answered_in_agent ? "elicitation" : "side_panel";
    case decision::cancelled: return "cancelled";
    case decision::disconnected: return "disconnected";
    case decision::shutdown: return "shutdown";
  }
  return "cancelled";
}

tools::call_result bad_request(std::string text) { return tools::call_result::text(std::move(text), true, errc::invalid_params); }

// The site or tab a call acts on, for the permission question.
std::string where_of(const json::object& args, std::optional<std::int64_t> tab_id, const std::string& instance) {
  if (!instance.empty()) return "instance \"" + instance + "\"";
  if (!tab_id) tab_id = json::get_int(args, "tabId");
  if (tab_id) return "tab " + std::to_string(*tab_id);
  if (const auto* url = json::get_string(args, "url")) return host_of_url(*url);
  return {};
}

// Connects a caller's cancel_source to the wait it is currently in, for the scope of that
// wait: the waiter publishes its "cancel me" function in `hook`.
class cancel_link {
 public:
  explicit cancel_link(const std::shared_ptr<tools::cancel_source>& source) : source_(source) {
    if (source_) source_->on_cancel([this] {
        if (hook) hook();
      });
  }
  ~cancel_link() {
    if (source_) source_->clear_hook();
  }
  cancel_link(const cancel_link&) = delete;
  cancel_link& operator=(const cancel_link&) = delete;

  std::function<void()> hook;

 private:
  std::shared_ptr<tools::cancel_source> source_;
};

}  // namespace

tool_pipeline::tool_pipeline(server_state& state, extension_hub& hub, confirmations& confirm,
                             tools::server_events& events)
    : state_(state),
      hub_(hub),
      confirm_(confirm),
      events_(events),
      // Test knob: how long a permission question's requestState is honoured.
      seal_(env_milliseconds("OPENTABS_MCP_REQUEST_STATE_TTL_MS", 1, max_env_milliseconds).value_or(mcp::request_state_seal::default_ttl)) {}

tools::permission tool_pipeline::effective_permission(const tools::tool_def& t) const {
  return config::effective_permission(state_.cfg, t.plugin, t.base_name, state_.skip_permissions);
}

std::vector<tools::listed_tool> tool_pipeline::list_tools() const {
  std::vector<tools::listed_tool> out;
  out.reserve(state_.registry.all().size());
  for (const auto& t : state_.registry.all()) {
    tools::listed_tool l;
    l.name = t->name;
    l.plugin = t->kind == tools::tool_kind::platform ? "platform" : t->plugin;
    if (t->kind != tools::tool_kind::platform) {
      auto p = effective_permission(*t);
      if (p == tools::permission::off && state_.cfg.hide_disabled_tools) continue;
      if (p == tools::permission::off) l.description = "[Disabled] ";
      else if (p == tools::permission::ask) l.description = "[Requires approval] ";
    }
    l.description += t->description;
    l.input_schema = t->input_schema;
    out.push_back(std::move(l));
  }
  return out;
}

net::awaitable<tools::call_result> tool_pipeline::call_tool(std::string name, json::object args,
                                                            tools::call_options options) {
  test_fault::throw_if_armed("pipeline-throw", name);
  auto found = state_.registry.find(name);
  if (!found) {
    std::string text = "Tool " + name + " not found";
    auto similar = state_.registry.similar_names(name);
    if (!similar.empty()) {
      text += ". Did you mean: ";
      for (std::size_t i = 0; i < similar.size(); ++i) text += (i ? ", " : "") + similar[i];
      text += "?";
    }
    co_return tools::call_result::text(text, true, errc::not_found);
  }
  // `found` keeps the definition alive even if a reload swaps the registry meanwhile.  The
  // call runs in this coroutine's frame (one frame per call less than a separate run()).
  const tools::tool_def& tool = *found;

  if (tool.kind == tools::tool_kind::platform) {
    if (!platform_) co_return tools::call_result::text("Tool " + tool.name + " is not available", true, errc::not_found);
    co_return co_await platform_(tool, args);
  }
  auto started = std::chrono::steady_clock::now();
  audit::audit_entry entry;
  entry.timestamp = iso8601_now();
  entry.tool = tool.name;
  entry.plugin = tool.plugin;
  auto finish = [&](tools::call_result r) {
    entry.duration_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count();
    record(entry, r);
    return r;
  };

  auto perm = effective_permission(tool);
  if (perm == tools::permission::off) {
    entry.error = audit::audit_error{"PERMISSION_DENIED", "tool is disabled", std::nullopt};
    co_return finish(disabled_result(tool));
  }
  if (perm != tools::permission::ask && options.input && (options.input->responses || options.input->request_state))
    co_return bad_request("params.inputResponses and params.requestState answer a question, and the tool \"" + tool.name +
                          "\" asked none (it needs no approval): call it without them");
  // A requestState is bound to the arguments as the request carried them.
  const std::string digest = options.input && perm == tools::permission::ask ? mcp::arguments_digest(args) : std::string();

  // Platform arguments are the server's business: strip them before validation.
  std::optional<std::int64_t> tab_id;
  std::string instance;
  if (tool.kind == tools::tool_kind::plugin) {
    if (auto t = json::get_int(args, "tabId"); t && *t > 0) tab_id = *t;
    if (const auto* i = json::get_string(args, "instance"); i && !i->empty()) instance = std::string(*i);
    args.erase("tabId");
    args.erase("instance");
  }
  std::shared_ptr<const schema::validator> validator;
  if (tool.validator) {
    // Compiled on the tool's first call (schema/lazy_validator.hpp); a refusal is logged
    // the first time and told to every caller.
    bool first = !tool.validator->compiled();
    const auto& compiled = tool.validator->get();
    if (!compiled) {
      if (first) log::warn("tool " + tool.name + ": input_schema cannot be compiled, the tool cannot be called: " + compiled.err().message);
      entry.error = audit::audit_error{"INVALID_SCHEMA", "input schema could not be compiled", std::nullopt};
      co_return finish(tools::call_result::text(
          "Tool \"" + tool.name + "\" cannot be called: its input schema could not be compiled: " + compiled.err().message,
          true, errc::tool_failed));
    }
    validator = *compiled;
  } else if (tool.kind == tools::tool_kind::webmcp && webmcp_validator_) {
    auto compiled = co_await webmcp_validator_(tool);
    if (!compiled) {
      bool gone = compiled.err().is(errc::not_found);
      entry.error = audit::audit_error{gone ? "NOT_FOUND" : "INVALID_SCHEMA",
                                       gone ? "the page no longer offers this tool" : "input schema refused", std::nullopt};
      co_return finish(tools::call_result::text(compiled.err().message, true, gone ? errc::not_found : errc::tool_failed));
    }
    validator = std::move(*compiled);
  }
  if (!validator) {
    entry.error = audit::audit_error{"INVALID_SCHEMA", "input schema could not be compiled", std::nullopt};
    co_return finish(tools::call_result::text(
        "Tool \"" + tool.name + "\" cannot be called: its input schema could not be compiled (see the server log).",
        true, errc::tool_failed));
  }
  if (tool.kind == tools::tool_kind::plugin) {
    if (auto st = validator->validate(args, tool.name); !st) {
      entry.error = audit::audit_error{"VALIDATION_ERROR", st.err().message, std::nullopt};
      co_return finish(tools::call_result::text(st.err().message, true, errc::tool_failed));
    }
  } else if (auto v = validator->check(args)) {
    auto text = "Invalid arguments:\n  - " + v->display_path() + ": " + v->message;
    entry.error = audit::audit_error{"VALIDATION_ERROR", text, std::nullopt};
    co_return finish(tools::call_result::text(text, true, errc::tool_failed));
  }

  // Right after the server starts or the extension drops, the extension is about to
  // (re)connect: a call that needs it waits a bounded time instead of failing at once.
  // Browser tools without a method of their own (PDF, HAR, site analysis) still ask the
  // extension through browser_tools.
  const bool needs_extension = tool.kind == tools::tool_kind::plugin || tool.kind == tools::tool_kind::browser;
  if (needs_extension && hub_.extension_expected()) {
    log::info("tool " + tool.name + ": waiting up to " + std::to_string(hub_.reconnect_wait().count()) +
              " ms for the browser extension to connect");
    co_await hub_.await_expected_extension();
  }

  if (perm == tools::permission::ask) {
    auto refused = co_await confirm(tool, args, where_of(args, tab_id, instance), digest, options, entry);
    // Asking is not calling: the retry that brings the answer is audited.
    if (refused && refused->input_required) co_return std::move(*refused);
    if (refused) {
      bool bad_input = refused->failure == errc::invalid_params;
      entry.error = bad_input ? audit::audit_error{"INVALID_INPUT_RESPONSE", "the retry's requestState or inputResponses was refused", std::nullopt}
                              : audit::audit_error{"PERMISSION_DENIED", "not approved", std::nullopt};
      co_return finish(std::move(*refused));
    }
  }

  tools::call_result result;
  if (tool.kind == tools::tool_kind::plugin)
    result = co_await dispatch_plugin(tool, std::move(args), tab_id, instance, options, entry);
  else if (tool.kind == tools::tool_kind::webmcp && webmcp_)
    result = co_await webmcp_(tool, std::move(args), options, entry);
  else
    result = co_await dispatch_browser(tool, std::move(args), options, entry);
  co_return finish(std::move(result));
}

std::string tool_pipeline::not_connected_text() const {
  std::string text = "Extension not connected. Please ensure the OpenTabs Chrome extension is running";
  if (!hub_.install_hint().empty()) text += " (loaded unpacked from " + hub_.install_hint() + ")";
  return text + ": it connects within a few seconds of the server starting; then call the tool again.";
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
  const auto* p = state_.find_plugin(tool.plugin);
  std::string version = p ? p->loaded.version : "?";
  const auto it = state_.cfg.permissions.find(tool.plugin);
  std::string text;
  if (it != state_.cfg.permissions.end() && it->second.reviewed_version && *it->second.reviewed_version != version) {
    text = "Plugin \"" + tool.plugin + "\" has been updated from v" + *it->second.reviewed_version + " to v" + version +
           " and needs re-review.";
  } else if (it != state_.cfg.permissions.end() && it->second.reviewed_version) {
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

void tool_pipeline::record(audit::audit_entry& entry, const tools::call_result& result) {
  entry.success = !result.is_error;
  if (result.is_error && !entry.error) {
    audit::audit_error e;
    e.code = "UNKNOWN";
    if (!result.content.empty())
      if (const auto* t = json::get_string(result.content.front().as_object(), "text")) e.message = std::string(*t);
    entry.error = std::move(e);
  }
  if (entry.success) entry.error.reset();
  auto st = state_.audit.append(std::move(entry));
  if (!st) log::warn("audit log: " + st.err().message);
}

net::awaitable<std::optional<tools::call_result>> tool_pipeline::confirm(const tools::tool_def& tool,
                                                                         const json::object& args, const std::string& where,
                                                                         const std::string& digest,
                                                                         tools::call_options& options, audit::audit_entry& entry) {
  if (options.input && options.input->can_elicit_form()) co_return ask_in_agent(tool, args, where, digest, *options.input, entry);
  const bool panel = hub_.connected();
  auto id = uuid_v4();
  // A 2025-11-25 session that declared elicitation gets the question on the call's stream
  // too; its answer settles the same confirmation, so whichever answers first decides.
  auto answered_in_agent = std::make_shared<bool>(false);
  bool agent = false;
  if (options.elicit) {
    mcp::permission_question q{tool.name, tool.plugin, where, &args};
    agent = options.elicit(mcp::permission_elicitation_params(q), [this, id, answered_in_agent](const json::value* result) {
      auto read = mcp::read_permission_answer(result, "the elicitation/create result");
      if (read && *read != mcp::permission_answer::unanswered) {
        if (confirm_.settle(id, decision_of(*read))) *answered_in_agent = true;
      } else if (!hub_.connected()) {
        // No answer from the client and no side panel to ask: nobody is left to decide.
        confirm_.settle(id, decision::disconnected);
      }
    });
  }
  if (!panel && !agent)
    co_return tools::call_result::text(
        "Tool " + tool.name + " requires approval but the extension is not connected.", true, errc::tool_failed);
  if (options.on_progress)
    options.on_progress({0, 1.0, agent ? "Waiting for user approval (in this client or the OpenTabs side panel)"
                                       : "Waiting for user approval in the OpenTabs side panel"});
  if (panel) ask_side_panel(id, tool, args);
  decision d;
  {
    cancel_link link(options.cancel);
    d = co_await confirm_.wait(id, &link.hook);
  }
  if (d == decision::allow || d == decision::allow_always || d == decision::deny) entry.decided_by = *answered_in_agent ? "elicitation" : "side_panel";
  if (panel) withdraw_side_panel_question(id, decided_by_text(d, *answered_in_agent));
  co_return apply_decision(tool, d);
}

std::optional<tools::call_result> tool_pipeline::ask_in_agent(const tools::tool_def& tool, const json::object& args,
                                                              const std::string& where, const std::string& digest,
                                                              const tools::input_round& input, audit::audit_entry& entry) {
  const auto now = now_epoch_ms();
  mcp::request_binding question{tool.name, digest, input.client, "", 1};
  if (input.request_state) {
    auto redeemed = seal_.redeem(*input.request_state, question, now);
    if (!redeemed) return bad_request(redeemed.err().message);
    // The side panel had the same question: an answer there came first.
    if (auto d = confirm_.take_parked(redeemed->prompt)) {
      entry.decided_by = "side_panel";
      withdraw_side_panel_question(redeemed->prompt, "side_panel");
      return apply_decision(tool, *d);
    }
    const json::value* answer = nullptr;
    if (input.responses) {
      const auto* responses = input.responses->if_object();
      if (!responses) return bad_request("params.inputResponses must be an object mapping inputRequests keys to results, got " +
                                         std::string(json::type_name(*input.responses)));
      answer = responses->if_contains(mcp::permission_input_key);
    }
    auto read = mcp::read_permission_answer(answer, "params.inputResponses." + std::string(mcp::permission_input_key));
    if (!read) return bad_request(read.err().message);
    if (*read != mcp::permission_answer::unanswered) {
      confirm_.unpark(redeemed->prompt);
      withdraw_side_panel_question(redeemed->prompt, "elicitation");
      entry.decided_by = "elicitation";
      return apply_decision(tool, decision_of(*read));
    }
    if (redeemed->round >= kMaxPromptRounds) {
      confirm_.unpark(redeemed->prompt);
      withdraw_side_panel_question(redeemed->prompt, "unanswered");
      return tools::call_result::text("Tool " + tool.name + " was not approved: the permission question went unanswered " +
                                          std::to_string(kMaxPromptRounds) + " times.",
                                      true, errc::tool_failed);
    }
    question.prompt = redeemed->prompt;
    question.round = redeemed->round + 1;
  } else if (input.responses) {
    return bad_request("params.inputResponses answers no question: this server asks with a requestState, and the request carries "
                       "none; call the tool without inputResponses to be asked");
  } else {
    question.prompt = uuid_v4();
    // The same question in the side panel; whichever answers first decides.
    if (hub_.connected()) ask_side_panel(question.prompt, tool, args);
  }
  confirm_.park(question.prompt, std::chrono::steady_clock::now() + seal_.ttl());
  mcp::permission_question q{tool.name, tool.plugin, where, &args};
  tools::call_result r;
  r.input_required = json::object{{"inputRequests", json::object{{mcp::permission_input_key, mcp::permission_input_request(q)}}},
                                  {"requestState", json::str(seal_.seal(question, now))}};
  return r;
}

void tool_pipeline::ask_side_panel(const std::string& id, const tools::tool_def& tool, const json::object& args) {
  hub_.broadcast(jsonrpc::notification_object("confirmation.request", json::object{{"id", json::str(id)},
                                                                   {"tool", json::str(tool.base_name)},
                                                                   {"plugin", json::str(tool.plugin)},
                                                                   {"params", args}}));
}

void tool_pipeline::withdraw_side_panel_question(const std::string& id, std::string_view decided_by) {
  if (!hub_.connected()) return;
  hub_.broadcast(jsonrpc::notification_object("confirmation.settled", json::object{{"id", json::str(id)}, {"decidedBy", json::str(decided_by)}}));
}

std::optional<tools::call_result> tool_pipeline::apply_decision(const tools::tool_def& tool, decision d) {
  switch (d) {
    case decision::allow: return std::nullopt;
    case decision::allow_always:
      if (on_always_allow_) on_always_allow_(tool);
      return std::nullopt;
    case decision::deny: return tools::call_result::text("Tool " + tool.name + " was denied by the user.", true, errc::tool_failed);
    case decision::disconnected:
      return tools::call_result::text(
          "Tool " + tool.name + " requires approval but the extension is not connected.", true, errc::tool_failed);
    case decision::cancelled: return tools::call_result::text("Tool " + tool.name + " was cancelled.", true, errc::tool_failed);
    case decision::shutdown: return tools::call_result::text("Server shutting down", true, errc::tool_failed);
  }
  return std::nullopt;
}

net::awaitable<tools::call_result> tool_pipeline::dispatch_plugin(const tools::tool_def& tool, json::object args,
                                                                  std::optional<std::int64_t> tab_id,
                                                                  const std::string& instance,
                                                                  tools::call_options& options,
                                                                  audit::audit_entry& entry) {
  if (hub_.open_requests_for_plugin(tool.plugin) >= kMaxConcurrentPerPlugin) {
    entry.error = audit::audit_error{"RATE_LIMITED", "too many concurrent dispatches", std::nullopt};
    co_return tools::call_result::text("Too many concurrent dispatches for plugin \"" + tool.plugin +
                                           "\" (limit: 25). Wait for in-flight requests to complete.",
                                       true, errc::rate_limited);
  }
  invocation_notice notice(hub_, tool.plugin, tool.base_name);
  auto end = [&](const tools::call_result& r) { notice.finish(!r.is_error); };
  if (!hub_.connected()) {
    auto r = tools::call_result::text(not_connected_text(), true, errc::tool_failed);
    entry.error = audit::audit_error{"UNKNOWN", "Extension not connected", std::nullopt};
    end(r);
    co_return r;
  }
  if (!instance.empty() && !tab_id) {
    const auto* p = state_.find_plugin(tool.plugin);
    const json::value* pattern = p ? p->settings.instance_map.if_contains(instance) : nullptr;
    if (!pattern || !pattern->is_string()) {
      std::string valid;
      if (p)
        for (const auto& kv : p->settings.instance_map) valid += (valid.empty() ? "" : ", ") + std::string(kv.key());
      auto r = tools::call_result::text("Unknown instance \"" + instance + "\" for plugin \"" + tool.plugin +
                                            "\". Valid instances: " + (valid.empty() ? "(none)" : valid),
                                        true, errc::tool_failed);
      end(r);
      co_return r;
    }
    std::string pattern_text(pattern->get_string());
    auto want = normalize_host(host_of_pattern(pattern_text));
    std::optional<std::int64_t> fallback;
    for (auto* c : hub_.connections()) {
      const auto* entry = c->tabs.find(tool.plugin);
      if (!entry) continue;
      for (const auto& t : entry->tabs) {
        if (normalize_host(host_of_url(t.url)) != want) continue;
        if (t.ready) {
          tab_id = t.tab_id;
          break;
        }
        if (!fallback) fallback = t.tab_id;
      }
      if (tab_id) break;
    }
    if (!tab_id) tab_id = fallback;
    if (!tab_id) {
      auto r = tools::call_result::text("No open tab found for instance \"" + instance + "\" (" + pattern_text +
                                            "). Open the site in the browser first.",
                                        true, errc::tool_failed);
      end(r);
      co_return r;
    }
  }
  std::string params = tool_dispatch_params(tool.plugin, tool.base_name, args, tab_id);
  request_options ro;
  ro.plugin = tool.plugin;
  ro.label.reserve(tool.plugin.size() + 1 + tool.base_name.size());
  ro.label.append(tool.plugin).append("/").append(tool.base_name);
  ro.connection_id = hub_.choose_connection("", tab_id, tool.plugin);
  if (options.on_progress) {
    auto cb = options.on_progress;
    ro.on_progress = [cb](double progress, std::optional<double> total, const std::string& message) {
      cb({progress, total, message});
    };
  }
  cancel_link link(options.cancel);
  ro.cancel_hook = &link.hook;
  auto reply = co_await hub_.request_json("tool.dispatch", std::move(params), std::move(ro));
  tools::call_result r = reply.ok() ? success_result(reply.result, true) : plugin_failure(reply);
  if (!reply.ok()) entry.error = audit_error_of(reply);
  end(r);
  co_return r;
}

json::value tool_pipeline::list_plugin_tabs(const std::string& plugin) const {
  json::array out;
  for (const auto& p : state_.plugins) {
    if (!plugin.empty() && p.name() != plugin) continue;
    auto state = tab_state::closed;
    json::array tabs;
    for (const auto* c : hub_.connections()) {
      const auto* e = c->tabs.find(p.name());
      if (!e) continue;
      state = best_of(state, e->state);
      for (const auto& t : e->tabs) {
        json::object tab = t.to_json();
        tab["connectionId"] = json::str(c->id);
        auto host = normalize_host(host_of_url(t.url));
        for (const auto& kv : p.settings.instance_map)
          if (kv.value().is_string() && normalize_host(host_of_pattern(kv.value().get_string())) == host)
            tab["instance"] = json::str(kv.key());
        tabs.push_back(std::move(tab));
      }
    }
    out.push_back(json::object{{"plugin", json::str(p.name())},
                               {"displayName", json::str(p.loaded.display_name)},
                               {"state", json::str(to_string(state))},
                               {"tabs", std::move(tabs)}});
  }
  if (!plugin.empty() && out.empty()) {
    std::string names;
    for (const auto& p : state_.plugins) names += (names.empty() ? "" : ", ") + p.name();
    return json::object{{"error", json::str("Plugin \"" + plugin + "\" not found. Available plugins: " +
                                            (names.empty() ? std::string("(none)") : names))}};
  }
  return out;
}

net::awaitable<tools::call_result> tool_pipeline::dispatch_browser(const tools::tool_def& tool, json::object args,
                                                                   tools::call_options& options,
                                                                   audit::audit_entry& entry) {
  // Defaults filled, then the wire shape of the extension contract (extension/PROTOCOL.md).
  args = tools::to_wire_params(tool.name, tools::with_schema_defaults(tool, std::move(args)));
  if (tool.name == "plugin_list_tabs") {
    const auto* p = json::get_string(args, "plugin");
    co_return tools::call_result::text(json::dump(list_plugin_tabs(p ? std::string(*p) : std::string())));
  }
  if (browser_handler_) {
    if (auto served = co_await browser_handler_->call(tool, args, options)) {
      if (served->is_error && !entry.error) entry.error = audit::audit_error{"UNKNOWN", "", std::nullopt};
      co_return std::move(*served);
    }
  }
  if (tool.method.empty())
    co_return tools::call_result::text("Browser tool error: " + tool.name + " is not available in this build", true, errc::tool_failed);
  invocation_notice notice(hub_, "browser", tool.name);
  tools::call_result r;
  if (!hub_.connected()) {
    r = tools::call_result::text("Browser tool error: " + not_connected_text(), true, errc::tool_failed);
    entry.error = audit::audit_error{"UNKNOWN", "Extension not connected", std::nullopt};
  } else if (tool.fan_out) {
    // ★ tools ask every connected browser profile at once and tag each entry with its
    // connection; a profile that fails is reported as {connectionId, error} rather than
    // silently left out, unless every profile failed (then the call fails).  The merged
    // shapes are in fan_out_results.hpp.
    // Shared with the request tasks: a cancelled call may stop waiting before they finish.
    auto answers = std::make_shared<std::vector<profile_answer>>();
    for (auto* c : hub_.connections()) answers->push_back({c->id, {}});
    auto shared_args = std::make_shared<const json::object>(args);
    std::vector<net::task_fn> asks;
    for (std::size_t i = 0; i < answers->size(); ++i)
      asks.push_back([this, answers, i, method = tool.method, shared_args]() -> net::awaitable<void> {
        request_options ro;
        ro.connection_id = (*answers)[i].connection_id;
        auto reply = co_await hub_.request(method, *shared_args, std::move(ro));
        (*answers)[i].reply = std::move(reply);
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
      if (tool.name != "browser_list_tabs") continue;
      if (const auto* arr = reply.result.if_array())
        for (const auto& item : *arr)
          if (const auto* o = item.if_object())
            if (auto tid = json::get_int(*o, "id")) hub_.set_tab_owner(*tid, cid);
    }
    if (answered == 0 && first_error) {
      r = browser_failure(*first_error);
      entry.error = audit_error_of(*first_error);
    } else {
      r = success_result(merge_fan_out(tool.name, *answers), false);
    }
  } else {
    request_options ro;
    std::optional<std::int64_t> tab = json::get_int(args, "tabId");
    if (const auto* cid = json::get_string(args, "connectionId")) ro.connection_id = std::string(*cid);
    else ro.connection_id = hub_.choose_connection("", tab, "");
    ro.label = tool.method;
    if (options.on_progress) {
      auto cb = options.on_progress;
      ro.on_progress = [cb](double p, std::optional<double> t, const std::string& m) { cb({p, t, m}); };
    }
    cancel_link link(options.cancel);
    ro.cancel_hook = &link.hook;
    auto reply = co_await hub_.request(tool.method, std::move(args), std::move(ro));
    if (reply.ok()) {
      r = browser_success(tool.name, reply.result);
    } else {
      r = browser_failure(reply);
      entry.error = audit_error_of(reply);
    }
  }
  notice.finish(!r.is_error);
  co_return r;
}

}  // namespace opentabs::app
