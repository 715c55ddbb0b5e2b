#include "util/random.hpp"

#include <array>
#include <cstdint>
#include <cstring>

#include "platform/random_bytes.hpp"

namespace opentabs {
namespace {

// Small requests (a dispatch id per tool call, session ids) are served from a per-thread
// block of the OS random source's output, refilled 512 bytes at a time: one call into the
// OS per ~30 ids instead of one each.  The bytes are still the OS CSPRNG's, never expanded by a PRNG; each is
// handed out once and wiped as it is taken.  (Child processes exec at once, so a forked
// copy of the block is never used.)
void take_random(unsigned char* out, std::size_t n) {
  constexpr std::size_t kBlock = 512;
  if (n > kBlock / 8) {
    platform::fill_random(out, n);
    return;
  }
  struct block {
    std::array<unsigned char, kBlock> bytes{};
    std::size_t used = kBlock;  // empty until first use
  };
  thread_local block b;
  if (kBlock - b.used < n) {
    platform::fill_random(b.bytes.data(), kBlock);
    b.used = 0;
  }
  std::memcpy(out, b.bytes.data() + b.used, n);
  std::memset(b.bytes.data() + b.used, 0, n);
  b.used += n;
}

constexpr char kHex[] = "0123456789abcdef";

}  // namespace

std::string random_hex(std::size_t n_bytes) {
  std::string bytes(n_bytes, '\0');
  take_random(reinterpret_cast<unsigned char*>(bytes.data()), n_bytes);
  std::string out;
  out.reserve(n_bytes * 2);
  for (unsigned char b : bytes) {
    out.push_back(kHex[b >> 4]);
    out.push_back(kHex[b & 0xf]);
  }
  return out;
}

std::string uuid_v4() {
  std::array<unsigned char, 16> b{};
  take_random(b.data(), b.size());
  b[6] = static_cast<unsigned char>((b[6] & 0x0f) | 0x40);
  b[8] = static_cast<unsigned char>((b[8] & 0x3f) | 0x80);
  std::string out(36, '-');
  char* p = out.data();
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) ++p;  // over a '-'
    *p++ = kHex[b[i] >> 4];
    *p++ = kHex[b[i] & 0xf];
  }
  return out;
}

}  // namespace opentabs
