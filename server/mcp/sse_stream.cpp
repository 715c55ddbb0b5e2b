// SSE response streams of the MCP endpoint (see sse_stream.hpp).
#include "mcp/sse_stream.hpp"

#include "mcp/streamable_http.hpp"

namespace opentabs::mcp {

bool stream_sink::send(std::string_view json_message) { return ex && ex->send_chunk(sse_message_event(json_message)); }

bool stream_sink::send_raw(std::string_view bytes) { return ex && ex->send_chunk(bytes); }

void stream_sink::end_soon() {
  ending = true;
  if (wake) wake->cancel();
}

net::header_list sse_headers() {
  return {{"Content-Type", "text/event-stream"}, {"Cache-Control", "no-cache"}, {"X-Accel-Buffering", "no"}};
}

net::awaitable<void> hold_standalone_stream(std::shared_ptr<stream_sink> sink, std::chrono::milliseconds interval,
                                            std::function<bool()> session_ended) {
  // Loops leave with break, never co_return: GCC 12 mis-compiles some co_returns and
  // negated co_awaits inside loops (observed as resumed-after-completion crashes).
  while (!session_ended() && !sink->ending) {
    sink->wake->expires_after(interval);
    auto [ec] = co_await sink->wake->async_wait(net::as_value);
    if (ec || session_ended() || sink->ending) break;
    bool sent = sink->send_raw(sse_keepalive_comment());
    if (!sent) break;
  }
}

net::awaitable<void> keep_call_stream_alive(std::shared_ptr<stream_sink> sink, std::chrono::milliseconds interval) {
  asio::steady_timer timer(co_await asio::this_coro::executor);
  while (true) {
    timer.expires_after(interval);
    auto [ec] = co_await timer.async_wait(net::as_value);
    if (ec) break;
    sink->send_raw(sse_keepalive_comment());
  }
}

}  // namespace opentabs::mcp
