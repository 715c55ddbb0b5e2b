// libFuzzer target: config.json loading — parse_config_text (size limit, JSON, object check),
// the schema migrations a v1/v2 file goes through, and config_from_object's lenient typed
// view, which must drop bad values with warnings rather than fail.  The result is written
// back with format_config_text and must load again.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "config/config.hpp"
#include "config/config_migrations.hpp"
#include "nonfinite.hpp"

namespace config = opentabs::config;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const config::fs::path path = "/fuzz/config.json";
  const config::fs::path home = "/fuzz-home";
  auto root = config::parse_config_text(text, path);
  if (!root) {
    if (root.err().message.empty()) __builtin_trap();
    return 0;
  }
  (void)config::migrate(*root, home, path);
  std::vector<std::string> warnings;
  (void)config::config_from_object(*root, path, warnings);
  if (opentabs::fuzz::has_non_finite(*root)) return 0;  // see nonfinite.hpp
  const std::string written = config::format_config_text(*root);
  auto reread = config::parse_config_text(written, path);
  if (!reread && written.size() <= config::kMaxConfigBytes) __builtin_trap();
  return 0;
}
