#include "platform/temp_name.hpp"

#include <array>
#include <string>

#include "platform/process_identity.hpp"
#include "platform/random_bytes.hpp"

namespace opentabs::platform {

std::filesystem::path temp_name_beside(const std::filesystem::path& path) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::array<unsigned char, 4> bytes{};
  fill_random(bytes.data(), bytes.size());
  std::string suffix = ".tmp." + std::to_string(current_process_id()) + ".";
  for (unsigned char b : bytes) {
    suffix.push_back(kHex[b >> 4]);
    suffix.push_back(kHex[b & 0xf]);
  }
  auto tmp = path;
  tmp += suffix;
  return tmp;
}

}  // namespace opentabs::platform
