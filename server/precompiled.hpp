// The precompiled header of the server modules, the bridge and the CLI (CMake
// target_precompile_headers): standalone Asio (≈2 s of parsing per translation unit) and
// Boost.JSON (≈1 s), which most of them include through net/asio.hpp and json/json.hpp,
// plus the standard headers nearly every file uses.  Only for build speed: every file still
// includes what it uses, so the tree builds the same without it.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "json/json.hpp"
#include "net/asio.hpp"
