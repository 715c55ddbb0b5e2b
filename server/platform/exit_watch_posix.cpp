#include <asio/experimental/as_tuple.hpp>
#include <asio/use_awaitable.hpp>

#include "platform/exit_watch.hpp"

namespace opentabs::platform {

bool exit_watch::watch(child& c) {
  auto h = c.take_exit_handle();
  if (h == kNoHandle) return false;
  asio::error_code ec;
  handle_.assign(static_cast<int>(h), ec);
  if (ec) close_handle(h);
  return !ec;
}

asio::awaitable<std::error_code> exit_watch::wait() {
  auto [ec] = co_await handle_.async_wait(asio::posix::descriptor_base::wait_read,
                                          asio::experimental::as_tuple(asio::use_awaitable));
  co_return ec;
}

void exit_watch::cancel() noexcept {
  asio::error_code ignored;
  handle_.cancel(ignored);
}

void exit_watch::close() noexcept {
  asio::error_code ignored;
  handle_.close(ignored);
}

}  // namespace opentabs::platform
