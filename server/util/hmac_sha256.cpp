#include "util/hmac_sha256.hpp"

#include "util/sha256.hpp"

namespace opentabs {

std::array<std::uint8_t, 32> hmac_sha256(std::string_view key, std::string_view message) {
  constexpr std::size_t kBlock = 64;
  std::array<std::uint8_t, kBlock> block{};
  if (key.size() > kBlock) {
    sha256 h;
    h.update(key);
    auto digest = h.finish();
    std::copy(digest.begin(), digest.end(), block.begin());
  } else {
    std::copy(key.begin(), key.end(), block.begin());
  }
  std::string inner_pad(kBlock, '\0');
  std::string outer_pad(kBlock, '\0');
  for (std::size_t i = 0; i < kBlock; ++i) {
    inner_pad[i] = static_cast<char>(block[i] ^ 0x36);
    outer_pad[i] = static_cast<char>(block[i] ^ 0x5c);
  }
  sha256 inner;
  inner.update(inner_pad);
  inner.update(message);
  auto inner_digest = inner.finish();
  sha256 outer;
  outer.update(outer_pad);
  outer.update(std::string_view(reinterpret_cast<const char*>(inner_digest.data()), inner_digest.size()));
  return outer.finish();
}

std::string hmac_sha256_hex(std::string_view key, std::string_view message) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(64);
  for (auto b : hmac_sha256(key, message)) {
    out += kDigits[b >> 4];
    out += kDigits[b & 0xf];
  }
  return out;
}

}  // namespace opentabs
