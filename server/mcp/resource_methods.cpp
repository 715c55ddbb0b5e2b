// The resources rows of a 2025-11-25 session's request table (see request_methods.hpp).
#include "mcp/request_methods.hpp"
#include "mcp/resource_requests.hpp"

namespace opentabs::mcp {
namespace {

// A read or listing on behalf of a session: its client's tab group and its own budget,
// like a tools/call of that session (call_runner::call_options_for).
request_result answer_in_session(tools::resource_service* service, std::shared_ptr<live_session> s, const jsonrpc::message& m) {
  tools::call_options options;
  options.origin = "mcp";
  if (s) {
    options.client = s->rec->client_name;
    options.caller = "session " + s->id;
  }
  co_return co_await answer_resource_request(service, m, std::move(options), false);
}

request_result answer_now(std::string response) { co_return response; }

}  // namespace

void add_resource_methods(request_methods& table, tools::resource_service* service) {
  for (std::string_view method : {"resources/list", "resources/templates/list", "resources/read"})
    table.add(std::string(method), {[service](request_context ctx) { return answer_in_session(service, std::move(ctx.session), ctx.msg); },
                                    jsonrpc::params_kind::object, jsonrpc::call_kind::request});
  for (std::string_view method : {"resources/subscribe", "resources/unsubscribe"})
    table.add(std::string(method), {[service](request_context ctx) {
                                      return answer_now(answer_subscription_request(service, ctx.msg, ctx.session->subscribed_resources));
                                    },
                                    jsonrpc::params_kind::object, jsonrpc::call_kind::request});
}

}  // namespace opentabs::mcp
