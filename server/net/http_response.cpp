#include "net/http_response.hpp"

#include <cstdio>

#include "util/strings.hpp"

namespace opentabs::net {

std::string_view http_response::header(std::string_view name) const {
  for (const auto& [k, v] : headers)
    if (iequals(k, name)) return v;
  return {};
}

http_response http_response::json(int status, const json::value& body) {
  http_response r;
  r.status = status;
  r.headers.emplace_back("Content-Type", "application/json");
  r.body = json::dump(body);
  return r;
}

int http_status_for(errc e) {
  switch (e) {
    case errc::parse_error:
    case errc::invalid_request:
    case errc::invalid_params: return 400;
    case errc::method_not_found:
    case errc::not_found: return 404;
    case errc::denied: return 403;
    case errc::busy: return 409;
    case errc::too_large: return 413;
    case errc::tool_failed: return 422;
    case errc::unsupported: return 426;
    case errc::rate_limited: return 429;
    case errc::cancelled:
    case errc::unavailable: return 503;
    case errc::timeout: return 504;
    case errc::io:
    case errc::internal: return 500;
  }
  return 500;
}

http_response http_response::error(int status, std::string_view code, std::string_view description) {
  return json(status, json::object{{"error", json::str(code)}, {"error_description", json::str(description)}});
}

http_response http_response::empty(int status) {
  http_response r;
  r.status = status;
  return r;
}

std::string_view status_text(int status) {
  switch (status) {
    case 101: return "Switching Protocols";
    case 200: return "OK";
    case 202: return "Accepted";
    case 204: return "No Content";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 406: return "Not Acceptable";
    case 408: return "Request Timeout";
    case 409: return "Conflict";
    case 411: return "Length Required";
    case 413: return "Payload Too Large";
    case 415: return "Unsupported Media Type";
    case 422: return "Unprocessable Entity";
    case 426: return "Upgrade Required";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 503: return "Service Unavailable";
    case 505: return "HTTP Version Not Supported";
    default: return "Unknown";
  }
}

namespace {

// An upper bound on what append_head and the framing lines after it write, so a response
// is built in one allocation instead of growing through four or five.
std::size_t head_capacity(const header_list& headers) {
  std::size_t n = 128;  // status line (≤ 46), Content-Length or Transfer-Encoding, Connection, blank line
  for (const auto& [k, v] : headers) n += k.size() + v.size() + 4;
  return n;
}

void append_head(std::string& out, int status, const header_list& headers) {
  out += "HTTP/1.1 ";
  out += std::to_string(status);
  out += ' ';
  out += status_text(status);
  out += "\r\n";
  for (const auto& [k, v] : headers) {
    out += k;
    out += ": ";
    out += v;
    out += "\r\n";
  }
}

void append_fixed_length_head(std::string& out, const http_response& res, bool keep_alive, std::size_t body_size) {
  append_head(out, res.status, res.headers);
  out += "Content-Length: ";
  out += std::to_string(body_size);
  out += keep_alive ? "\r\nConnection: keep-alive\r\n\r\n" : "\r\nConnection: close\r\n\r\n";
}

}  // namespace

std::string serialize_head(const http_response& res, bool keep_alive) {
  return serialize_head(res, keep_alive, res.body.size());
}

std::string serialize_head(const http_response& res, bool keep_alive, std::size_t body_size) {
  std::string out;
  out.reserve(head_capacity(res.headers));
  append_fixed_length_head(out, res, keep_alive, body_size);
  return out;
}

std::string serialize(const http_response& res, bool keep_alive) {
  std::string out;
  out.reserve(head_capacity(res.headers) + res.body.size());
  append_fixed_length_head(out, res, keep_alive, res.body.size());
  out += res.body;
  return out;
}

std::string serialize_stream_head(int status, const header_list& headers, bool keep_alive, std::size_t spare_capacity) {
  std::string out;
  out.reserve(head_capacity(headers) + spare_capacity);
  append_head(out, status, headers);
  out += "Transfer-Encoding: chunked\r\n";
  out += keep_alive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n";
  return out;
}

void append_chunk(std::string& out, std::string_view data) {
  char size[32];
  int n = std::snprintf(size, sizeof size, "%zx\r\n", data.size());
  out.reserve(out.size() + static_cast<std::size_t>(n) + data.size() + 2);
  out.append(size, static_cast<std::size_t>(n));
  out.append(data);
  out += "\r\n";
}

std::string encode_chunk(std::string_view data) {
  std::string out;
  append_chunk(out, data);
  return out;
}

std::string_view last_chunk() { return "0\r\n\r\n"; }

}  // namespace opentabs::net
