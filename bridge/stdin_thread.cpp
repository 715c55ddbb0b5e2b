#include "bridge/stdin_thread.hpp"

#include <thread>
#include <utility>

#include "platform/standard_streams.hpp"

namespace opentabs::bridge {

net::awaitable<std::string> read_stdin_on_thread(std::size_t max) {
  auto ex = co_await asio::this_coro::executor;
  co_return co_await asio::async_initiate<const asio::use_awaitable_t<>&, void(std::string)>(
      [ex, max](auto handler) {
        std::thread([ex, max, handler = std::move(handler)]() mutable {
          std::string chunk(max, '\0');
          const auto got = platform::read_stdin(chunk.data(), chunk.size());
          chunk.resize(got > 0 ? static_cast<std::size_t>(got) : 0);
          // The coroutine resumes on its own executor, never on this thread.
          asio::post(ex, [handler = std::move(handler), chunk = std::move(chunk)]() mutable {
            std::move(handler)(std::move(chunk));
          });
        }).detach();
      },
      asio::use_awaitable);
}

}  // namespace opentabs::bridge
