// The workers are an asio::thread_pool; the bounded calls run on threads of their own
// (util/bounded_calls.hpp).  See blocking_pool.hpp.
#include "net/blocking_pool.hpp"

namespace opentabs::net {

blocking_pool::blocking_pool(asio::any_io_executor io, std::size_t threads, std::size_t max_stuck)
    : io_(std::move(io)), workers_(threads), bounded_(max_stuck) {}

blocking_pool::~blocking_pool() {
  // Before bounded_ goes: a worker still running discovery calls into it.
  workers_.stop();
  workers_.join();
}

}  // namespace opentabs::net
