// JSON-RPC 2.0 classification and serialisation (see jsonrpc.hpp).
#include "jsonrpc/jsonrpc.hpp"

#include <cmath>

namespace opentabs::jsonrpc {
namespace {

bool valid_id(const json::value& id) {
  if (id.is_string() || id.is_int64() || id.is_uint64()) return true;
  if (id.is_double()) {
    double d = id.get_double();
    // Integral and within int64 (classify converts it): 1e24 would overflow the cast (UB).
    return std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9.2e18;
  }
  return false;
}

classified failure(rpc_error e, json::value id = nullptr) {
  classified c;
  c.error = std::move(e);
  c.id = std::move(id);
  return c;
}

}  // namespace

int code_for(errc e) {
  switch (e) {
    case errc::parse_error: return rpc_code::parse_error;
    case errc::invalid_request: return rpc_code::invalid_request;
    case errc::invalid_params:
    case errc::not_found: return rpc_code::invalid_params;
    case errc::method_not_found: return rpc_code::method_not_found;
    case errc::too_large:
    case errc::busy:
    case errc::rate_limited:
    case errc::timeout:
    case errc::cancelled:
    case errc::denied:
    case errc::tool_failed:
    case errc::unsupported:
    case errc::unavailable:
    case errc::io:
    case errc::internal: return rpc_code::internal_error;
  }
  return rpc_code::internal_error;
}

rpc_error rpc_error::from(const error& e) { return {code_for(e.kind), e.message, nullptr}; }

json::object rpc_error::to_json() const {
  json::object o{{"code", code}, {"message", json::str(message)}};
  if (!data.is_null()) o["data"] = data;
  return o;
}

rpc_error rpc_error::parse_error(std::string_view detail) {
  return {rpc_code::parse_error, "Parse error: " + std::string(detail), nullptr};
}
rpc_error rpc_error::invalid_request(std::string_view detail) {
  return {rpc_code::invalid_request, "Invalid Request: " + std::string(detail), nullptr};
}
rpc_error rpc_error::method_not_found(std::string_view method) {
  // Echo at most 100 bytes of a name the client chose.
  std::string shown(method.substr(0, 100));
  if (method.size() > 100) shown += "...";
  return {rpc_code::method_not_found, "Method not found: " + shown, nullptr};
}
rpc_error rpc_error::invalid_params(std::string_view field, std::string_view problem) {
  return {rpc_code::invalid_params, "Invalid params: " + std::string(field) + " " + std::string(problem),
          json::object{{"field", json::str(field)}}};
}
rpc_error rpc_error::invalid_params_text(std::string message) {
  return {rpc_code::invalid_params, std::move(message), nullptr};
}
rpc_error rpc_error::internal(std::string_view detail) {
  return {rpc_code::internal_error, "Internal error: " + std::string(detail), nullptr};
}
rpc_error rpc_error::transport(std::string message) { return {rpc_code::transport_error, std::move(message), nullptr}; }

classified classify(const json::value& v) {
  if (!v.is_object()) return failure(rpc_error::invalid_request("a JSON-RPC message must be an object, got " + std::string(json::type_name(v))));
  const auto& o = v.get_object();

  // Read the id first so that every later error can name the request.
  json::value id = nullptr;
  const json::value* raw_id = json::find(o, "id");
  bool id_ok = raw_id && valid_id(*raw_id);
  if (id_ok) id = raw_id->is_double() ? json::value(static_cast<std::int64_t>(raw_id->get_double())) : *raw_id;

  const auto* version = json::get_string(o, "jsonrpc");
  if (!version || *version != "2.0") return failure(rpc_error::invalid_request("\"jsonrpc\" must be \"2.0\""), id);

  const json::value* method = json::find(o, "method");
  if (method) {
    if (!method->is_string()) return failure(rpc_error::invalid_request("\"method\" must be a string"), id);
    if (raw_id && !id_ok)
      return failure(rpc_error::invalid_request("\"id\" must be a string or an integer, got " + std::string(json::type_name(*raw_id))));
    message m;
    m.kind = raw_id ? message_kind::request : message_kind::notification;
    m.id = id;
    m.method = std::string(method->get_string());
    if (const json::value* p = json::find(o, "params")) {
      if (!p->is_object()) {
        if (m.kind == message_kind::request)
          return failure(rpc_error::invalid_params("params", "must be an object, got " + std::string(json::type_name(*p))), id);
        return failure(rpc_error::invalid_request("\"params\" must be an object"), id);
      }
      m.params_view = &p->get_object();
    }
    classified c;
    c.msg = std::move(m);
    c.id = id;
    return c;
  }

  bool has_result = o.contains("result"), has_error = o.contains("error");
  if (raw_id && (has_result != has_error)) {
    message m;
    m.kind = message_kind::response;
    m.id = id;
    classified c;
    c.msg = std::move(m);
    c.id = id;
    return c;
  }
  return failure(rpc_error::invalid_request("a message needs \"method\" (request or notification) or \"id\" with exactly one of \"result\"/\"error\" (response)"), id);
}

const json::object& message::params() const {
  static const json::object empty;
  return params_view ? *params_view : empty;
}

const json::object* envelope::params_object() const {
  static const json::object empty;
  if (!params) return &empty;
  return params->is_object() ? &params->get_object() : nullptr;
}

envelope classify_peer(const json::object& o, peer_rules rules) {
  envelope e;
  const json::value* id = json::find(o, "id");
  if (id && rules.null_id_is_absent && id->is_null()) id = nullptr;
  if (const auto* method = json::get_string(o, "method")) {
    e.kind = id ? envelope_kind::request : envelope_kind::notification;
    e.id = id;
    e.method = *method;
    e.params = json::find(o, "params");
    return e;
  }
  const json::value* result = json::find(o, "result");
  const json::value* error = json::find(o, "error");
  if (id && (result || error)) {
    e.kind = envelope_kind::response;
    e.id = id;
    e.result = result;
    e.error = error && error->is_object() ? &error->get_object() : nullptr;
  }
  return e;
}

std::string id_key(const json::value& id) {
  std::string key;
  if (id.is_string()) {
    const auto& s = id.get_string();
    key.reserve(2 + s.size());
    key += "s:";
    key.append(s.data(), s.size());
    return key;
  }
  key = "n:";
  json::append_dump(key, id);
  return key;
}

void append_response_head(std::string& out, const json::value& id) {
  out += R"({"jsonrpc":"2.0","id":)";
  json::append_dump(out, id);
  out += R"(,"result":)";
}

std::string response_json(const json::value& id, std::string_view result_json) {
  std::string out;
  out.reserve(result_json.size() + 48);
  append_response_head(out, id);
  out += result_json;
  out += '}';
  return out;
}

std::string response_json(const json::value& id, const json::object& result) { return response_json(id, json::dump(result)); }

std::string error_json(const json::value& id, const rpc_error& error) {
  std::string out = R"({"jsonrpc":"2.0","id":)";
  json::append_dump(out, id);
  out += R"(,"error":)";
  json::append_dump(out, error.to_json());
  out += '}';
  return out;
}

std::string notification_json(std::string_view method, const json::object& params) {
  json::object o{{"jsonrpc", "2.0"}, {"method", json::str(method)}, {"params", params}};
  return json::dump(o);
}

std::string notification_json(std::string_view method) {
  json::object o{{"jsonrpc", "2.0"}, {"method", json::str(method)}};
  return json::dump(o);
}

std::string batch_json(const std::vector<std::string>& responses) {
  std::string out = "[";
  for (std::size_t i = 0; i < responses.size(); ++i) {
    if (i) out += ',';
    out += responses[i];
  }
  out += ']';
  return out;
}

json::object request_object(const json::value& id, std::string_view method, json::object params) {
  return json::object{{"jsonrpc", "2.0"}, {"method", json::str(method)}, {"params", std::move(params)}, {"id", id}};
}

json::object notification_object(std::string_view method, json::object params) {
  return json::object{{"jsonrpc", "2.0"}, {"method", json::str(method)}, {"params", std::move(params)}};
}

json::object response_object(const json::value& id, json::value result) {
  return json::object{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

json::object error_object(const json::value& id, const rpc_error& error) {
  return json::object{{"jsonrpc", "2.0"}, {"id", id}, {"error", error.to_json()}};
}

}  // namespace opentabs::jsonrpc
