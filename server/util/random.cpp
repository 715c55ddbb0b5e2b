#include "util/random.hpp"

#include <sys/random.h>

#include <array>
#include <cerrno>
#include <cstdint>
#include <stdexcept>

namespace opentabs {
namespace {

void fill_random(unsigned char* out, std::size_t n) {
  while (n > 0) {
    ssize_t got = ::getrandom(out, n, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error("getrandom failed");
    }
    out += got;
    n -= static_cast<std::size_t>(got);
  }
}

constexpr char kHex[] = "0123456789abcdef";

}  // namespace

std::string random_hex(std::size_t n_bytes) {
  std::string bytes(n_bytes, '\0');
  fill_random(reinterpret_cast<unsigned char*>(bytes.data()), n_bytes);
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
  fill_random(b.data(), b.size());
  b[6] = static_cast<unsigned char>((b[6] & 0x0f) | 0x40);
  b[8] = static_cast<unsigned char>((b[8] & 0x3f) | 0x80);
  std::string out;
  out.reserve(36);
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out.push_back('-');
    out.push_back(kHex[b[i] >> 4]);
    out.push_back(kHex[b[i] & 0xf]);
  }
  return out;
}

}  // namespace opentabs
