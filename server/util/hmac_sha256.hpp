// HMAC-SHA256 (RFC 2104), the MAC of the peer proofs (util/peer_proof.hpp): the server and
// the clients we ship prove to each other that they know the shared secret without sending it.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace opentabs {

std::array<std::uint8_t, 32> hmac_sha256(std::string_view key, std::string_view message);

// Lowercase hex of hmac_sha256(key, message).
std::string hmac_sha256_hex(std::string_view key, std::string_view message);

}  // namespace opentabs
