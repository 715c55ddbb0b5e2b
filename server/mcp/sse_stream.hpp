// A response stream of the MCP endpoint: a POST answered as SSE or the standalone GET
// stream.  The sink is what producers (progress reports, plugin logs, list_changed) write
// to; the handler that owns the HTTP exchange clears it before it returns (sink_guard), so
// a late producer finds a closed sink instead of a dangling exchange.  The standalone
// stream's keep-alive loop is the only coroutine here; a POST's keep-alive is a timer.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string_view>

#include "net/asio.hpp"
#include "net/deadline_set.hpp"
#include "net/event.hpp"
#include "net/http_exchange.hpp"

namespace opentabs::mcp {

struct stream_sink {
  net::http_exchange* ex = nullptr;
  std::unique_ptr<net::event> wake;  // standalone streams: notified by end_soon()
  bool ending = false;

  // One JSON-RPC message as an SSE event; false when the stream is closed or the write failed.
  bool send(std::string_view json_message);
  bool send_raw(std::string_view bytes);
  bool open() const { return ex && !ex->peer_gone(); }
  // Sends a deferred head now (see http_exchange::start_stream_deferred).
  void flush_head() {
    if (ex) ex->flush_head();
  }
  // Asks a standalone stream to end (a newer GET took over, or its session ended).
  void end_soon();
};

// Clears a sink when the handler that owns its exchange leaves, however it leaves.
struct sink_guard {
  std::shared_ptr<stream_sink> sink;
  ~sink_guard() {
    if (sink) sink->ex = nullptr;
  }
};

// The headers of every SSE response (built once, not per response).
const net::header_list& sse_headers();

// Holds a standalone stream open until `session_ended()` is true, end_soon() is called (the
// connection then closes after the stream ends), or a write fails (the peer is gone).  Quiet streams get a keep-alive comment each interval,
// which is also how a vanished peer is noticed: the connection's reader is not running
// while the handler owns the exchange (not http_exchange::wait_peer_closed: GCC 12,
// net/asio.hpp).
// `session_ended` is asked before every wait and after every wake-up.
net::awaitable<void> hold_standalone_stream(std::shared_ptr<stream_sink> sink, std::chrono::milliseconds interval,
                                            std::function<bool()> session_ended);

// Keeps a POST's SSE stream alive while its call runs, from construction to destruction:
// the stream's head (deferred by the handler) goes out after `head_delay` if no event has
// carried it yet, then a keep-alive comment each `interval`.  The deadlines live in the
// endpoint's deadline_set (one timer for every call, armed about once per head delay
// instead of once per call): a call answered within head_delay costs two stores, and the
// answer leaves with the head in one write.
class call_stream_keeper {
 public:
  // `on_peer_gone` (optional) runs once when a keep-alive write fails: a 2026-07-28
  // client cancels a call by closing its stream.
  call_stream_keeper(net::deadline_set& deadlines, std::shared_ptr<stream_sink> sink, std::chrono::milliseconds head_delay,
                     std::chrono::milliseconds interval, std::function<void()> on_peer_gone = {});
  call_stream_keeper(const call_stream_keeper&) = delete;
  call_stream_keeper& operator=(const call_stream_keeper&) = delete;

 private:
  void on_due();

  std::shared_ptr<stream_sink> sink_;
  std::chrono::milliseconds interval_;
  std::function<void()> on_peer_gone_;
  bool head_out_ = false;
  net::deadline_set::entry due_;  // last: unregistered before the rest goes
};

}  // namespace opentabs::mcp
