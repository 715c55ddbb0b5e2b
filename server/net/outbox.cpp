#include "net/outbox.hpp"

#include <algorithm>
#include <utility>

namespace opentabs::net {

outbox::outbox(asio::any_io_executor ex, std::size_t capacity) : channel_(ex, capacity), drained_(ex) {}

bool outbox::push(out_bytes bytes) {
  if (closed_ || finishing_ || bytes.empty()) return false;
  const auto size = bytes.size();
  if (!channel_.try_send(asio::error_code{}, std::move(bytes))) {
    close();
    return false;
  }
  unwritten_bytes_ += size;
  return true;
}

awaitable<bool> outbox::push_wait(out_bytes bytes) {
  if (closed_ || finishing_ || bytes.empty()) co_return false;
  const auto size = bytes.size();
  unwritten_bytes_ += size;
  auto [ec] = co_await channel_.async_send(asio::error_code{}, std::move(bytes), as_value);
  if (ec) unwritten_bytes_ -= std::min(unwritten_bytes_, size);
  co_return !ec;
}

void outbox::finish() {
  if (closed_ || finishing_) return;
  finishing_ = true;
  // An empty string is the end marker; if the queue is full the writer is stuck behind a
  // slow peer and closing is the only way out.
  if (!channel_.try_send(asio::error_code{}, out_bytes())) close();
}

void outbox::close() {
  if (closed_) return;
  closed_ = true;
  channel_.close();
  drained_.notify_all();
}

void outbox::written(std::size_t n) {
  unwritten_bytes_ -= std::min(unwritten_bytes_, n);
  drained_.notify_all();
}

awaitable<void> outbox::wait_unwritten_at_most(std::size_t limit) {
  while (!closed_ && unwritten_bytes_ > limit) co_await drained_.wait();
}

awaitable<out_bytes> outbox::next() {
  if (closed_) co_return out_bytes();
  if (!carry_.empty()) co_return std::exchange(carry_, out_bytes());
  auto [ec, bytes] = co_await channel_.async_receive(as_value);
  if (ec) co_return out_bytes();
  co_return std::move(bytes);
}

bool outbox::take_ready(std::vector<out_bytes>& batch, std::size_t max_bytes, std::size_t max_items) {
  std::size_t bytes = 0;
  for (const auto& item : batch) bytes += item.size();
  bool more = true;
  while (more && !closed_ && carry_.empty() && bytes < max_bytes && batch.size() < max_items) {
    bool got = channel_.try_receive([&](asio::error_code ec, out_bytes item) {
      if (ec || item.empty()) {
        more = false;  // closed, or the end marker
      } else if (!batch.empty() && bytes + item.size() > max_bytes) {
        carry_ = std::move(item);
      } else {
        bytes += item.size();
        batch.push_back(std::move(item));
      }
    });
    if (!got) break;
  }
  // (The end marker is only read with nothing carried, so it never overtakes a carried item.)
  return more;
}

}  // namespace opentabs::net
