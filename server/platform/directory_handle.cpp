#include "platform/directory_handle.hpp"

#include <utility>

namespace opentabs::platform {

directory_handle::directory_handle(directory_handle&& other) noexcept
    : h_(std::exchange(other.h_, kNoHandle)), path_(std::move(other.path_)) {}

directory_handle& directory_handle::operator=(directory_handle&& other) noexcept {
  if (this != &other) {
    close_handle(std::exchange(h_, kNoHandle));
    h_ = std::exchange(other.h_, kNoHandle);
    path_ = std::move(other.path_);
  }
  return *this;
}

directory_handle::~directory_handle() { close_handle(h_); }

}  // namespace opentabs::platform
