#include "cli/native_messaging.hpp"

#include <cstring>

namespace opentabs::cli::native {

result<std::string> encode_frame(std::string_view body) {
  if (body.size() > kMaxHostToBrowser)
    return make_error(errc::too_large, "native message of " + std::to_string(body.size()) +
                                       " bytes exceeds Chrome's 1 MiB host-to-browser limit");
  std::uint32_t n = static_cast<std::uint32_t>(body.size());
  std::string out(4, '\0');
  std::memcpy(out.data(), &n, 4);  // native byte order, as Chrome expects
  out.append(body);
  return out;
}

result<std::string> encode_message(const json::object& message) { return encode_frame(json::dump(message)); }

void frame_reader::feed(std::string_view bytes) {
  while (!bytes.empty()) {
    if (!have_header_) {
      auto take = std::min<std::size_t>(4 - header_.size(), bytes.size());
      header_.append(bytes.substr(0, take));
      bytes.remove_prefix(take);
      if (header_.size() < 4) return;
      std::memcpy(&length_, header_.data(), 4);
      header_.clear();
      have_header_ = true;
      body_.clear();
      skipped_ = 0;
    }
    if (length_ > max_) {
      // Skip the body without keeping it; report once it has passed.
      auto take = std::min<std::size_t>(length_ - skipped_, bytes.size());
      skipped_ += take;
      bytes.remove_prefix(take);
      if (skipped_ < length_) return;
      incoming in;
      in.what = incoming::kind::too_large;
      in.length = length_;
      in.error = "message of " + std::to_string(length_) + " bytes exceeds the host's limit of " +
                 std::to_string(max_) + " bytes";
      ready_.push_back(std::move(in));
      have_header_ = false;
      continue;
    }
    auto take = std::min<std::size_t>(length_ - body_.size(), bytes.size());
    body_.append(bytes.substr(0, take));
    bytes.remove_prefix(take);
    if (body_.size() < length_) return;
    incoming in;
    in.length = length_;
    auto parsed = json::parse_object(body_, json::parse_limits{max_, 32});
    if (parsed) {
      in.message = std::move(*parsed);
    } else {
      in.what = incoming::kind::bad_json;
      in.error = "message is not a JSON object: " + parsed.err().message;
    }
    ready_.push_back(std::move(in));
    have_header_ = false;
    body_.clear();
  }
}

std::optional<incoming> frame_reader::next() {
  if (ready_.empty()) return std::nullopt;
  auto in = std::move(ready_.front());
  ready_.pop_front();
  return in;
}

}  // namespace opentabs::cli::native
