// The websocketpp adapter.  This is the only translation unit that includes websocketpp,
// and it includes only the sans-I/O headers that compile as C++20 (style/anchors.md §8):
// the HTTP request parser and processor::hybi13.  websocketpp's parser throws on bad
// input; every throw is caught here and turned into a value.
#define _WEBSOCKETPP_CPP11_STL_

#include <websocketpp/extensions/permessage_deflate/disabled.hpp>
#include <websocketpp/http/request.hpp>
#include <websocketpp/http/response.hpp>
#include <websocketpp/message_buffer/alloc.hpp>
#include <websocketpp/message_buffer/message.hpp>
#include <websocketpp/processors/hybi13.hpp>
#include <websocketpp/random/none.hpp>

#include "codec/ws_codec.hpp"
#include "util/strings.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace opentabs::codec {
namespace {

namespace wpp = websocketpp;

struct codec_config {
  using request_type = wpp::http::parser::request;
  using response_type = wpp::http::parser::response;
  using message_type = wpp::message_buffer::message<wpp::message_buffer::alloc::con_msg_manager>;
  using con_msg_manager_type = wpp::message_buffer::alloc::con_msg_manager<message_type>;
  using rng_type = wpp::random::none::int_generator<std::uint32_t>;
  struct permessage_deflate_config {
    using request_type = codec_config::request_type;
  };
  using permessage_deflate_type = wpp::extensions::permessage_deflate::disabled<permessage_deflate_config>;
  static const std::size_t max_message_size = 32 * 1024 * 1024;
  static const bool enable_extensions = false;
};

using processor_type = wpp::processor::hybi13<codec_config>;
using msg_manager = codec_config::con_msg_manager_type;

// Server-side processors never mask, so the rng is never asked for a value; it only has to
// outlive the processor.
codec_config::rng_type& shared_rng() {
  static codec_config::rng_type rng;
  return rng;
}

// A processor used only to encode frames (server frames carry no per-connection state).
processor_type& encoder() {
  static auto manager = std::make_shared<msg_manager>();
  static processor_type p(false, true, manager, shared_rng());
  return p;
}

codec_config::request_type to_wpp_request(const http_request& req) {
  codec_config::request_type r;
  r.set_method(req.method);
  r.set_uri(req.target);
  r.set_version(req.version);
  for (std::size_t i = 0; i < req.header_count(); ++i) {
    auto [k, v] = req.header_at(i);
    r.append_header(std::string(k), std::string(v));
  }
  return r;
}

// Eight bytes ASCII-lowercased at once: A–Z get 0x20 added, every other byte (including
// those ≥ 0x80) is left as it is.
constexpr std::uint64_t ascii_lower_word(std::uint64_t w) noexcept {
  constexpr std::uint64_t ones = 0x0101010101010101ull;
  const std::uint64_t low7 = w & (0x7f * ones);
  const std::uint64_t above_z = low7 + (0x80 - 'Z' - 1) * ones;  // high bit: byte > 'Z'
  const std::uint64_t from_a = low7 + (0x80 - 'A') * ones;       // high bit: byte >= 'A'
  const std::uint64_t upper = (from_a & ~above_z & ~w) & (0x80 * ones);
  return w | (upper >> 2);
}
// Every byte value, in the lowest and the highest byte of a word, folds as ascii_lower does.
constexpr bool ascii_lower_word_matches_per_byte() {
  for (unsigned b = 0; b < 256; ++b) {
    const unsigned want = b >= 'A' && b <= 'Z' ? b + 0x20 : b;
    const std::uint64_t filler = 0x5a415b40c17b7a60ull & ~0xff000000000000ffull;  // 'Z' 'A' '[' '@' 0xc1 '{' 'z' '`'
    const std::uint64_t folded_filler = 0x7a615b40c17b7a60ull & ~0xff000000000000ffull;
    if (ascii_lower_word(filler | b | (std::uint64_t{b} << 56)) != (folded_filler | want | (std::uint64_t{want} << 56)))
      return false;
  }
  return true;
}
static_assert(ascii_lower_word_matches_per_byte());

void ascii_lower_in_place(char* p, std::size_t n) noexcept {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, p + i, 8);
    w = ascii_lower_word(w);
    std::memcpy(p + i, &w, 8);
  }
  for (; i < n; ++i) p[i] = ascii_lower(p[i]);
}


