// The queue in front of one socket.  Exactly one writer coroutine drains it; everyone else
// (request handlers, SSE producers, the extension hub) only pushes.  Bounded: a peer that
// stops reading cannot make the server buffer without limit — pushes then fail and the
// connection is closed.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "net/asio.hpp"
#include "net/event.hpp"

namespace opentabs::net {

// Bytes queued for a socket: owned, or a shared read-only buffer — a cached body of
// megabytes (tools/list) goes to each client without a copy per response.
class out_bytes {
 public:
  out_bytes() = default;
  // Implicit: an owned string is the usual item.
  out_bytes(std::string bytes) : owned_(std::move(bytes)) {}  // NOLINT(google-explicit-constructor)
  out_bytes(const char* bytes) : owned_(bytes) {}             // NOLINT(google-explicit-constructor)
  explicit out_bytes(std::shared_ptr<const std::string> bytes) : shared_(std::move(bytes)) {}

  std::string_view view() const { return shared_ ? std::string_view(*shared_) : std::string_view(owned_); }
  std::size_t size() const { return view().size(); }
  bool empty() const { return size() == 0; }

 private:
  std::string owned_;
  std::shared_ptr<const std::string> shared_;
};

class outbox {
 public:
  outbox(asio::any_io_executor ex, std::size_t capacity);

  // Queues bytes without waiting.  False when the queue is full or closed; a full queue
  // closes the outbox (the peer is too slow) so later pushes fail too.
  bool push(out_bytes bytes);
  // Queues bytes, waiting for room.  False when closed.
  awaitable<bool> push_wait(out_bytes bytes);
  // Asks the writer to finish after everything queued so far has been written.
  void finish();
  // Closes at once: the writer stops, queued bytes are dropped.
  void close();
  bool closed() const { return closed_; }

  // Writer side: the next bytes, or empty when the writer should stop.
  awaitable<out_bytes> next();
  // Writer side: `n` bytes of what next()/take_ready() gave reached the socket.
  void written(std::size_t n);
  // Waits until at most `limit` bytes are unwritten, or the outbox is closed.
  awaitable<void> wait_unwritten_at_most(std::size_t limit);
  // Writer side, without waiting: moves what is already queued onto the end of `batch`
  // (up to `max_bytes` and `max_items` in all) so it can go out in one gathered write,
  // without copying the items into one string.  An item that would take the batch past
  // `max_bytes` stays behind and is returned whole by the next next().  Returns false once
  // the end marker was taken.
  bool take_ready(std::vector<out_bytes>& batch, std::size_t max_bytes, std::size_t max_items);

 private:
  asio::experimental::channel<void(asio::error_code, out_bytes)> channel_;
  bool closed_ = false;
  bool finishing_ = false;
  out_bytes carry_;  // a large item take_ready left for the next write
  std::size_t unwritten_bytes_ = 0;
  event drained_;  // written() and close() notify it
};

}  // namespace opentabs::net
