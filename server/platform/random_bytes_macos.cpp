#include <stdlib.h>

#include "platform/random_bytes.hpp"

namespace opentabs::platform {

// arc4random_buf never fails: the kernel's generator seeds it.
void fill_random(unsigned char* out, std::size_t n) { ::arc4random_buf(out, n); }

}  // namespace opentabs::platform
