// Who holds the server's connection slots, and who gives one up when they run out.  Every
// accepted socket starts unauthenticated; it becomes authenticated once
// one of its requests shows the secret (bearer token, or the /ws subprotocol).  The
// unauthenticated ones may hold at most capacity - reserved slots, so any local process
// opening idle sockets cannot lock out the extension or an MCP client: when the
// unauthenticated share (or the whole table) is full, the oldest idle unauthenticated
// connection is closed to make room for the new socket.  Authenticated connections, and
// connections inside a request handler, are never chosen.  Plain bookkeeping: closing is
// the callback each connection registers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>

namespace opentabs::net {

class connection_slots {
 public:
  using id = std::uint64_t;

  // `reserved` is clamped so that at least one slot stays open to unauthenticated sockets
  // (every connection starts as one).
  connection_slots(std::size_t capacity, std::size_t reserved);

  // A socket was just accepted.  Returns its slot, making room first if needed by evicting
  // (calling `close` of, and freeing the slot of) the oldest idle unauthenticated
  // connection; nullopt when no slot can be had (the caller closes the socket).
  std::optional<id> admit(std::function<void()> close);
  // The connection ended (a no-op for one already evicted).
  void release(id slot);
  void mark_authenticated(id slot);
  // Inside a request handler (not idle): not evicted meanwhile.
  void set_busy(id slot, bool busy);
  // Frees the slot of the oldest idle unauthenticated connection (closing it).  False when
  // there is none.
  bool evict_oldest_idle_unauthenticated();
  // Calls every connection's close callback (server shutdown); slots are released later
  // by their connections.
  void close_all();

  std::size_t size() const { return slots_.size(); }
  std::size_t unauthenticated() const { return unauthenticated_; }
  std::size_t capacity() const { return capacity_; }
  std::size_t unauthenticated_capacity() const { return unauthenticated_capacity_; }
  bool holds(id slot) const { return slots_.count(slot) != 0; }
  bool is_authenticated(id slot) const;

 private:
  struct slot_state {
    std::function<void()> close;
    bool authenticated = false;
    bool busy = false;
  };

  std::size_t capacity_;
  std::size_t unauthenticated_capacity_;
  std::size_t unauthenticated_ = 0;
  std::map<id, slot_state> slots_;  // ordered by id = accept order: oldest first
  id next_ = 1;
};

}  // namespace opentabs::net
