// HTTP/1.1 response parsing for the client side (see http_response_parser.hpp).
#include "net/http_response_parser.hpp"

#include <algorithm>

#include <charconv>

#include "net/net_failure.hpp"
#include "util/strings.hpp"

namespace opentabs::net {

namespace {

constexpr std::size_t kMaxChunkLine = 1024;

error bad(std::string message) { return make_error(net_failure::bad_response, std::move(message)); }

}  // namespace

std::string_view response_head::header(std::string_view name) const {
  const auto* v = find_header_field(headers, name);
  return v ? std::string_view(*v) : std::string_view();
}

bool response_head::has_header(std::string_view name) const { return find_header_field(headers, name) != nullptr; }

http_response_parser::http_response_parser(response_parse_limits limits) : limits_(limits) {}

std::string http_response_parser::take_body() {
  std::string out;
  out.swap(body_);
  return out;
}

status http_response_parser::append_body(std::string_view data) {
  if (body_total_ + data.size() > limits_.max_body_bytes)
    return make_error(errc::too_large, "response body exceeds " + std::to_string(limits_.max_body_bytes) + " bytes");
  body_.append(data);
  body_total_ += data.size();
  return ok();
}

status http_response_parser::feed(std::string_view bytes) {
  if (state_ == state::done) {
    // After 101 the bytes belong to the upgraded protocol (WebSocket frames), not to HTTP.
    if (bytes.empty() || head_.status == 101) return ok();
    return bad("unexpected bytes after the end of the response");
  }
  if (state_ == state::head) {
    buffer_.append(bytes);
    while (state_ == state::head) {
      auto end = buffer_.find("\r\n\r\n");
      if (end == std::string::npos) {
        if (buffer_.size() > limits_.max_head_bytes)
          return make_error(errc::too_large, "response head exceeds " + std::to_string(limits_.max_head_bytes) + " bytes");
        return ok();
      }
      if (end + 4 > limits_.max_head_bytes)
        return make_error(errc::too_large, "response head exceeds " + std::to_string(limits_.max_head_bytes) + " bytes");
      auto st = parse_head();
      if (!st) return st;
      std::string rest = buffer_.substr(end + 4);
      buffer_.clear();
      if (head_.status >= 100 && head_.status < 200 && head_.status != 101) {  // interim: the real one follows
        head_ = {};
        buffer_ = std::move(rest);
        continue;
      }
      st = start_body();
      if (!st) return st;
      return feed(rest);
    }
  }
  switch (mode_) {
    case body_mode::none:
      state_ = state::done;
      if (!bytes.empty()) return bad("unexpected bytes after the end of the response");
      return ok();
    case body_mode::until_close:
      return append_body(bytes);
    case body_mode::length: {
      if (bytes.size() > remaining_) return bad("more body bytes than Content-Length announced");
      auto st = append_body(bytes);
      if (!st) return st;
      remaining_ -= bytes.size();
      if (remaining_ == 0) state_ = state::done;
      return ok();
    }
    case body_mode::chunked:
      buffer_.append(bytes);
      return parse_chunked();
  }
  return ok();
}

status http_response_parser::parse_head() {
  auto end = buffer_.find("\r\n\r\n");
  std::string_view text(buffer_.data(), end);
  auto line_end = text.find("\r\n");
  std::string_view status_line = text.substr(0, line_end);
  // "HTTP/1.1 200 OK"
  if (!starts_with(status_line, "HTTP/1.")) return bad("response does not start with an HTTP/1.x status line");
  auto sp = status_line.find(' ');
  if (sp == std::string_view::npos || status_line.size() < sp + 4) return bad("malformed status line");
  std::string_view code = status_line.substr(sp + 1, 3);
  int status = 0;
  auto [p, ec] = std::from_chars(code.data(), code.data() + code.size(), status);
  if (ec != std::errc() || p != code.data() + 3 || status < 100 || status > 599) return bad("malformed status code");
  head_.status = status;
  head_.reason = std::string(trim(status_line.substr(std::min(status_line.size(), sp + 4))));
  std::string_view rest = line_end == std::string_view::npos ? std::string_view{} : text.substr(line_end + 2);
  head_.headers.reserve(static_cast<std::size_t>(std::count(rest.begin(), rest.end(), '\n')) + 1);
  while (!rest.empty()) {
    auto nl = rest.find("\r\n");
    std::string_view line = rest.substr(0, nl);
    rest = nl == std::string_view::npos ? std::string_view{} : rest.substr(nl + 2);
    auto colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0) return bad("malformed header line");
    head_.headers.emplace_back(std::string(trim(line.substr(0, colon))), std::string(trim(line.substr(colon + 1))));
  }
  return ok();
}

