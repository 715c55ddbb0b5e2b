#include "platform/child_process.hpp"

namespace opentabs::platform {

child::child(child&& other) noexcept
    : pid_(std::exchange(other.pid_, -1)),
      process_(std::exchange(other.process_, kNoHandle)),
      job_(std::exchange(other.job_, kNoHandle)),
      out_(std::exchange(other.out_, kNoHandle)),
      err_(std::exchange(other.err_, kNoHandle)),
      reaped_(other.reaped_),
      status_(other.status_) {}

child& child::operator=(child&& other) noexcept {
  if (this != &other) {
    close_all();
    pid_ = std::exchange(other.pid_, -1);
    process_ = std::exchange(other.process_, kNoHandle);
    job_ = std::exchange(other.job_, kNoHandle);
    out_ = std::exchange(other.out_, kNoHandle);
    err_ = std::exchange(other.err_, kNoHandle);
    reaped_ = other.reaped_;
    status_ = other.status_;
  }
  return *this;
}

child::~child() { close_all(); }

void child::close_all() noexcept {
  close_handle(std::exchange(out_, kNoHandle));
  close_handle(std::exchange(err_, kNoHandle));
  close_handle(std::exchange(process_, kNoHandle));
  close_handle(std::exchange(job_, kNoHandle));
}

}  // namespace opentabs::platform
