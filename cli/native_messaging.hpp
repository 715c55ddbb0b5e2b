// Chrome's native-messaging wire format, sans-I/O: each message is a 4-byte length in the
// machine's native byte order followed by that many bytes of UTF-8 JSON.  Chrome refuses
// host→browser messages over 1 MiB; browser→host messages may be far larger, but our host
// only ever receives small requests, so it accepts at most `max_incoming` bytes and skips
// (without buffering) the body of anything longer.  The reader is fed whatever bytes arrive
// and hands out complete frames or errors; the host decides what to answer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>

#include "json/json.hpp"
#include "util/result.hpp"

namespace opentabs::cli::native {

inline constexpr std::size_t kMaxHostToBrowser = 1024 * 1024;  // Chrome's limit
inline constexpr std::size_t kDefaultMaxIncoming = 64 * 1024;

// One frame: length prefix + body.  Error "too_large" when the body exceeds 1 MiB.
result<std::string> encode_frame(std::string_view body);
// A JSON object as a frame.
result<std::string> encode_message(const json::object& message);

// One thing the reader produced.
struct incoming {
  enum class kind { message, too_large, bad_json } what = kind::message;
  json::object message;     // kind::message
  std::size_t length = 0;   // the announced body length
  std::string error;        // kind::too_large / bad_json: what was wrong (no message content)
};

class frame_reader {
 public:
  explicit frame_reader(std::size_t max_incoming = kDefaultMaxIncoming) : max_(max_incoming) {}

  // Feeds bytes in any chunking.
  void feed(std::string_view bytes);
  // The next complete result, if any.
  std::optional<incoming> next();
  // Bytes of an unfinished frame are pending (for an "input ended mid-message" check).
  bool mid_frame() const { return have_header_ || !header_.empty(); }

 private:
  std::size_t max_;
  std::string header_;         // up to 4 bytes of the current length prefix
  bool have_header_ = false;
  std::uint32_t length_ = 0;
  std::string body_;           // the current body (only when length_ <= max_)
  std::size_t skipped_ = 0;    // bytes of an oversized body skipped so far
  std::deque<incoming> ready_;
};

}  // namespace opentabs::cli::native
