// outbox: the writer's view of the queue — batching of small items, large items passed on
// whole (not copied into a batch), the end marker after everything queued before it.
#include "net/outbox.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace opentabs;

namespace {

// Drains the outbox the way http_server's writer does and returns the writes it would make.
std::vector<std::string> drain(net::outbox& box, asio::io_context& io, std::size_t max_batch) {
  std::vector<std::string> writes;
  asio::co_spawn(
      io,
      [&]() -> net::awaitable<void> {
        bool open = true;
        while (open) {
          auto bytes = co_await box.next();
          if (bytes.empty()) break;
          open = box.take_ready(bytes, max_batch);
          writes.push_back(std::move(bytes));
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
