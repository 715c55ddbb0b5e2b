// The translation unit that builds server/precompiled.hpp once for every module (CMake
// reuses it with REUSE_FROM); it has no code of its own.
#include "precompiled.hpp"
