#include "net/http_server.hpp"

#include <limits>

#include <cerrno>
#include <exception>
#include <string>
#include <vector>

#include "codec/http_request.hpp"
#include "net/net_failure.hpp"
#include "net/task_group.hpp"
#include "util/log.hpp"
#include "util/strings.hpp"

namespace opentabs::net {


namespace {

// RFC 9110 §10.1.1: an HTTP/1.1 client that sent "Expect: 100-continue" waits for an
// interim 100 (or a final answer) before sending its body.
bool expects_continue(const codec::http_request& head) {
  return head.version == "HTTP/1.1" && iequals(trim(head.header("Expect")), "100-continue");
}

bool out_of_descriptors(const asio::error_code& ec) {
  return ec == asio::error::no_descriptors || (ec.category() == asio::system_category() && ec.value() == ENFILE);
}

// Gives the connection's slot back on every exit path of its coroutine.
struct slot_guard {
  std::shared_ptr<connection_slots> slots;
  connection_slots::id slot;
  ~slot_guard() { slots->release(slot); }
};

// Marks the connection busy (not evictable) while a handler runs.
struct busy_guard {
  std::shared_ptr<connection_slots> slots;
  connection_slots::id slot;
  busy_guard(std::shared_ptr<connection_slots> s, connection_slots::id id) : slots(std::move(s)), slot(id) {
    slots->set_busy(slot, true);
  }
  ~busy_guard() { slots->set_busy(slot, false); }
};

}  // namespace

http_server::http_server(asio::io_context& io, limits lim, http_service& service)
    : lim_(lim),
      service_(service),
      acceptor_(io),
      slots_(std::make_shared<connection_slots>(lim.max_connections, lim.reserved_connections, lim.connections_per_caller)),
      budget_(lim.unauthenticated_body_bytes),
      connections_(io.get_executor()),
      connection_ended_(io.get_executor()) {}

result<std::uint16_t> http_server::listen(const std::string& host, std::uint16_t port) {
  asio::error_code ec;
  auto addr = asio::ip::make_address(host, ec);
  if (ec) return make_error(errc::invalid_params, "invalid listen address \"" + host + "\"");
  tcp::endpoint ep(addr, port);
  acceptor_.open(ep.protocol(), ec);
  if (!ec) acceptor_.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) acceptor_.bind(ep, ec);
  if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    asio::error_code ignored;
    acceptor_.close(ignored);
    if (ec == asio::error::address_in_use)
      return make_error(net_failure::port_busy, "port " + std::to_string(port) + " on " + host + " is already in use");
    return make_error(errc::io, "cannot listen on " + host + ":" + std::to_string(port) + ": " + ec.message());
  }
  return acceptor_.local_endpoint().port();
}

void http_server::note_accept_failure(const asio::error_code& ec) {
  if (!out_of_descriptors(ec)) {
    log::warn("accept failed: " + ec.message());
    return;
  }
  auto now = steady_clock::now();
  bool new_episode = !last_fd_failure_ || now - *last_fd_failure_ >= lim_.fd_exhaustion_quiet;
  last_fd_failure_ = now;
  if (new_episode) {
    std::string previous = fd_failures_in_episode_ > 1
                               ? " (the previous episode had " + std::to_string(fd_failures_in_episode_) + " failed accepts)"
                               : "";
    fd_failures_in_episode_ = 0;
    log::warn("accept: out of file descriptors (" + ec.message() +
              "); retrying with back-off; logged once until a quiet minute" +
              previous);
  }
  ++fd_failures_in_episode_;
}

