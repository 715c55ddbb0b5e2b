// One child coroutine of a connection: started beside its parent and awaited by it before the
// state both share goes away.  Used instead of Asio 1.22's `&&`/`||` awaitable operators for
// the per-connection tree: their parallel group hands each branch a chain of cancellation
// slots, and under descriptor exhaustion a branch's pending socket read completed into a slot
// whose memory had already been recycled for another connection (UBSan: invalid vptr in
// cancellation_slot::clear, reproduced with 120 idle sockets against `ulimit -n 64`).  A child
// here has no cancellation slot at all: it is ended the way the connection ends everything,
// by closing what it waits on (the socket, the outbox, the watchdog).
#pragma once

#include <exception>
#include <string>

#include "net/asio.hpp"

namespace opentabs::net {

class child_task {
 public:
  // `what` names the child in the one log line written if it ever throws.
  child_task(asio::any_io_executor ex, std::string what);
  child_task(const child_task&) = delete;
  child_task& operator=(const child_task&) = delete;

  // Starts `op` on the executor.  Call at most once.
  void start(awaitable<void> op);
  // Returns once the child has finished (at once if it already has, or never started).
  // The parent must await this before destroying anything the child uses.
  awaitable<void> join();
  bool finished() const { return finished_; }

 private:
  asio::any_io_executor ex_;
  std::string what_;
  asio::steady_timer finished_signal_;
  bool started_ = false;
  bool finished_ = false;
};

}  // namespace opentabs::net
