#include <windows.h>
#include <bcrypt.h>

#include <stdexcept>

#include "platform/random_bytes.hpp"

namespace opentabs::platform {

void fill_random(unsigned char* out, std::size_t n) {
  while (n > 0) {
    ULONG chunk = n > 0x10000000 ? 0x10000000 : static_cast<ULONG>(n);
    if (::BCryptGenRandom(nullptr, out, chunk, BCRYPT_USE_SYSTEM_PREFERRED_RNG) != 0)
      throw std::runtime_error("BCryptGenRandom failed");
    out += chunk;
    n -= chunk;
  }
}

}  // namespace opentabs::platform
