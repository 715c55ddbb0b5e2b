#include "mcp/streamable_http.hpp"

#include "mcp/protocol_version.hpp"
#include "util/strings.hpp"

namespace opentabs::mcp {

namespace {

// q=0 means "not acceptable".
bool zero_quality(std::string_view params) {
  part_reader parts(params, ';');
  for (std::string_view p; parts.next(p);) {
    p = trim(p);
    if (p.size() >= 2 && (p[0] == 'q' || p[0] == 'Q') && p[1] == '=') {
      auto v = trim(p.substr(2));
      bool all_zero = !v.empty();
      for (char c : v)
        if (c != '0' && c != '.') all_zero = false;
      return all_zero;
    }
  }
  return false;
}

}  // namespace

bool accepts(std::string_view accept_header, std::string_view media_type) {
  auto slash = media_type.find('/');
  auto type = media_type.substr(0, slash);
  part_reader ranges(accept_header, ',');
  for (std::string_view range; ranges.next(range);) {
    range = trim(range);
    auto semi = range.find(';');
    auto mr = trim(range.substr(0, semi));
    bool match = iequals(mr, media_type) || mr == "*/*" ||
                 (mr.size() == type.size() + 2 && iequals(mr.substr(0, type.size()), type) && mr.substr(type.size()) == "/*");
    if (match && !(semi != std::string_view::npos && zero_quality(range.substr(semi + 1)))) return true;
  }
  return false;
}

bool is_json_content_type(std::string_view content_type) {
  auto semi = content_type.find(';');
  return iequals(trim(content_type.substr(0, semi)), "application/json");
}

std::string sse_message_event(std::string_view json_message) {
  std::string out;
  out.reserve(json_message.size() + 24);
  out += "event: message\n";
  // Compact JSON never contains raw newlines; split defensively so a line break can never
  // end the event early.
  std::size_t start = 0;
  while (true) {
    auto nl = json_message.find('\n', start);
    out += "data: ";
    out += json_message.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
    out += '\n';
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  out += '\n';
  return out;
}

std::string_view sse_keepalive_comment() { return ": keepalive\n\n"; }

net::http_response transport_error(int status, const rpc_error& error) {
  auto body = json::object{{"jsonrpc", "2.0"}, {"error", error.to_json()}, {"id", nullptr}};
  return net::http_response::json(status, body);
}

net::http_response transport_error(int status, std::string message) {
  return transport_error(status, rpc_error::transport(std::move(message)));
}

net::http_response json_response(int status, std::string body) {
  net::http_response res;
  res.status = status;
  res.headers.emplace_back("Content-Type", "application/json");
  res.body = std::move(body);
  return res;
}

net::http_response gzip_json_response(int status, std::string gzip_body) {
  auto res = json_response(status, std::move(gzip_body));
  res.headers.emplace_back("Content-Encoding", "gzip");
  res.headers.emplace_back("Vary", "Accept-Encoding");
  return res;
}

post_messages read_post_messages(const json::value& body, std::string_view protocol_version, std::size_t max_batch) {
  post_messages out;
  out.batch = body.is_array();
  if (!out.batch) {
    out.items.push_back(jsonrpc::classify(body));
    if (!out.items[0]) out.refusal = json_response(400, jsonrpc::error_json(out.items[0].id, out.items[0].error));
    return out;
  }
  const auto& arr = body.get_array();
  if (!allows_batches(protocol_version)) {
    out.refusal = transport_error(400, rpc_error::invalid_request("JSON-RPC batches are not supported in protocol version " +
                                                                  std::string(protocol_version) +
                                                                  " (only 2025-03-26); send one message per POST"));
  } else if (arr.empty()) {
    out.refusal = transport_error(400, rpc_error::invalid_request("empty batch"));
  } else if (arr.size() > max_batch) {
    out.refusal = transport_error(400, rpc_error::invalid_request("batch of " + std::to_string(arr.size()) +
                                                                  " messages exceeds the limit of " + std::to_string(max_batch)));
  } else {
    for (const auto& v : arr) out.items.push_back(jsonrpc::classify(v));
  }
  return out;
}

}  // namespace opentabs::mcp
