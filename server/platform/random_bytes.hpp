// Bytes from the OS's cryptographic random source (Linux getrandom, macOS arc4random_buf,
// Windows BCryptGenRandom): secrets, session ids and temp-file names come from here.
#pragma once

#include <cstddef>

namespace opentabs::platform {

// Fills `out` with `n` random bytes; throws std::runtime_error if the OS refuses (that is a
// broken system, not an expected outcome).
void fill_random(unsigned char* out, std::size_t n);

}  // namespace opentabs::platform
