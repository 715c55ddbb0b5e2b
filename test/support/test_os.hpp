// Test helper: the few OS calls unit tests make themselves (set or clear an environment
// variable, make a private scratch directory, ask whether permission bits bind this
// process), spelled once for POSIX and Windows so that the suites build for both.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>

#if defined(_WIN32)
#include <windows.h>
#else
#include <unistd.h>
#endif

namespace opentabs::testing {

inline void set_env(const char* name, const std::string& value) {
#if defined(_WIN32)
  ::_putenv_s(name, value.c_str());  // an empty value removes the variable on Windows
#else
  ::setenv(name, value.c_str(), 1);
#endif
}

inline void unset_env(const char* name) {
#if defined(_WIN32)
  ::_putenv_s(name, "");
#else
  ::unsetenv(name);
#endif
}

// A new directory "<temp>/<prefix>-<random hex>" (created here, so no other test owns it).
inline std::filesystem::path make_temp_dir(std::string_view prefix) {
  std::random_device random;
  const auto base = std::filesystem::temp_directory_path();
  for (int attempt = 0; attempt < 100; ++attempt) {
    char suffix[17];
    std::snprintf(suffix, sizeof suffix, "%08x%08x", random(), random());
    auto dir = base / (std::string(prefix) + "-" + suffix);
    std::error_code ec;
    if (std::filesystem::create_directory(dir, ec)) return dir;
  }
  throw std::runtime_error("could not create a scratch directory in " + base.string());
}

#if defined(_WIN32)
inline constexpr bool on_windows = true;
#else
inline constexpr bool on_windows = false;
#endif

// Whether files have POSIX permission bits (on Windows std::filesystem reports them from the
// read-only attribute alone, so a mode the product sets cannot be read back).
inline constexpr bool has_posix_modes = !on_windows;

// Whether this Windows program runs under Wine (its ntdll exports wine_get_version), for the
// few cases whose Windows answer Wine does not give (each says which at its skip).
inline bool under_wine() {
#if defined(_WIN32)
  HMODULE ntdll = ::GetModuleHandleA("ntdll.dll");
  return ntdll && ::GetProcAddress(ntdll, "wine_get_version");
#else
  return false;
#endif
}

// Whether POSIX permission bits stop this process: not for root, and Windows has none
// (std::filesystem::permissions maps only the owner-write bit to the read-only attribute).
inline bool permission_bits_bind() {
#if defined(_WIN32)
  return false;
#else
  return ::geteuid() != 0;
#endif
}

}  // namespace opentabs::testing

// A check of a file's POSIX mode, made only where files have one.
#define CHECK_POSIX_MODE(...)                                           \
  do {                                                                  \
    if (opentabs::testing::has_posix_modes) CHECK(__VA_ARGS__);         \
  } while (false)