awaitable<void> http_server::run() {
  auto backoff = lim_.accept_backoff_min;
  while (!stopping_) {
    auto [ec, socket] = co_await acceptor_.async_accept(as_value);
    if (stopping_) break;
    if (ec) {
      if (ec == asio::error::operation_aborted) break;
      // EMFILE and friends: keep listening rather than dying or spinning.  An idle socket
      // that never showed the secret gives its descriptor up (closed at once), so a flood of
      // them cannot keep /health, the extension or a client out; with none, wait until a
      // connection ends (its descriptor is back) or the back-off (doubling) passes.
      note_accept_failure(ec);
      if (out_of_descriptors(ec) && (slots_->evict_oldest_idle_unauthenticated() || slots_->reap_gone())) continue;
      co_await connection_ended_.wait_until(steady_clock::now() + backoff);
      backoff = std::min(backoff * 2, lim_.accept_backoff_max);
      continue;
    }
    backoff = lim_.accept_backoff_min;
    socket.set_option(tcp::no_delay(true), ec);
    connections_.spawn(serve(std::move(socket)), "connection");
  }
}

void http_server::stop() {
  stopping_ = true;
  asio::error_code ignored;
  acceptor_.close(ignored);
  slots_->close_all();
}

awaitable<void> http_server::serve(tcp::socket socket) {
  connection conn(std::move(socket), lim_);
  auto slot = slots_->admit([&conn] { conn.close_socket(); }, [&conn] { return conn.peer_closed(); });
  if (!slot) {
    // Every slot is held by an authenticated connection or one inside a handler.
    conn.close_socket();
    connection_ended_.notify_all();
    co_return;
  }
  slot_guard guard{slots_, *slot};
  // The reader runs in this coroutine; the writer and the deadline watch run beside it, each
  // in a task group of its own that serve() awaits, not as branches of Asio 1.22's `&&`/`||`
  // (whose cancellation slots completed into recycled memory under descriptor exhaustion;
  // see net/task_group.hpp).  Everything ends the same way: the socket is closed (by the
  // reader, the writer on a failed write, or the watch on a passed deadline), which ends
  // whatever is still waiting on it; nothing outlives `conn`.
  const auto never = steady_clock::time_point::max();
  task_group writer(conn.socket.get_executor()), watch(conn.socket.get_executor());
  writer.spawn(write_out(conn), "a connection's writer");
  watch.spawn(conn.dog.watch([&conn] {
    if (conn.on_deadline) return conn.on_deadline();
    conn.close_socket();
    return false;
  }),
              "a connection's deadline watch");
  // read_requests and write_out never throw.  The reader ends by finishing the outbox (the
  // writer flushes what is queued, bounded by the write deadline; a refused request's body is
  // still drained meanwhile) or by closing the socket.
  co_await read_requests(conn, *slot);
  co_await writer.wait(never);
  conn.close_socket();
  conn.dog.stop();
  co_await watch.wait(never);
  connection_ended_.notify_all();  // its socket is closed: the descriptor is back
}

namespace {
// async_write's default (transfer_all) hands the socket at most 64 KiB per send: a 3 MiB
// tools/list went out in 48 sendto calls with a scheduler turn between each.  This asks for
// all that is left each time; the kernel takes what fits in the send buffer.
std::size_t whole_write(const asio::error_code& ec, std::size_t) { return ec ? 0 : std::numeric_limits<std::size_t>::max(); }
}  // namespace

awaitable<void> http_server::write_out(connection& conn) {
  try {
    // Whatever else is already queued goes out in the same write: one syscall for a burst
    // of frames (dispatch + invocation notices, SSE events) instead of one per message,
    // gathered (writev) rather than copied into one string.  At most 64 items: what Asio
    // hands to one sendmsg.
    constexpr std::size_t max_batch_bytes = 256 * 1024, max_batch_items = 64;
    std::vector<out_bytes> batch;
    std::vector<asio::const_buffer> buffers;
    bool open = true;
    while (open) {
      auto first = co_await conn.out.next();
      if (first.empty()) break;
      batch.push_back(std::move(first));
      open = conn.out.take_ready(batch, max_batch_bytes, max_batch_items);
      conn.dog.write_within(lim_.write_timeout);
      asio::error_code ec;
      if (batch.size() == 1) {
        // The usual case: Asio's single-buffer write is cheaper than its gathered one.
        auto [single_ec, n] = co_await asio::async_write(conn.socket, asio::buffer(batch.front().view()), whole_write, as_value);
        ec = single_ec;
      } else {
        buffers.clear();
        for (const auto& item : batch) buffers.push_back(asio::buffer(item.view()));
        auto [gathered_ec, n] = co_await asio::async_write(conn.socket, buffers, whole_write, as_value);
        ec = gathered_ec;
      }
      conn.dog.no_write_deadline();
      if (!ec) {
        std::size_t bytes = 0;
        for (const auto& item : batch) bytes += item.size();
        conn.out.written(bytes);
      }
      batch.clear();  // not held while the writer waits for more
      if (ec) {
        conn.close_socket();
        break;  // GCC 12: net/asio.hpp
      }
    }
    asio::error_code ignored;
    conn.socket.shutdown(tcp::socket::shutdown_send, ignored);
  } catch (...) {
    conn.close_socket();
  }
}

