#include "net/http_server.hpp"

#include <exception>

#include "codec/http_request.hpp"
#include "net/caught.hpp"
#include "util/log.hpp"

namespace opentabs::net {

using namespace asio::experimental::awaitable_operators;

http_server::http_server(asio::io_context& io, limits lim, request_handler handler)
    : io_(io), lim_(lim), handler_(std::move(handler)), acceptor_(io) {}

result<std::uint16_t> http_server::listen(const std::string& host, std::uint16_t port) {
  asio::error_code ec;
  auto addr = asio::ip::make_address(host, ec);
  if (ec) return make_error("bad_host", "invalid listen address \"" + host + "\"");
  tcp::endpoint ep(addr, port);
  acceptor_.open(ep.protocol(), ec);
  if (!ec) acceptor_.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) acceptor_.bind(ep, ec);
  if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    asio::error_code ignored;
    acceptor_.close(ignored);
    if (ec == asio::error::address_in_use)
      return make_error("port_busy", "port " + std::to_string(port) + " on " + host + " is already in use");
    return make_error("listen_failed", "cannot listen on " + host + ":" + std::to_string(port) + ": " + ec.message());
  }
  return acceptor_.local_endpoint().port();
}

awaitable<void> http_server::run() {
  while (!stopping_) {
    auto [ec, socket] = co_await acceptor_.async_accept(as_value);
    if (stopping_) break;
    if (ec) {
      // EMFILE and friends: back off briefly and keep listening rather than dying.
      if (ec == asio::error::operation_aborted) break;
      log::warn("accept failed: " + ec.message());
      asio::steady_timer t(io_, std::chrono::milliseconds(100));
      co_await t.async_wait(as_value);
      continue;
    }
    if (connections_.size() >= lim_.max_connections) {
      asio::error_code ignored;
      socket.close(ignored);
      continue;
    }
    socket.set_option(tcp::no_delay(true), ec);
    asio::co_spawn(io_, serve(std::move(socket)), [](std::exception_ptr e) {
      if (!e) return;
      try {
        std::rethrow_exception(e);
      } catch (const std::exception& ex) {
        log::error(std::string("connection ended by an unexpected error: ") + ex.what());
      }
    });
  }
}

void http_server::stop() {
  stopping_ = true;
  asio::error_code ignored;
  acceptor_.close(ignored);
  for (auto* c : connections_) c->close_socket();
}

awaitable<void> http_server::serve(tcp::socket socket) {
  connection conn(std::move(socket), lim_);
  connections_.push_front(&conn);
  auto self = connections_.begin();
  auto watch = conn.dog.watch([&conn] {
    if (conn.on_deadline) return conn.on_deadline();
    conn.close_socket();
    return false;
  });
  // read_requests and write_out never throw, and the watch reports a failure as a value
  // (net/caught.hpp): whichever side ends, the race ends and the socket is closed; a
  // branch that threw must not leave the other one waiting forever.
  auto ended = co_await ((read_requests(conn) && write_out(conn)) || caught(std::move(watch)));
  if (ended.index() == 1 && std::get<1>(ended)) log::error("a connection's deadline watch failed unexpectedly; connection closed");
  conn.close_socket();
  connections_.erase(self);
}

awaitable<void> http_server::write_out(connection& conn) {
  try {
    bool open = true;
    while (open) {
      auto bytes = co_await conn.out.next();
      if (bytes.empty()) break;
      // Whatever else is already queued goes out in the same write: one syscall for a burst
      // of frames (dispatch + invocation notices, SSE events) instead of one per message.
      open = conn.out.take_ready(bytes, 256 * 1024);
      conn.dog.write_within(lim_.write_timeout);
      auto [ec, n] = co_await asio::async_write(conn.socket, asio::buffer(bytes), as_value);
      conn.dog.no_write_deadline();
      if (ec) {
        conn.close_socket();
        break;  // (no co_return inside the loop: GCC 12)
      }
    }
    asio::error_code ignored;
    conn.socket.shutdown(tcp::socket::shutdown_send, ignored);
  } catch (...) {
    conn.close_socket();
  }
}

awaitable<void> http_server::read_requests(connection& conn) {
  try {
    codec::request_parser parser({.max_body_bytes = lim_.max_body_bytes});
    bool first = true;
    while (!stopping_) {
      parser.reset();
      conn.dog.read_within(first ? lim_.head_timeout : lim_.keepalive_idle);
      bool head_seen = false;
      bool any_byte = !conn.pending.empty();
      while (parser.current() == codec::request_parser::state::need_more) {
        if (conn.pending.empty()) {
          bool more = co_await conn.read_more();  // not inside the condition: GCC 12
          if (!more) {
            conn.out.finish();
            co_return;
          }
          if (!any_byte) {
            any_byte = true;
            conn.dog.read_within(lim_.head_timeout);
          }
        }
        auto used = parser.feed(conn.pending.data(), conn.pending.size());
        conn.pending.erase(0, used);
        if (!head_seen && parser.head_complete()) {
          head_seen = true;
          conn.dog.read_within(lim_.body_timeout);
        }
      }
      first = false;
      conn.dog.no_read_deadline();
      if (parser.current() == codec::request_parser::state::rejected) {
        auto res = http_response::json(
            parser.reject_status(),
            json::object{{"error", "bad_request"}, {"error_description", json::str(parser.reject_reason())}});
        conn.out.push(serialize(res, false));
        conn.out.finish();
        co_return;
      }
      http_exchange ex(conn, parser.take());
      try {
        co_await handler_(ex);
      } catch (const std::exception& e) {
        log::error(std::string("request handler failed: ") + e.what());
        if (!ex.responded()) {
          ex.close_after();
          ex.respond(http_response::error(500, "internal_error", "Internal server error"));
        } else if (ex.streaming()) {
          ex.close_after();
        }
      }
      if (ex.upgraded()) {
        conn.out.finish();
        co_return;
      }
      if (!ex.responded()) ex.respond(http_response::error(500, "internal_error", "No response was produced"));
      if (ex.streaming()) ex.end_stream();
      if (!ex.keep_alive() || conn.out.closed()) {
        conn.out.finish();
        co_return;
      }
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
