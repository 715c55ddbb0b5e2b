// outbox: the writer's view of the queue — batching of small items, large items passed on
// whole (not copied into a batch), the end marker after everything queued before it.
#include "net/outbox.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace opentabs;

namespace {

// Drains the outbox the way http_server's writer does and returns the writes it would make
// (each gathered write's buffers joined).
std::vector<std::string> drain(net::outbox& box, asio::io_context& io, std::size_t max_batch,
                               std::size_t max_items = 64) {
  std::vector<std::string> writes;
  asio::co_spawn(
      io,
      [&]() -> net::awaitable<void> {
        bool open = true;
        std::vector<net::out_bytes> batch;
        while (open) {
          auto first = co_await box.next();
          if (first.empty()) break;
          batch.clear();
          batch.push_back(std::move(first));
          open = box.take_ready(batch, max_batch, max_items);
          std::string write;  // what one gathered write puts on the wire
          for (const auto& item : batch) write += item.view();
          writes.push_back(std::move(write));
        }
      },
      asio::detached);
  io.run();
  return writes;
}

}  // namespace

TEST_CASE("small items queued together go out as one write") {
  asio::io_context io;
  net::outbox box(io.get_executor(), 16);
  REQUIRE(box.push("a"));
  REQUIRE(box.push("bb"));
  REQUIRE(box.push("ccc"));
  box.finish();
  CHECK(drain(box, io, 1024) == std::vector<std::string>{"abbccc"});
}

TEST_CASE("an item that would overflow the batch is written on its own, whole, and the end comes after it") {
  asio::io_context io;
  net::outbox box(io.get_executor(), 16);
  const std::string big(5000, 'x');
  REQUIRE(box.push("head;"));
  REQUIRE(box.push(big));
  REQUIRE(box.push("tail"));
  box.finish();
  // Not "head;" + big in one buffer: the big item goes out as it is, then what followed it.
  CHECK(drain(box, io, 1024) == std::vector<std::string>{"head;", big, "tail"});
}

TEST_CASE("a large first item is not held back") {
  asio::io_context io;
  net::outbox box(io.get_executor(), 16);
  const std::string big(5000, 'y');
  REQUIRE(box.push(big));
  REQUIRE(box.push("z"));
  box.finish();
  CHECK(drain(box, io, 1024) == std::vector<std::string>{big, "z"});
}

TEST_CASE("a gathered write keeps every item's bytes in order, and at most max_items items") {
  asio::io_context io;
  net::outbox box(io.get_executor(), 256);
  std::string all;
  for (int i = 0; i < 150; ++i) {
    auto item = std::to_string(i) + (i % 7 == 0 ? std::string(100, 'x') : std::string(",")) ;
    all += item;
    REQUIRE(box.push(item));
  }
  box.finish();
  auto writes = drain(box, io, 1 << 20, 64);
  // 150 items: 64 + 64 + 22, nothing lost, nothing reordered.
  REQUIRE(writes.size() == 3);
  std::string joined;
  for (const auto& w : writes) joined += w;
  CHECK(joined == all);
  std::string first;
  for (int i = 0; i < 64; ++i) first += std::to_string(i) + (i % 7 == 0 ? std::string(100, 'x') : std::string(","));
  CHECK(writes[0] == first);
}

TEST_CASE("a shared buffer is queued as it is, between owned items, and outlives its owner") {
  asio::io_context io;
  net::outbox box(io.get_executor(), 16);
  auto listing = std::make_shared<const std::string>(3000, 'L');
  const auto* bytes = listing->data();
  net::out_bytes shared(listing);
  CHECK(shared.view().data() == bytes);  // not a copy
  REQUIRE(box.push("head;"));
  REQUIRE(box.push(std::move(shared)));
  REQUIRE(box.push("}"));
  listing.reset();  // the catalog moved on to a new generation: the queued one stays valid
  box.finish();
  CHECK(drain(box, io, 1 << 20) == std::vector<std::string>{"head;" + std::string(3000, 'L') + "}"});
}
