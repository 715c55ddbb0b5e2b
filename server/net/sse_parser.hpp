// Server-Sent Events decoding (the text/event-stream format of the WHATWG HTML standard),
// sans-I/O: feed body bytes as they arrive, get complete events out.  Used by the CLI and
// the stdio bridge to read MCP answers and the standalone GET stream.  Lines end in LF,
// CRLF or CR; "data" lines of one event are joined with "\n"; comments (":...") are
// skipped.  One event may not grow beyond max_event_bytes.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/result.hpp"

namespace opentabs::net {

struct sse_event {
  std::string event = "message";  // the "event" field, "message" when absent
  std::string data;
  std::string id;
  std::optional<long> retry_ms;
};

class sse_parser {
 public:
  explicit sse_parser(std::size_t max_event_bytes = 16 * 1024 * 1024) : max_event_bytes_(max_event_bytes) {}

  // Appends every event completed by `bytes` to `out`.  Error "too_large" when one line or
  // event exceeds the bound; the parser must not be fed again after an error.
  status feed(std::string_view bytes, std::vector<sse_event>& out);

  // The id of the last event that carried one (for Last-Event-ID on reconnect).
  const std::string& last_event_id() const { return last_id_; }

 private:
  void line(std::string_view text, std::vector<sse_event>& out);
  void dispatch(std::vector<sse_event>& out);

  std::size_t max_event_bytes_;
  std::string partial_;  // the current unfinished line
  bool skip_lf_ = false;  // the previous chunk ended in CR: a leading LF belongs to it
  bool bom_checked_ = false;
  sse_event current_;
  bool has_data_ = false;
  std::size_t event_bytes_ = 0;
  std::string last_id_;
};

}  // namespace opentabs::net