awaitable<void> http_server::refuse(connection& conn, const http_response& res, bool keep_alive) {
  conn.out.push(serialize(res, keep_alive));
  if (keep_alive) co_return;
  conn.out.finish();
  // The unread body (or whatever the peer sends next) is read and dropped — never kept —
  // until the peer closes or the linger deadline closes the socket.
  conn.dog.read_within(lim_.refused_body_linger);
  conn.pending.clear();
  while (true) {
    bool more = co_await conn.read_more();  // GCC 12: net/asio.hpp
    if (!more) break;
    conn.pending.clear();
  }
}

std::optional<http_server::refusal_answer> http_server::admit_head(const codec::http_request& head,
                                                                   std::size_t body_bytes, connection_slots::id slot,
                                                                   std::optional<body_budget::lease>& body_lease,
                                                                   std::optional<bool>& screened_authenticated) {
  auto verdict = service_.screen(head);
  if (verdict.refusal) return refusal_answer{std::move(*verdict.refusal), verdict.close_after_refusal};
  screened_authenticated = verdict.authenticated;
  if (verdict.authenticated) {
    if (slots_->admit_request(slot, verdict.caller)) return std::nullopt;
    auto crowded = http_response::error(429, "too_many_connections",
                                        "This client already holds " + std::to_string(slots_->busy_of(verdict.caller)) +
                                            " connections with requests in progress (the limit is " +
                                            std::to_string(slots_->per_caller()) + "); close one first");
    crowded.with_header("Retry-After", "1");
    return refusal_answer{std::move(crowded), true};
  }
  if (body_bytes == 0) return std::nullopt;
  body_lease = budget_.take(body_bytes);
  if (body_lease) return std::nullopt;
  auto busy = http_response::error(503, "busy", "Too many unauthenticated request bodies in flight; try again later");
  busy.with_header("Retry-After", "1");
  return refusal_answer{std::move(busy), true};
}

namespace {

// The handler threw: answer 500 if nothing was answered yet, and end the connection
// after whatever it already answered or streamed.
void answer_handler_failure(http_exchange& ex, const std::exception& e) {
  log::error(std::string("request handler failed: ") + e.what());
  if (!ex.responded()) {
    ex.close_after();
    ex.respond(http_response::error(500, "internal_error", "Internal server error"));
  } else if (ex.streaming()) {
    ex.close_after();
  }
}

// Completes the answer of a handled request; false when the connection ends with it.
bool finish_exchange(connection& conn, http_exchange& ex) {
  if (ex.upgraded()) {
    conn.out.finish();
    return false;
  }
  if (!ex.responded()) ex.respond(http_response::error(500, "internal_error", "No response was produced"));
  if (ex.streaming()) ex.end_stream();
  if (!ex.keep_alive() || conn.out.closed()) {
    conn.out.finish();
    return false;
  }
  return true;
}

http_response bad_request_answer(const codec::request_parser& parser) {
  return http_response::json(parser.reject_status(),
                             json::object{{"error", "bad_request"}, {"error_description", json::str(parser.reject_reason())}});
}

}  // namespace

