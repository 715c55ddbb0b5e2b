// Unpredictable identifiers: secrets, session ids, dispatch ids.  Backed by the OS CSPRNG
// (getrandom), never by a seeded PRNG, because session ids and secrets guard the browser.
#pragma once

#include <cstddef>
#include <string>

namespace opentabs {

// n random bytes as 2n lowercase hex characters.
std::string random_hex(std::size_t n_bytes);

// A random (version 4) UUID in canonical lowercase form.
std::string uuid_v4();

}  // namespace opentabs
