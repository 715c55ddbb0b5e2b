// The queue in front of one socket.  Exactly one writer coroutine drains it; everyone else
// (request handlers, SSE producers, the extension hub) only pushes.  Bounded: a peer that
// stops reading cannot make the server buffer without limit — pushes then fail and the
// connection is closed.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "net/asio.hpp"

namespace opentabs::net {

class outbox {
 public:
  outbox(asio::any_io_executor ex, std::size_t capacity);

  // Queues bytes without waiting.  False when the queue is full or closed; a full queue
  // closes the outbox (the peer is too slow) so later pushes fail too.
  bool push(std::string bytes);
  // Queues bytes, waiting for room.  False when closed.
  awaitable<bool> push_wait(std::string bytes);
  // Asks the writer to finish after everything queued so far has been written.
  void finish();
  // Closes at once: the writer stops, queued bytes are dropped.
  void close();
  bool closed() const { return closed_; }

  // Writer side: the next bytes, or empty when the writer should stop.
  awaitable<std::string> next();
  // Writer side, without waiting: moves what is already queued onto the end of `batch`
  // (up to `max_bytes` and `max_items` in all) so it can go out in one gathered write,
  // without copying the items into one string.  An item that would take the batch past
  // `max_bytes` stays behind and is returned whole by the next next().  Returns false once
  // the end marker was taken.
  bool take_ready(std::vector<std::string>& batch, std::size_t max_bytes, std::size_t max_items);

 private:
  asio::experimental::channel<void(asio::error_code, std::string)> channel_;
  bool closed_ = false;
  bool finishing_ = false;
  std::string carry_;  // a large item take_ready left for the next write
};

}  // namespace opentabs::net
