// The HTTP/1.1 server: accepts on 127.0.0.1, runs every connection as one coroutine tree
// (reader ‖ writer, watched by one watchdog) and hands each parsed request to the service
// it was built with.  The service screens each request head (Host, Origin, auth, route,
// length) before a byte of its body is read; admitted unauthenticated bodies draw on a shared
// body_budget; connection slots are shared out by connection_slots (an unauthenticated
// share, and a budget per caller).  Lives on one
// io_context thread; nothing here is thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "codec/http_request.hpp"
#include "net/asio.hpp"
#include "net/body_budget.hpp"
#include "net/connection_slots.hpp"
#include "net/event.hpp"
#include "net/http_exchange.hpp"
#include "net/limits.hpp"
#include "net/task_group.hpp"
#include "util/result.hpp"

namespace opentabs::net {

// What the screen decided about a request head.
struct head_verdict {
  std::optional<http_response> refusal;  // answer this now; the body is never read
  bool close_after_refusal = false;      // and close the connection even if it could go on
  bool authenticated = false;            // the request showed the secret
  std::string caller;                    // whose credential (connection_slots' per-caller budget)
};

// What the server serves.  Both run on the io thread.
class http_service {
 public:
  // Decides on a request head alone, before its body is read.  A head admitted as
  // unauthenticated has its body draw on the shared budget, and its connection may be
  // evicted when slots run out.
  virtual head_verdict screen(const codec::http_request& head) const = 0;
  // Answers an admitted request (or upgrades it); the body has been read.
  virtual awaitable<void> handle(http_exchange& ex) = 0;

 protected:
  ~http_service() = default;
};

class http_server {
 public:
  // `service` outlives the server.
  http_server(asio::io_context& io, limits lim, http_service& service);

  // Binds and listens; port 0 picks an ephemeral port.  Returns the bound port.
  result<std::uint16_t> listen(const std::string& host, std::uint16_t port);
  // Accepts until stop(); spawn it once.
  awaitable<void> run();
  // Stops accepting and closes every connection's socket.
  void stop();
  // After stop(): resumes when every connection coroutine has ended (their sockets are
  // closed, so they end at their next wait) or at `deadline`; true when all ended.
  awaitable<bool> wait_closed(steady_clock::time_point deadline) { return connections_.wait(deadline); }

  std::size_t connection_count() const { return slots_->size(); }
  std::size_t unauthenticated_body_bytes() const { return budget_.in_use(); }
  const limits& lim() const { return lim_; }

 private:
  struct refusal_answer {
    http_response response;
    bool close = false;  // even if the connection could go on
  };

  awaitable<void> serve(tcp::socket socket);
  // The decision on a complete head, before its body is read: the screen's verdict, the
  // slot marked authenticated, or an unauthenticated body's bytes leased from the budget.
  // A refusal to send, or nullopt to read the body and handle the request.
  std::optional<refusal_answer> admit_head(const codec::http_request& head, std::size_t body_bytes,
                                           connection_slots::id slot, std::optional<body_budget::lease>& body_lease,
                                           std::optional<bool>& screened_authenticated);
  // What admitting one request's head decided.
  struct request_admission {
    std::optional<body_budget::lease> body_lease;
    std::optional<refusal_answer> refusal;
    std::optional<bool> screened_authenticated;
    bool keep_connection = false;  // after a refusal: its body was already here and is skipped
  };
  // Reads and answers requests, one at a time, until the connection ends.
  awaitable<void> read_requests(connection& conn, connection_slots::id slot);
  // Reads one request into `parser`: its head, then its body unless the head is refused.
  // False when the peer closed first.
  awaitable<bool> read_request(connection& conn, connection_slots::id slot, codec::request_parser& parser, bool first,
                               request_admission& admission);
  // admit_head on the head just parsed, before a byte of its body is taken; false when
  // refused.  An admitted head whose body is still to come gets the body's deadline (and a
  // 100 Continue when it asks for one).
  bool admit_parsed_head(connection& conn, connection_slots::id slot, const codec::request_parser& parser,
                         request_admission& admission);
  // Has the service handle an admitted request; false when the connection ends after it.
  awaitable<bool> handle_request(connection& conn, connection_slots::id slot, codec::request_parser& parser,
                                 request_admission& admission);
  awaitable<void> write_out(connection& conn);
  // Answers a request whose body was not read, then reads and discards what the peer
  // still sends (briefly), so it gets the answer rather than a reset.
  awaitable<void> refuse(connection& conn, const http_response& res, bool keep_alive);
  void note_accept_failure(const asio::error_code& ec);

  limits lim_;
  http_service& service_;
  tcp::acceptor acceptor_;
  // Shared with the connection coroutines' guards, which may be destroyed after the server
  // when the io_context is torn down.
  std::shared_ptr<connection_slots> slots_;
  body_budget budget_;
  task_group connections_;  // one task per accepted connection
  event connection_ended_;  // a descriptor came back: an accept waiting for one retries now
  bool stopping_ = false;
  // fd exhaustion is logged once per episode: episodes are separated by a quiet minute.
  std::optional<steady_clock::time_point> last_fd_failure_;
  std::size_t fd_failures_in_episode_ = 0;
};

}  // namespace opentabs::net
