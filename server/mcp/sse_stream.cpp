// SSE response streams of the MCP endpoint (see sse_stream.hpp).
#include "mcp/sse_stream.hpp"

#include <algorithm>

#include "mcp/streamable_http.hpp"

namespace opentabs::mcp {

bool stream_sink::send(std::string_view json_message) { return ex && ex->send_chunk(sse_message_event(json_message)); }

bool stream_sink::send_raw(std::string_view bytes) { return ex && ex->send_chunk(bytes); }

void stream_sink::end_soon() {
  ending = true;
  if (wake) wake->cancel();
}

const net::header_list& sse_headers() {
  static const net::header_list headers{
      {"Content-Type", "text/event-stream"}, {"Cache-Control", "no-cache"}, {"X-Accel-Buffering", "no"}};
  return headers;
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

struct call_stream_keeper::state {
  state(asio::any_io_executor ex, std::shared_ptr<stream_sink> s, std::chrono::milliseconds i)
      : timer(std::move(ex)), sink(std::move(s)), interval(i) {}
  asio::steady_timer timer;
  std::shared_ptr<stream_sink> sink;
  std::chrono::milliseconds interval;
  bool head_out = false;
};

namespace {

void keep_alive_after(const std::shared_ptr<call_stream_keeper::state>& st, std::chrono::milliseconds delay);

void on_keepalive_timer(const std::shared_ptr<call_stream_keeper::state>& st, const asio::error_code& ec) {
  if (ec) return;  // the call ended (the keeper cancelled the wait)
  if (!st->head_out) {
    st->head_out = true;
    st->sink->flush_head();
    keep_alive_after(st, st->interval);
    return;
  }
  // A failed write means the peer is gone; the call still runs to its end (and is audited).
  if (st->sink->send_raw(sse_keepalive_comment())) keep_alive_after(st, st->interval);
}

void keep_alive_after(const std::shared_ptr<call_stream_keeper::state>& st, std::chrono::milliseconds delay) {
  st->timer.expires_after(delay);
  st->timer.async_wait([st](const asio::error_code& ec) { on_keepalive_timer(st, ec); });
}

}  // namespace

call_stream_keeper::call_stream_keeper(asio::any_io_executor ex, std::shared_ptr<stream_sink> sink,
                                       std::chrono::milliseconds head_delay, std::chrono::milliseconds interval)
    : state_(std::make_shared<state>(std::move(ex), std::move(sink), interval)) {
  keep_alive_after(state_, std::min(head_delay, interval));
}

call_stream_keeper::~call_stream_keeper() { state_->timer.cancel(); }

}  // namespace opentabs::mcp