status http_response_parser::start_body() {
  state_ = state::body;
  // 101: the connection now speaks another protocol; the HTTP response ends with its head.
  if (no_body_ || head_.status == 101 || head_.status == 204 || head_.status == 304) {
    mode_ = body_mode::none;
    state_ = state::done;
    return ok();
  }
  auto te = head_.header("Transfer-Encoding");
  if (!te.empty()) {
    if (to_lower(trim(te)).find("chunked") == std::string::npos) return bad("unsupported Transfer-Encoding");
    mode_ = body_mode::chunked;
    chunk_ = chunk_state::size_line;
    return ok();
  }
  if (head_.has_header("Content-Length")) {
    auto cl = trim(head_.header("Content-Length"));
    std::uint64_t n = 0;
    auto [p, ec] = std::from_chars(cl.data(), cl.data() + cl.size(), n);
    if (cl.empty() || ec != std::errc() || p != cl.data() + cl.size()) return bad("malformed Content-Length");
    if (n > limits_.max_body_bytes)
      return make_error(errc::too_large, "response body exceeds " + std::to_string(limits_.max_body_bytes) + " bytes");
    mode_ = body_mode::length;
    remaining_ = n;
    if (n == 0) state_ = state::done;
    return ok();
  }
  mode_ = body_mode::until_close;
  return ok();
}

status http_response_parser::parse_chunked() {
  while (state_ != state::done) {
    switch (chunk_) {
      case chunk_state::size_line: {
        auto nl = buffer_.find("\r\n");
        if (nl == std::string::npos) {
          if (buffer_.size() > kMaxChunkLine) return bad("chunk size line too long");
          return ok();
        }
        std::string_view line(buffer_.data(), nl);
        auto semi = line.find(';');  // chunk extensions are ignored
        auto digits = trim(line.substr(0, semi));
        std::uint64_t n = 0;
        auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n, 16);
        if (digits.empty() || ec != std::errc() || p != digits.data() + digits.size()) return bad("malformed chunk size");
        if (n > limits_.max_body_bytes)
          return make_error(errc::too_large, "response body exceeds " + std::to_string(limits_.max_body_bytes) + " bytes");
        buffer_.erase(0, nl + 2);
        remaining_ = n;
        chunk_ = n == 0 ? chunk_state::trailers : chunk_state::data;
        break;
      }
      case chunk_state::data: {
        if (buffer_.empty()) return ok();
        auto take = static_cast<std::size_t>(std::min<std::uint64_t>(remaining_, buffer_.size()));
        auto st = append_body(std::string_view(buffer_.data(), take));
        if (!st) return st;
        buffer_.erase(0, take);
        remaining_ -= take;
        if (remaining_ == 0) chunk_ = chunk_state::data_crlf;
        break;
      }
      case chunk_state::data_crlf:
        if (buffer_.size() < 2) return ok();
        if (buffer_.compare(0, 2, "\r\n") != 0) return bad("chunk data not followed by CRLF");
        buffer_.erase(0, 2);
        chunk_ = chunk_state::size_line;
        break;
      case chunk_state::trailers: {
        auto nl = buffer_.find("\r\n");
        if (nl == std::string::npos) {
          if (buffer_.size() > limits_.max_head_bytes) return make_error(errc::too_large, "chunked trailers too large");
          return ok();
        }
        buffer_.erase(0, nl + 2);
        if (nl == 0) {  // the empty line that ends the trailers
          state_ = state::done;
          if (!buffer_.empty()) return bad("unexpected bytes after the end of the response");
        }
        break;
      }
    }
  }
  return ok();
}

status http_response_parser::finish() {
  if (state_ == state::done) return ok();
  if (state_ == state::body && mode_ == body_mode::until_close) {
    state_ = state::done;
    return ok();
  }
  if (state_ == state::head) return make_error(net_failure::truncated, "connection closed before the response head was complete");
  return make_error(net_failure::truncated, "connection closed before the response body was complete");
}

}  // namespace opentabs::net
