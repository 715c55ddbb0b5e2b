#include "util/background_sync.hpp"

#include "platform/durable_file.hpp"
#include "util/log.hpp"

namespace opentabs {

result<std::unique_ptr<background_sync>> background_sync::open(const std::filesystem::path& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec))
    return make_error(errc::io, "cannot open " + dir.string() + ": " +
                                (ec ? ec.message() : std::make_error_code(std::errc::not_a_directory).message()));
  return std::unique_ptr<background_sync>(new background_sync(dir));
}

background_sync::~background_sync() {
  {
    std::unique_lock lock(mu_);
    // What was requested is still flushed: durability is the point of the request.
    cv_.wait(lock, [&] { return served_ == requested_ || !thread_.joinable(); });
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void background_sync::request() {
  {
    std::lock_guard lock(mu_);
    ++requested_;
    if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
  }
  cv_.notify_all();
}

void background_sync::wait() {
  std::unique_lock lock(mu_);
  auto target = requested_;
  cv_.wait(lock, [&] { return served_ >= target; });
}

std::uint64_t background_sync::completed() const {
  std::lock_guard lock(mu_);
  return completed_;
}

std::string background_sync::last_error() const {
  std::lock_guard lock(mu_);
  return last_error_;
}

void background_sync::run() {
  std::unique_lock lock(mu_);
  while (true) {
    cv_.wait(lock, [&] { return stopping_ || requested_ > served_; });
    if (requested_ == served_ && stopping_) return;
    started_ = requested_;
    lock.unlock();
    const std::error_code err = platform::flush_filesystem(dir_);
    lock.lock();
    served_ = started_;
    ++completed_;
    if (err) {
      last_error_ = "cannot sync " + dir_.string() + ": " + err.message();
      log::warn(last_error_);
    }
    cv_.notify_all();
  }
}

}  // namespace opentabs
