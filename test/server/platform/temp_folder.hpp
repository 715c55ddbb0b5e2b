// A fresh folder under the system temp folder for one test, removed afterwards.
#pragma once

#include <filesystem>
#include <string>

#include "platform/process_identity.hpp"
#include "platform/random_bytes.hpp"

namespace opentabs::platform::testing {

struct temp_folder {
  std::filesystem::path path;
  temp_folder() {
    unsigned char b[4];
    fill_random(b, sizeof b);
    path = std::filesystem::temp_directory_path() /
           ("ot-platform-" + std::to_string(current_process_id()) + "-" + std::to_string(b[0] | b[1] << 8 | b[2] << 16));
    std::filesystem::create_directories(path);
  }
  ~temp_folder() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  temp_folder(const temp_folder&) = delete;
  temp_folder& operator=(const temp_folder&) = delete;
};

}  // namespace opentabs::platform::testing