bool http_server::admit_parsed_head(connection& conn, connection_slots::id slot, const codec::request_parser& parser,
                                    request_admission& admission) {
  const auto& head = parser.head();
  admission.refusal = admit_head(head, parser.announced_body_bytes(), slot, admission.body_lease, admission.screened_authenticated);
  if (admission.refusal) {
    // The connection can carry on only if the body is already here (it is skipped)
    // and nothing asks to close; otherwise the unread body ends the connection.
    std::size_t body_bytes = parser.announced_body_bytes();
    admission.keep_connection = body_bytes <= conn.pending.size() && !admission.refusal->close && head.keep_alive();
    if (admission.keep_connection) conn.pending.erase(0, body_bytes);
    return false;
  }
  if (parser.current() == codec::request_parser::state::need_more) {
    if (expects_continue(head) && conn.pending.empty()) conn.out.push("HTTP/1.1 100 Continue\r\n\r\n");
    conn.dog.read_within(lim_.body_timeout);
  }
  return true;
}

awaitable<bool> http_server::read_request(connection& conn, connection_slots::id slot, codec::request_parser& parser,
                                          bool first, request_admission& admission) {
  conn.dog.read_within(first ? lim_.head_timeout : lim_.keepalive_idle);
  bool screened = false;
  bool any_byte = !conn.pending.empty();
  bool peer_closed = false;
  while (parser.current() == codec::request_parser::state::need_more) {
    if (conn.pending.empty()) {
      bool more = co_await conn.read_more();  // GCC 12: net/asio.hpp
      if (!more) {
        peer_closed = true;
        break;
      }
      if (!any_byte) {
        any_byte = true;
        conn.dog.read_within(lim_.head_timeout);
      }
    }
    auto used = parser.feed(conn.pending.data(), conn.pending.size());
    conn.pending.erase(0, used);
    if (screened || !parser.head_complete()) continue;
    // The head is in and the parser has not taken a byte of the body: decide now.
    screened = true;
    if (!admit_parsed_head(conn, slot, parser, admission)) break;
  }
  co_return !peer_closed;
}

awaitable<bool> http_server::handle_request(connection& conn, connection_slots::id slot, codec::request_parser& parser,
                                            request_admission& admission) {
  http_exchange ex(conn, parser.take(), admission.screened_authenticated);
  {
    busy_guard busy(slots_, slot);
    try {
      co_await service_.handle(ex);
    } catch (const std::exception& e) {
      answer_handler_failure(ex, e);
    }
  }
  admission.body_lease.reset();
  co_return finish_exchange(conn, ex);
}

awaitable<void> http_server::read_requests(connection& conn, connection_slots::id slot) {
  try {
    codec::request_parser parser({.max_body_bytes = lim_.max_body_bytes});
    bool first = true;
    while (!stopping_) {
      // A client that pipelines requests without reading the answers is not answered further
      // (nor read from) until the writer catches up; the write deadline ends one that never reads.
      co_await conn.out.wait_unwritten_at_most(lim_.pipelined_answer_bytes);
      if (conn.out.closed()) break;
      parser.reset();
      request_admission admission;
      bool complete = co_await read_request(conn, slot, parser, first, admission);  // GCC 12: net/asio.hpp
      if (!complete) {
        conn.out.finish();
        co_return;
      }
      first = false;
      conn.dog.no_read_deadline();
      if (admission.refusal) {
        co_await refuse(conn, admission.refusal->response, admission.keep_connection);
        if (!admission.keep_connection) co_return;
        continue;
      }
      if (parser.current() == codec::request_parser::state::rejected) {
        auto res = bad_request_answer(parser);
        co_await refuse(conn, res, false);
        co_return;
      }
      bool go_on = co_await handle_request(conn, slot, parser, admission);  // GCC 12: net/asio.hpp
      if (!go_on) co_return;
    }
    conn.out.finish();
  } catch (const std::exception& e) {
    log::debug(std::string("connection reader ended: ") + e.what());
    conn.close_socket();
  } catch (...) {
    log::debug("connection reader ended by an exception of unknown type");
    conn.close_socket();
  }
}

}  // namespace opentabs::net
