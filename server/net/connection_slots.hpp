// Who holds the server's connection slots, and who gives one up when they run out.  Every
// accepted socket starts unauthenticated; it becomes authenticated once
// one of its requests shows the secret (bearer token, or the /ws subprotocol).  The
// unauthenticated ones may hold at most capacity - reserved slots, so any local process
// opening idle sockets cannot lock out the extension or an MCP client: when the
// unauthenticated share (or the whole table) is full, the oldest idle unauthenticated
// connection is closed to make room for the new socket; when the whole table is full of
// authenticated ones, the oldest idle connection of the caller holding the most.
// Connections inside a request handler are never chosen.  Each caller (the identity its
// credential gives, peer_proof::caller_identity) may have at most `per_caller` connections
// inside requests at once (held streams, calls): the next request is refused unless one of
// them belongs to a client that has gone, so one client's streams cannot take the slots the
// extension, /health and other clients need.  Plain bookkeeping: closing is the callback
// each connection registers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

namespace opentabs::net {

class connection_slots {
 public:
  using id = std::uint64_t;

  // `reserved` is clamped so that at least one slot stays open to unauthenticated sockets
  // (every connection starts as one).
  connection_slots(std::size_t capacity, std::size_t reserved, std::size_t per_caller);

  // A socket was just accepted.  Returns its slot, making room first if needed by evicting
  // (calling `close` of, and freeing the slot of) the oldest idle unauthenticated
  // connection; nullopt when no slot can be had (the caller closes the socket).
  // `peer_gone` (optional) says, without blocking, whether the peer has closed its end: a
  // connection inside a handler (a held stream) reads nothing meanwhile, so this is how a
  // stream whose client went away gives its slot back when slots run out, instead of when
  // its next keep-alive write fails.
  std::optional<id> admit(std::function<void()> close, std::function<bool()> peer_gone = {});
  // The connection ended (a no-op for one already evicted).
  void release(id slot);
  // A request showing the credential of `caller` is about to be handled on this connection:
  // the slot becomes authenticated (staying with the caller it first showed), and the answer
  // says whether the caller may start it.  False when the caller already has per_caller
  // connections inside requests and none of their clients has gone (reap_gone).
  bool admit_request(id slot, const std::string& caller);
  // Inside a request handler (not idle): not evicted meanwhile.
  void set_busy(id slot, bool busy);
  // Frees the slot of the oldest idle unauthenticated connection (closing it).  False when
  // there is none.
  bool evict_oldest_idle_unauthenticated();
  // The whole table is authenticated: frees the oldest idle connection of the caller holding
  // the most (the next caller when that one has none idle).  False when none is idle.
  bool evict_idle_of_largest_holder();
  // Frees the slot of the oldest connection (of `caller`, when given) whose peer is gone,
  // closing it.  False when there is none.
  bool reap_gone(const std::string* caller = nullptr);
  // Calls every connection's close callback (server shutdown); slots are released later
  // by their connections.
  void close_all();

  std::size_t size() const { return slots_.size(); }
  std::size_t unauthenticated() const { return unauthenticated_; }
  std::size_t capacity() const { return capacity_; }
  std::size_t unauthenticated_capacity() const { return unauthenticated_capacity_; }
  std::size_t per_caller() const { return per_caller_; }
  // Authenticated connections `caller` holds now, and how many of them are inside requests.
  std::size_t held_by(const std::string& caller) const { return count_of(held_, caller); }
  std::size_t busy_of(const std::string& caller) const { return count_of(busy_, caller); }
  bool holds(id slot) const { return slots_.count(slot) != 0; }
  bool is_authenticated(id slot) const;

 private:
  struct slot_state {
    std::function<void()> close;
    std::function<bool()> peer_gone;
    bool authenticated = false;
    bool busy = false;
    std::string caller;  // once authenticated
  };
  // Takes a slot's state out of the counts (release and eviction).
  void forget(const slot_state& state);
  static std::size_t count_of(const std::map<std::string, std::size_t>& counts, const std::string& caller);
  // Takes the slot out of the table and closes its connection.
  void evict(std::map<id, slot_state>::iterator victim);

  std::size_t capacity_;
  std::size_t unauthenticated_capacity_;
  std::size_t per_caller_;
  std::size_t unauthenticated_ = 0;
  std::map<std::string, std::size_t> held_;  // authenticated connections per caller
  std::map<std::string, std::size_t> busy_;  // of those, inside a request handler
  std::map<id, slot_state> slots_;  // ordered by id = accept order: oldest first
  id next_ = 1;
};

}  // namespace opentabs::net
