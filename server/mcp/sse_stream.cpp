// SSE response streams of the MCP endpoint (see sse_stream.hpp).
#include "mcp/sse_stream.hpp"

#include <algorithm>

#include "mcp/streamable_http.hpp"

namespace opentabs::mcp {

bool stream_sink::send(std::string_view json_message) { return ex && ex->send_chunk(sse_message_event(json_message)); }

bool stream_sink::send_raw(std::string_view bytes) { return ex && ex->send_chunk(bytes); }

void stream_sink::end_soon() {
  ending = true;
  if (wake) wake->notify_all();
}

const net::header_list& sse_headers() {
  static const net::header_list headers{
      {"Content-Type", "text/event-stream"}, {"Cache-Control", "no-cache"}, {"X-Accel-Buffering", "no"}};
  return headers;
}

net::awaitable<void> hold_standalone_stream(std::shared_ptr<stream_sink> sink, std::chrono::milliseconds interval,
                                            std::function<bool()> session_ended) {
  // Loops leave with break, never co_return (GCC 12: net/asio.hpp).
  while (!session_ended() && !sink->ending) {
    const bool woken = co_await sink->wake->wait_until(net::steady_clock::now() + interval);
    if (woken || session_ended() || sink->ending) break;
    bool sent = sink->send_raw(sse_keepalive_comment());
    if (!sent) break;
  }
  // A stream a newer GET replaced is over for good: its connection closes when the handler
  // ends the stream, so a client still holding it sees the end, not a quiet open connection.
  if (sink->ending && sink->ex) sink->ex->close_after();
}

call_stream_keeper::call_stream_keeper(net::deadline_set& deadlines, std::shared_ptr<stream_sink> sink,
                                       std::chrono::milliseconds head_delay, std::chrono::milliseconds interval,
                                       std::function<void()> on_peer_gone)
    : sink_(std::move(sink)), interval_(interval), on_peer_gone_(std::move(on_peer_gone)), due_(deadlines, [this] { on_due(); }) {
  due_.expire_at(net::steady_clock::now() + std::min(head_delay, interval));
}

void call_stream_keeper::on_due() {
  if (!head_out_) {
    head_out_ = true;
    sink_->flush_head();
    due_.expire_at(net::steady_clock::now() + interval_);
    return;
  }
  // A failed write means the peer is gone; unless on_peer_gone cancels it, the call still
  // runs to its end (and is audited).
  if (sink_->send_raw(sse_keepalive_comment())) {
    due_.expire_at(net::steady_clock::now() + interval_);
  } else if (auto gone = std::move(on_peer_gone_)) {
    on_peer_gone_ = nullptr;
    gone();
  }
}

}  // namespace opentabs::mcp
