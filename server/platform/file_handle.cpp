#include "platform/file_handle.hpp"

namespace opentabs::platform {

file_handle& file_handle::operator=(file_handle&& other) noexcept {
  if (this != &other) {
    close();
    h_ = other.release();
  }
  return *this;
}

void file_handle::close() noexcept { close_handle(release()); }

}  // namespace opentabs::platform
