// libFuzzer target: JSON-RPC / MCP message handling without a socket — a POST body parsed as
// the /mcp endpoint does, each message (or batch element) classified by jsonrpc::classify, the
// params of every method the server understands parsed by the typed request parsers, and the
// response/error serialisers run on the ids that came in.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "json/json.hpp"
#include "jsonrpc/jsonrpc.hpp"
#include "mcp/requests.hpp"

namespace json = opentabs::json;
namespace mcp = opentabs::mcp;
namespace jsonrpc = opentabs::jsonrpc;

namespace {
void handle(const json::value& element) {
  const jsonrpc::classified c = jsonrpc::classify(element);
  if (!c) {
    if (c.error.message.empty()) __builtin_trap();
    (void)jsonrpc::error_json(c.id, c.error);
    return;
  }
  const jsonrpc::message& m = *c.msg;
  if (m.kind == jsonrpc::message_kind::request) (void)jsonrpc::id_key(m.id);
  (void)mcp::parse_initialize(m.params());
  (void)mcp::parse_tools_list(m.params());
  if (auto call = mcp::parse_tools_call(m.params())) {
    (void)json::dump(call.value->arguments);
  } else if (call.error.message.empty()) {
    __builtin_trap();
  }
  (void)mcp::parse_set_level(m.params());
  (void)mcp::parse_cancelled(m.params());
  (void)jsonrpc::response_json(m.id, m.params());
  (void)jsonrpc::error_json(m.id, mcp::rpc_error::method_not_found(m.method));
  (void)jsonrpc::notification_json(m.method, m.params());
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view body(reinterpret_cast<const char*>(data), size);
  auto parsed = json::parse(body);
  if (!parsed) {
    (void)jsonrpc::error_json(json::value(nullptr), mcp::rpc_error::parse_error(parsed.err().message));
    return 0;
  }
  if (const auto* batch = parsed->if_array()) {
    for (const auto& element : *batch) handle(element);
  } else {
    handle(*parsed);
  }
  return 0;
}
