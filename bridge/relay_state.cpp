// The bridge's sans-I/O protocol bookkeeping (see relay_state.hpp).
#include "bridge/relay_state.hpp"

#include <cstring>

#include "json/validate.hpp"
#include "jsonrpc/jsonrpc.hpp"
#include "net/net_failure.hpp"

namespace opentabs::bridge {

namespace {
constexpr std::string_view kBridgeIdPrefix = "opentabs-bridge-reinitialize-";
}

result<client_message> read_client_message(std::string line, std::size_t max_bytes) {
  json::parse_limits lim;
  lim.max_bytes = max_bytes;
  // Parsed into scratch memory: the bridge keeps only the shape, the id and the method (and
  // relays the bytes); what it keeps is copied out to the default storage.
  json::arena scratch;
  auto v = json::parse(line, scratch, lim);
  if (!v) return make_error(errc::parse_error, v.err().message);
  client_message m;
  m.text = std::move(line);
  if (v->is_array()) {
    m.kind = message_kind::batch;
    return m;
  }
  if (!v->is_object()) return make_error(errc::invalid_request, "a JSON-RPC message must be an object");
  // The server validates the rest; the bridge needs only the shape.
  auto envelope = jsonrpc::classify_peer(v->as_object());
  switch (envelope.kind) {
    case jsonrpc::envelope_kind::request: m.kind = message_kind::request; break;
    case jsonrpc::envelope_kind::notification: m.kind = message_kind::notification; break;
    case jsonrpc::envelope_kind::response: m.kind = message_kind::response; break;
    case jsonrpc::envelope_kind::invalid:
      return make_error(errc::invalid_request, "not a JSON-RPC request, notification or response");
  }
  m.method = std::string(envelope.method);
  if (envelope.id) m.id = json::copy_out(*envelope.id);
  if (m.kind == message_kind::request && m.method == "initialize") m.value = json::copy_out(*v);
  return m;
}

std::string error_line(const json::value& id, int code, std::string_view message) {
  return jsonrpc::error_json(id, jsonrpc::rpc_error{code, std::string(message), nullptr});
}

std::string stdin_error_line(const error& e) {
  const char* what = e.is(errc::parse_error) ? "Parse error: " : "Invalid request: ";
  return error_line(nullptr, jsonrpc::code_for(e.kind), what + e.message);
}

result<std::string> stdout_line(std::string_view payload) {
  const json::parse_limits limits{.max_bytes = 64 * 1024 * 1024, .max_depth = 128};
  // Two memchr scans: find_first_of tests every byte against the set one at a time.
  const bool one_line = std::memchr(payload.data(), '\n', payload.size()) == nullptr &&
                        std::memchr(payload.data(), '\r', payload.size()) == nullptr;
  if (one_line) {
    if (auto ok = json::validate(payload, limits); !ok)
      return make_error(net::net_failure::bad_response, "server sent a message that is not JSON: " + ok.err().message);
    return std::string(payload);
  }
  auto v = json::parse(payload, limits);
  if (!v) return make_error(net::net_failure::bad_response, "server sent a message that is not JSON: " + v.err().message);
  return json::dump(*v);
}

post_action classify_post_status(int status, bool sent_session_id) {
  if (status == 200) return post_action::deliver;
  if (status == 202 || status == 204) return post_action::accepted;
  if (status == 404 && sent_session_id) return post_action::reinitialize;
  if (status == 401) return post_action::reload_secret;
  return post_action::fail;
}

void session_state::remember_initialize(const json::object& request) { initialize_ = request; }

json::object session_state::replay_initialize() {
  json::object o = initialize_.value_or(json::object{});
  o["id"] = json::str(std::string(kBridgeIdPrefix) + std::to_string(++replays_));
  return o;
}

bool session_state::is_bridge_id(const json::value& id) {
  return id.is_string() && std::string_view(id.as_string()).substr(0, kBridgeIdPrefix.size()) == kBridgeIdPrefix;
}

void session_state::on_initialize_result(const json::object& response) {
  if (auto result = json::get_object(response, "result"))
    if (auto v = json::get_string(*result, "protocolVersion")) protocol_version_ = std::string(*v);
}

}  // namespace opentabs::bridge
