// Server-Sent Events decoding (see sse_parser.hpp).
#include "net/sse_parser.hpp"

#include <charconv>

namespace opentabs::net {

status sse_parser::feed(std::string_view bytes, std::vector<sse_event>& out) {
  std::size_t start = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    char c = bytes[i];
    if (skip_lf_) {
      skip_lf_ = false;
      if (c == '\n') {
        start = i + 1;
        continue;
      }
    }
    if (c != '\n' && c != '\r') continue;
    partial_.append(bytes.substr(start, i - start));
    if (partial_.size() > max_event_bytes_) return make_error(errc::too_large, "event stream line exceeds the size limit");
    line(partial_, out);
    partial_.clear();
    if (event_bytes_ > max_event_bytes_) return make_error(errc::too_large, "event stream event exceeds the size limit");
    if (c == '\r') skip_lf_ = true;
    start = i + 1;
  }
  partial_.append(bytes.substr(start));
  if (partial_.size() > max_event_bytes_) return make_error(errc::too_large, "event stream line exceeds the size limit");
  return ok();
}

void sse_parser::line(std::string_view text, std::vector<sse_event>& out) {
  if (!bom_checked_) {
    // A UTF-8 byte order mark may precede the stream; it is not part of the first field.
    bom_checked_ = true;
    if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  }
  if (text.empty()) {
    dispatch(out);
    return;
  }
  if (text.front() == ':') return;  // comment (keep-alive)
  std::string_view field = text;
  std::string_view value;
  if (auto colon = text.find(':'); colon != std::string_view::npos) {
    field = text.substr(0, colon);
    value = text.substr(colon + 1);
    if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  }
  event_bytes_ += text.size();
  if (field == "data") {
    if (has_data_) current_.data.push_back('\n');
    current_.data.append(value);
    has_data_ = true;
  } else if (field == "event") {
    current_.event = std::string(value);
  } else if (field == "id") {
    if (value.find('\0') == std::string_view::npos) current_.id = std::string(value);
  } else if (field == "retry") {
    long ms = 0;
    auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), ms);
    if (ec == std::errc() && p == value.data() + value.size() && ms >= 0) current_.retry_ms = ms;
  }
  // Unknown fields are ignored, as the standard requires.
}

void sse_parser::dispatch(std::vector<sse_event>& out) {
  if (!current_.id.empty()) last_id_ = current_.id;
  if (has_data_) {
    if (current_.event.empty()) current_.event = "message";
    out.push_back(std::move(current_));
  }
  current_ = sse_event{};
  has_data_ = false;
  event_bytes_ = 0;
}

}  // namespace opentabs::net
