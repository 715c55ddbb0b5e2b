// SHA-256 (FIPS 180-4): content-hashed adapter file names (spec §2: `<plugin>-<hash8>.js`,
// hash8 = first 8 hex digits of the SHA-256 of the adapter IIFE), pre-script hashes, and the
// HMAC of the peer proofs (util/hmac_sha256.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace opentabs {

class sha256 {
 public:
  sha256();
  void update(std::string_view data);
  std::array<std::uint8_t, 32> finish();

 private:
  void block(const std::uint8_t* p);
  std::array<std::uint32_t, 8> h_;
  std::array<std::uint8_t, 64> buf_{};
  std::size_t buf_len_ = 0;
  std::uint64_t total_ = 0;
};

// Lowercase hex digest of `data`.
std::string sha256_hex(std::string_view data);

}  // namespace opentabs