// How many leading bytes of `s` are ASCII (high bit clear): eight bytes per step.
std::size_t ascii_prefix_size(std::string_view s) noexcept {
  constexpr std::uint64_t high_bits = 0x8080808080808080ull;
  std::size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    std::uint64_t word;
    std::memcpy(&word, s.data() + i, sizeof word);
    if (word & high_bits) break;
  }
  while (i < s.size() && !(static_cast<unsigned char>(s[i]) & 0x80)) ++i;
  return i;
}

std::string encode_control(wpp::frame::opcode::value op, std::string_view payload) {
  auto& p = encoder();
  auto out = std::make_shared<codec_config::message_type>(nullptr, op, payload.size() + 16);
  std::error_code ec;
  if (op == wpp::frame::opcode::ping) ec = p.prepare_ping(std::string(payload), out);
  else ec = p.prepare_pong(std::string(payload), out);
  if (ec) return {};
  return out->get_header() + out->get_payload();
}

}  // namespace

// ---------------------------------------------------------------- http_request

// The first eight bytes of a header name, ASCII-lowercased and zero-padded, as one word:
// a lookup compares this word and the length, and compares the rest of the name only on
// a match (the SDK's ~12 headers × ~20 lookups per request).
std::uint64_t http_request::name_prefix_key(std::string_view name) noexcept {
  std::uint64_t key = 0;
  std::memcpy(&key, name.data(), name.size() < 8 ? name.size() : 8);
  return ascii_lower_word(key);
}

const http_request::field* http_request::find_field(std::string_view name) const noexcept {
  const auto key = name_prefix_key(name);
  for (const auto& f : fields_) {
    if (f.name_key != key || f.name_size != name.size()) continue;
    if (name.size() <= 8 || iequals({header_bytes_.data() + f.name_at + 8, f.name_size - 8}, name.substr(8)))
      return &f;
  }
  return nullptr;
}

std::string_view http_request::header(std::string_view name) const {
  const auto* f = find_field(name);
  return f ? std::string_view(header_bytes_.data() + f->value_at, f->value_size) : std::string_view();
}

bool http_request::has_header(std::string_view name) const { return find_field(name) != nullptr; }

void http_request::add_header(std::string_view name, std::string_view value) {
  field f{};
  f.name_key = name_prefix_key(name);
  f.name_at = static_cast<std::uint32_t>(header_bytes_.size());
  f.name_size = static_cast<std::uint32_t>(name.size());
  header_bytes_.append(name);
  ascii_lower_in_place(header_bytes_.data() + f.name_at, name.size());
  f.value_at = static_cast<std::uint32_t>(header_bytes_.size());
  f.value_size = static_cast<std::uint32_t>(value.size());
  header_bytes_.append(value);
  fields_.push_back(f);
}

std::pair<std::string_view, std::string_view> http_request::header_at(std::size_t i) const {
  const auto& f = fields_.at(i);
  return {std::string_view(header_bytes_.data() + f.name_at, f.name_size),
          std::string_view(header_bytes_.data() + f.value_at, f.value_size)};
}

std::string http_request::query_param(std::string_view name) const {
  part_reader parts(query, '&');
  for (std::string_view part; parts.next(part);) {
    auto eq = part.find('=');
    auto key = part.substr(0, eq);
    if (percent_decode(key) == name) return eq == std::string_view::npos ? std::string() : percent_decode(part.substr(eq + 1));
  }
  return {};
}

bool http_request::has_query_param(std::string_view name) const {
  part_reader parts(query, '&');
  for (std::string_view part; parts.next(part);) {
    if (percent_decode(part.substr(0, part.find('='))) == name) return true;
  }
  return false;
}

bool http_request::keep_alive() const {
  auto conn = header("Connection");
  if (version == "HTTP/1.0") return icontains(conn, "keep-alive");
  return !icontains(conn, "close");
}

std::string percent_decode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '+') {
      out.push_back(' ');
    } else if (c == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) && std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out.push_back(static_cast<char>(std::stoi(std::string(s.substr(i + 1, 2)), nullptr, 16)));
      i += 2;
    } else {
      out.push_back(c);
    }
  }
  return out;
}

// ---------------------------------------------------------------- request_parser

struct request_parser::impl {
  codec_config::request_type req;
};

request_parser::request_parser(parse_limits limits) : impl_(std::make_unique<impl>()), limits_(limits) { reset(); }
request_parser::~request_parser() = default;
request_parser::request_parser(request_parser&&) noexcept = default;
request_parser& request_parser::operator=(request_parser&&) noexcept = default;

