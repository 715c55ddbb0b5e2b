#include <sys/random.h>

#include <cerrno>
#include <stdexcept>

#include "platform/random_bytes.hpp"

namespace opentabs::platform {

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

}  // namespace opentabs::platform