void request_parser::reset() {
  impl_->req = codec_config::request_type();
  impl_->req.set_max_body_size(limits_.max_body_bytes);
  state_ = state::need_more;
  head_complete_ = false;
  head_end_match_ = 0;
  line_ = line_part::request_line;
  announced_body_bytes_ = 0;
  reject_status_ = 0;
  reject_reason_.clear();
  head_ = http_request();
}

namespace {

// Where the head ends in `data`: the index just past the first "\r\n\r\n", which may have
// started in an earlier feed (`matched` carries how much of it the previous bytes matched).
// npos when the head goes on.
bool all_digits(std::string_view s) noexcept {
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

std::size_t find_head_end(const char* data, std::size_t size, int& matched) {
  static constexpr char blank_line[] = "\r\n\r\n";
  // One byte at a time: on a mismatch the longest suffix that can still start a blank line
  // is "\r" or nothing.
  auto step = [&](char c) {
    if (c == blank_line[matched]) return ++matched == 4;
    matched = c == '\r' ? 1 : 0;
    return false;
  };
  std::size_t i = 0;
  for (; i < size && matched > 0; ++i)  // finish a match begun in earlier bytes
    if (step(data[i])) return i + 1;
  if (i == size) return std::string::npos;
  // The bulk: a library search instead of the byte loop (a head is ~600 bytes per request).
  std::string_view rest(data + i, size - i);
  if (auto at = rest.find("\r\n\r\n"); at != std::string_view::npos) {
    matched = 4;
    return i + at + 4;
  }
  // No blank line: a partial one can only be in the last three bytes.
  for (std::size_t k = rest.size() > 3 ? rest.size() - 3 : 0; k < rest.size(); ++k) step(rest[k]);
  return std::string::npos;
}

}  // namespace

std::size_t request_parser::feed(const char* data, std::size_t size) {
  if (state_ != state::need_more) return 0;
  if (head_complete_) return take_body(data, size);
  // While the head is arriving, websocketpp is fed at most up to its blank line, so no
  // body byte is taken before the caller has screened the head.
  std::size_t offer = size;
  auto end = find_head_end(data, size, head_end_match_);
  if (end != std::string::npos) offer = end;
  if (!field_lines_ok(data, offer)) {
    state_ = state::rejected;
    reject_status_ = 400;
    reject_reason_ = "whitespace before a header field's colon, or a folded (obs-fold) header line";
    return size;
  }
  std::size_t used = 0;
  try {
    used = impl_->req.consume(data, offer);
  } catch (const wpp::http::exception& e) {
    state_ = state::rejected;
    reject_status_ = static_cast<int>(e.m_error_code);
    if (reject_status_ < 400 || reject_status_ > 599) reject_status_ = 400;
    reject_reason_ = e.m_msg.empty() ? std::string("malformed request") : e.m_msg;
    if (reject_status_ == 431) reject_reason_ = "request head exceeds 16000 bytes";
    if (reject_status_ == 413) {
      // websocketpp reads the length with strtoul, which takes "-1" or " +5" as a number
      // (a huge one for "-1"): a length that is not all digits is invalid framing (400).
      const auto& cl = impl_->req.get_header("Content-Length");
      if (!all_digits(cl)) {
        reject_status_ = 400;
        reject_reason_ = "invalid Content-Length header";
      } else {
        reject_reason_ = "request body exceeds " + std::to_string(limits_.max_body_bytes) + " bytes";
      }
    }
    return size;
  }
  if (head_end_match_ == 4) {
    capture_head();
    if (!check_head()) return size;
    head_complete_ = true;
    // websocketpp has checked the announced length against the limit (413); the body is
    // taken here by that length, not fed to websocketpp, which would append it to a string
    // of its own that take() would then have to copy.
    if (announced_body_bytes_ == 0) state_ = state::done;
  }
  return used;
}

// RFC 9112 §5.1–5.2: whitespace between a field name and its colon must be refused (a
// recipient that strips it, as websocketpp does, reads "Content-Length : 5" as a length
// another parser would not), and so is obs-fold (a line starting with SP or HT), which
// websocketpp would read as a field of its own.  Runs over the head bytes as they are fed;
// the state carries over a line cut between two feeds.
bool request_parser::field_lines_ok(const char* data, std::size_t size) noexcept {
  // Library searches, not a loop over every byte: only a line's first byte and the byte
  // before its colon are looked at (whitespace elsewhere in a name is not a token
  // character, which websocketpp refuses with 400 on its own).
  auto is_space = [](char c) { return c == ' ' || c == '\t'; };
  const char* p = data;
  const char* const end = data + size;
  while (p < end) {
    switch (line_) {
      case line_part::request_line:
      case line_part::value: {
        const auto* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
        if (!nl) return true;
        p = nl + 1;
        line_ = line_part::line_start;
        break;
      }
      case line_part::line_start:
        if (is_space(*p)) return false;  // obs-fold
        line_ = line_part::name;
        break;
      case line_part::name: {
        const auto* colon = static_cast<const char*>(std::memchr(p, ':', static_cast<std::size_t>(end - p)));
        // A name cut by the end of this feed: whitespace at its end is before the colon or
        // inside the name, both refused; otherwise the next feed goes on with it.
        if (!colon) return !is_space(end[-1]);
        if (colon > p && is_space(colon[-1])) return false;
        p = colon + 1;
        line_ = line_part::value;
        break;
      }
    }
  }
  return true;
}

std::size_t request_parser::take_body(const char* data, std::size_t size) {
  auto& body = head_.body;
  std::size_t n = std::min(size, announced_body_bytes_ - body.size());
  // The whole announced length at once when it is modest (a JSON-RPC call is a few hundred
  // bytes); a large one grows as it arrives, so memory follows the bytes received.
  if (body.empty() && announced_body_bytes_ <= 64 * 1024) body.reserve(announced_body_bytes_);
  body.append(data, n);
  if (body.size() == announced_body_bytes_) state_ = state::done;
  return n;
}

bool request_parser::check_head() {
  auto reject = [this](int status, std::string reason) {
    state_ = state::rejected;
    reject_status_ = status;
    reject_reason_ = std::move(reason);
    return false;
  };
  // websocketpp ignores Transfer-Encoding (it would misread a chunked body as the next
  // request), and parses Content-Length leniently: both are checked here, on the head.
  if (!head_.header("Transfer-Encoding").empty())
    return reject(411, "Transfer-Encoding request bodies are not supported; send a Content-Length body");
  auto cl = head_.header("Content-Length");
  // RFC 9110 §8.6: Content-Length = 1*DIGIT; an empty one is invalid, not "no body".
  if (!all_digits(cl) || (cl.empty() && head_.has_header("Content-Length")))
    return reject(400, "invalid Content-Length header");
  const auto& v = head_.version;
  if (v != "HTTP/1.1" && v != "HTTP/1.0") return reject(505, "unsupported HTTP version");
  // (websocketpp already refused a length over the limit with 413, so this cannot overflow.)
  std::size_t length = 0;
  for (char c : cl) length = length * 10 + static_cast<std::size_t>(c - '0');
  announced_body_bytes_ = length;
  return true;
}

void request_parser::capture_head() {
  const auto& r = impl_->req;
  head_.method = r.get_method();
  head_.target = r.get_uri();
  head_.version = r.get_version();
  auto q = head_.target.find('?');
  head_.path = head_.target.substr(0, q);
  if (q != std::string::npos) head_.query = head_.target.substr(q + 1);
  const auto& headers = r.get_headers();
  std::size_t bytes = 0;
  for (const auto& [k, v] : headers) bytes += k.size() + v.size();
  head_.header_bytes_.reserve(bytes);
  head_.fields_.reserve(headers.size());
  for (const auto& [k, v] : headers) head_.add_header(k, v);
}

http_request request_parser::take() {
  http_request out = std::move(head_);
  head_ = http_request();
  return out;
}

// ---------------------------------------------------------------- handshake

bool is_websocket_upgrade(const http_request& req) {
  return icontains(req.header("Upgrade"), "websocket");
}

std::vector<std::string> offered_subprotocols(const http_request& req) {
  std::vector<std::string> out;
  auto h = req.header("Sec-WebSocket-Protocol");
  if (h.empty()) return out;
  part_reader parts(h, ',');
  for (std::string_view part; parts.next(part);) {
    auto t = trim(part);
    if (!t.empty()) out.emplace_back(t);
  }
  return out;
}

result<std::string> accept_handshake(const http_request& req, std::string_view subprotocol) {
  auto wreq = to_wpp_request(req);
  if (trim(req.header("Sec-WebSocket-Version")) != "13")
    return make_error(errc::unsupported, "unsupported WebSocket version (13 required)");
  auto& p = encoder();
  if (auto ec = p.validate_handshake(wreq)) return make_error(errc::invalid_request, "invalid WebSocket handshake: " + ec.message());
  codec_config::response_type res;
  if (auto ec = p.process_handshake(wreq, std::string(subprotocol), res))
    return make_error(errc::invalid_request, "invalid WebSocket handshake: " + ec.message());
  res.set_status(wpp::http::status_code::switching_protocols);
  res.set_version("HTTP/1.1");
  return res.raw();
}

// ---------------------------------------------------------------- decoder

struct ws_decoder::impl {
  std::shared_ptr<msg_manager> manager = std::make_shared<msg_manager>();
  processor_type proc{false, true, manager, shared_rng()};
  bool failed = false;
};

ws_decoder::ws_decoder(std::size_t max_message_bytes) : impl_(std::make_unique<impl>()) {
  impl_->proc.set_max_message_size(max_message_bytes);
}
ws_decoder::~ws_decoder() = default;

std::uint16_t ws_decoder::feed(char* data, std::size_t size, std::vector<ws_message>& out, std::string& reason) {
  if (impl_->failed) {
    reason = "connection already failed";
    return close_code::protocol_error;
  }
  auto* buf = reinterpret_cast<std::uint8_t*>(data);
  std::size_t pos = 0;
  while (pos < size) {
    std::error_code ec;
    pos += impl_->proc.consume(buf + pos, size - pos, ec);
    if (ec) {
      // The processor does not latch fatal errors by itself; we do.
      impl_->failed = true;
      reason = ec.message();
      auto code = wpp::processor::error::to_ws(ec);
      return code == 0 ? close_code::protocol_error : static_cast<std::uint16_t>(code);
    }
    if (impl_->proc.ready()) {
      auto msg = impl_->proc.get_message();
      ws_message m;
      switch (msg->get_opcode()) {
        case wpp::frame::opcode::text: m.type = ws_message::kind::text; break;
        case wpp::frame::opcode::binary: m.type = ws_message::kind::binary; break;
        case wpp::frame::opcode::ping: m.type = ws_message::kind::ping; break;
        case wpp::frame::opcode::pong: m.type = ws_message::kind::pong; break;
        case wpp::frame::opcode::close: {
          m.type = ws_message::kind::close;
          std::error_code cec;
          m.close_code = wpp::close::extract_code(msg->get_payload(), cec);
          if (!cec) m.payload = wpp::close::extract_reason(msg->get_payload(), cec);
          if (cec || (m.close_code != 0 && wpp::close::status::invalid(m.close_code))) {
            impl_->failed = true;
            reason = "invalid close frame";
            return close_code::protocol_error;
          }
          break;
        }
        default:
          impl_->failed = true;
          reason = "unsupported opcode";
          return close_code::protocol_error;
      }
      if (m.type != ws_message::kind::close) m.payload = std::move(msg->get_raw_payload());
      out.push_back(std::move(m));
    }
  }
  return 0;
}

// ---------------------------------------------------------------- encoders

std::string encode_text(std::string_view payload) {
  // What hybi13::prepare_data_frame does for an unmasked, uncompressed server frame
  // (validate UTF-8, then header + payload), without its two message objects and the two
  // payload copies into them: every relayed call sends two or three text frames.
  // ASCII bytes are whole code points, so the validator only has to see the payload from
  // its first non-ASCII byte on (almost every frame is all ASCII JSON).
  wpp::utf8_validator::validator utf8;
  if (!utf8.decode(payload.begin() + static_cast<std::ptrdiff_t>(ascii_prefix_size(payload)), payload.end()) ||
      !utf8.complete())
    return {};
  const wpp::frame::basic_header basic(wpp::frame::opcode::text, payload.size(), true, false);
  const wpp::frame::extended_header extended(payload.size());
  const auto header_bytes = wpp::frame::get_header_len(basic);
  std::string frame;
  frame.reserve(header_bytes + payload.size());
  frame.push_back(static_cast<char>(basic.b0));
  frame.push_back(static_cast<char>(basic.b1));
  frame.append(reinterpret_cast<const char*>(extended.bytes), header_bytes - wpp::frame::BASIC_HEADER_LENGTH);
  frame.append(payload);
  return frame;
}

std::string encode_ping(std::string_view payload) { return encode_control(wpp::frame::opcode::ping, payload); }
std::string encode_pong(std::string_view payload) { return encode_control(wpp::frame::opcode::pong, payload); }

std::string encode_close(std::uint16_t code, std::string_view reason) {
  auto& p = encoder();
  auto out = std::make_shared<codec_config::message_type>(nullptr, wpp::frame::opcode::close, reason.size() + 8);
  if (p.prepare_close(static_cast<wpp::close::status::value>(code), std::string(reason.substr(0, 120)), out)) return {};
  return out->get_header() + out->get_payload();
}

}  // namespace opentabs::codec
