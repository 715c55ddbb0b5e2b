// Test harness for the MCP endpoint: the real net::http_server on a loopback port routing
// /mcp and /mcp/gateway to two real mcp::endpoint instances, a raw HTTP/1.1 client that
// understands Content-Length and chunked (SSE) bodies, and a scripted tool_service.
//
// The scripted tool_service is a FAKE standing in for the app's pipeline (permission gate,
// validation, extension dispatch), which is not part of the mcp module; it lets these tests
// drive progress, cancellation, logs and unknown tools deterministically.  The Node tests
// in test/integration/mcp_*.test.mjs run the same paths against the real binary.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "mcp/endpoint.hpp"
#include "net/http_server.hpp"
#include "test/server/net/handler_service.hpp"
#include "util/strings.hpp"

namespace mcp_test {

using namespace opentabs;
using namespace std::chrono_literals;
using net::awaitable;
using net::tcp;

// ---- scripted tool pipeline -----------------------------------------------------------

struct recorded_call {
  std::string name;
  json::object arguments;
  std::string origin;
  bool had_progress = false;
};

class scripted_tools : public tools::tool_service {
 public:
  explicit scripted_tools(asio::any_io_executor ex, tools::server_events& events) : ex_(ex), events_(events) {
    tools_ = {
        {"notes_echo", "Echo the arguments", json::object{{"type", "object"}, {"properties", json::object{{"text", json::object{{"type", "string"}}}, {"tabId", json::object{{"type", "integer"}, {"minimum", 1}}}}}}, "notes"},
        {"notes_slow", "[Requires approval] Slow tool that reports progress", json::object{{"type", "object"}}, "notes"},
        {"notes_log", "[Disabled] Tool that logs", json::object{{"type", "object"}}, "notes"},
        {"browser_list_tabs", "List tabs", json::object{{"type", "object"}, {"additionalProperties", false}}, "browser"},
        {"plugin_inspect", "", json::object{{"type", "object"}}, "platform"},
    };
  }

  std::vector<tools::listed_tool> list_tools() const override {
    ++list_calls;
    return tools_;
  }

  asio::awaitable<tools::call_result> call_tool(std::string name, json::object arguments, tools::call_options options) override {
    calls.push_back({name, arguments, options.origin, static_cast<bool>(options.on_progress)});
    if (name == "notes_echo") co_return tools::call_result::text(json::dump(arguments));
    if (name == "notes_log") {
      events_.plugin_log({"notes", "info", "working", json::object{{"step", 1}}, 0});
      events_.plugin_log({"notes", "error", "failed a bit", nullptr, 0});
      co_return tools::call_result::text("logged");
    }
    if (name == "notes_slow") {
      if (options.on_progress) {
        options.on_progress({0, 1, "Waiting for user approval in the OpenTabs side panel"});
        options.on_progress({1, 3, "one"});
        options.on_progress({1, 3, "not increasing: dropped"});
        options.on_progress({2, 3, ""});
      }
      // Parks until cancelled (or a generous cap, so a bug cannot hang the test).
      asio::steady_timer t(ex_, 10s);
      auto cancel = options.cancel;
      if (cancel) cancel->on_cancel([&t] { t.cancel(); });
      ++slow_started;
      co_await t.async_wait(net::as_value);
      if (cancel) cancel->clear_hook();
      if (cancel && cancel->cancelled()) {
        ++slow_cancelled;
        co_return tools::call_result::text("Tool call cancelled", true, errc::tool_failed);
      }
      co_return tools::call_result::text("slow done");
    }
    co_return tools::call_result::text("Tool " + name + " not found", true, errc::not_found);
  }

  void set_tools(std::vector<tools::listed_tool> t) { tools_ = std::move(t); }

  mutable int list_calls = 0;
  int slow_started = 0;
  int slow_cancelled = 0;
  std::vector<recorded_call> calls;

 private:
  asio::any_io_executor ex_;
  tools::server_events& events_;
  std::vector<tools::listed_tool> tools_;
};

// ---- raw HTTP client ------------------------------------------------------------------

struct reply {
  int status = 0;
  std::map<std::string, std::string> headers;  // lower-case names
  std::string body;                            // de-chunked
  bool complete = false;

  std::string header(const std::string& name) const {
    auto it = headers.find(to_lower(name));
    return it == headers.end() ? "" : it->second;
  }
  json::object json() const {
    auto o = json::parse_object(body);
    REQUIRE_MESSAGE(o.ok(), "not a JSON object: " << body);
    return *o;
  }
  // The data of every SSE event, parsed.
  std::vector<json::object> events() const {
    std::vector<json::object> out;
    for (auto line : split(body, '\n'))
      if (starts_with(line, "data: ")) {
        auto o = json::parse_object(line.substr(6));
        REQUIRE(o.ok());
        out.push_back(*o);
      }
    return out;
  }
};

class client {
 public:
  explicit client(asio::io_context& io) : socket_(io) {}

  awaitable<void> connect(std::uint16_t port) {
    co_await socket_.async_connect({asio::ip::make_address("127.0.0.1"), port}, net::use_awaitable);
  }
  awaitable<void> send(std::string raw) { co_await asio::async_write(socket_, asio::buffer(raw), net::use_awaitable); }

  // Reads the head of the next response.
  awaitable<reply> head() {
    reply r;
    std::size_t end;
    while ((end = buf_.find("\r\n\r\n")) == std::string::npos)
      if (!co_await more()) co_return r;
    auto head = buf_.substr(0, end);
    buf_.erase(0, end + 4);
    auto lines = split(head, '\n');
    r.status = std::stoi(std::string(lines[0].substr(9, 3)));
    for (std::size_t i = 1; i < lines.size(); ++i) {
      auto colon = lines[i].find(':');
      if (colon == std::string_view::npos) continue;
      r.headers[to_lower(trim(lines[i].substr(0, colon)))] = std::string(trim(lines[i].substr(colon + 1)));
    }
    chunked_ = r.header("transfer-encoding") == "chunked";
    length_ = chunked_ ? 0 : std::stoul(r.header("content-length").empty() ? "0" : r.header("content-length"));
    co_return r;
  }

  // Reads body bytes into `r` until the body is complete, or (streams) until `until`
  // appears in it.  Returns false when the connection ended first.
  awaitable<bool> body(reply& r) { return body_until(r, std::string()); }
  awaitable<bool> body(reply& r, std::string until) { return body_until(r, std::move(until)); }

 private:
  awaitable<bool> body_until(reply& r, std::string until) {
    bool satisfied = false;
    for (;;) {
      satisfied = take_body(r, until);
      if (satisfied) break;
      bool got = co_await more();
      if (!got) break;
    }
    co_return satisfied;
  }
  bool take_body(reply& r, const std::string& until) {
    if (!chunked_) {
      if (buf_.size() < length_) return false;
      r.body += buf_.substr(0, length_);
      buf_.erase(0, length_);
      r.complete = true;
      return true;
    }
    decode(r);
    return r.complete || (!until.empty() && r.body.find(until) != std::string::npos);
  }

 public:
  awaitable<reply> exchange(std::string raw) {
    co_await send(std::move(raw));
    auto r = co_await head();
    co_await body(r);
    co_return r;
  }

  // True once the server closed the connection (EOF).
  awaitable<bool> closed_by_peer() { co_return !co_await more(); }

 private:
  awaitable<bool> more() {
    char b[8192];
    auto [ec, n] = co_await socket_.async_read_some(asio::buffer(b), net::as_value);
    if (ec || n == 0) co_return false;
    buf_.append(b, n);
    co_return true;
  }
  void decode(reply& r) {
    while (true) {
      auto eol = buf_.find("\r\n");
      if (eol == std::string::npos) return;
      auto size = std::stoul(buf_.substr(0, eol), nullptr, 16);
      if (buf_.size() < eol + 2 + size + 2) return;
      if (size == 0) {
        buf_.erase(0, eol + 4);
        r.complete = true;
        return;
      }
      r.body += buf_.substr(eol + 2, size);
      buf_.erase(0, eol + 2 + size + 2);
    }
  }

  tcp::socket socket_;
  std::string buf_;
  bool chunked_ = false;
  std::size_t length_ = 0;
};

inline std::string post(std::string path, std::string body, std::string extra_headers = "",
                        std::string accept = "application/json, text/event-stream") {
  return "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: " + accept +
         "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n" + extra_headers + "\r\n" + body;
}
inline std::string session_headers(const std::string& sid, std::string version = "2025-11-25") {
  std::string h = "Mcp-Session-Id: " + sid + "\r\n";
  if (!version.empty()) h += "MCP-Protocol-Version: " + version + "\r\n";
  return h;
}
inline std::string initialize_body(std::string version = "2025-11-25", int id = 1) {
  return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":"initialize","params":{"protocolVersion":")" + version +
         R"(","capabilities":{},"clientInfo":{"name":"harness","version":"0"}}})";
}
inline std::string rpc(int id, std::string method, std::string params = "{}") {
  return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":")" + method + R"(","params":)" + params + "}";
}

// ---- the server under test --------------------------------------------------------------

struct harness {
  asio::io_context io{1};
  tools::server_events events;
  scripted_tools service{io.get_executor(), events};
  std::unique_ptr<tools::tool_service> decorator;  // optional wrapper around `service`
  tools::tool_service* exposed = &service;         // what the endpoints see
  std::unique_ptr<mcp::endpoint> mcp_endpoint;
  std::unique_ptr<mcp::endpoint> gateway_endpoint;
  net::testing::handler_service routes;  // /mcp and /mcp/gateway; every head admitted
  std::unique_ptr<net::http_server> server;
  std::uint16_t port = 0;

  using wrapper_factory = std::function<std::unique_ptr<tools::tool_service>(harness&)>;

  explicit harness(mcp::endpoint_options options = {}, net::limits lim = {}, wrapper_factory wrap = nullptr) {
    if (wrap) {
      decorator = wrap(*this);
      exposed = decorator.get();
    }
    mcp_endpoint = std::make_unique<mcp::endpoint>(io.get_executor(), *exposed, events, options);
    auto gw = options;
    gw.gateway = true;
    gateway_endpoint = std::make_unique<mcp::endpoint>(io.get_executor(), *exposed, events, gw);
    routes.handler = [this](net::http_exchange& ex) -> awaitable<void> {
      if (ex.request().path == "/mcp") co_return co_await mcp_endpoint->handle(ex);
      if (ex.request().path == "/mcp/gateway") co_return co_await gateway_endpoint->handle(ex);
      ex.respond(net::http_response::error(404, "not_found", "Not Found"));
    };
    server = std::make_unique<net::http_server>(io, lim, routes);
    auto p = server->listen("127.0.0.1", 0);
    REQUIRE(p.ok());
    port = *p;
    asio::co_spawn(io, server->run(), asio::detached);
  }

  // Runs `test` to completion (hard cap: a bug fails the test instead of hanging it), then
  // shuts the endpoints and the server down and waits until their connections are closed.
  // It does not wait for the io_context to run out of work: the call runner's stream-keeper
  // timer stays armed by design (the server ends with io_context::stop()), and waiting it
  // out took seconds per test.
  void run(std::function<awaitable<void>()> test, std::chrono::milliseconds cap = 10s) {
    bool done = false;
    std::exception_ptr failure;
    io.restart();
    asio::co_spawn(io, test(), [&](std::exception_ptr e) {
      failure = e;
      done = true;
      mcp_endpoint->shutdown();
      gateway_endpoint->shutdown();
      server->stop();
    });
    const auto give_up = std::chrono::steady_clock::now() + cap;
    auto left = [&] { return std::chrono::duration_cast<std::chrono::milliseconds>(give_up - std::chrono::steady_clock::now()); };
    while (!done && !io.stopped() && left() > 0ms) io.run_one_for(left());
    REQUIRE_MESSAGE(done, "test coroutine did not finish within the cap");
    while (server->connection_count() > 0 && !io.stopped() && left() > 0ms) io.run_one_for(std::min(left(), std::chrono::milliseconds(10)));
    io.poll();
    io.stop();
    if (failure) std::rethrow_exception(failure);
  }

  // Opens a session on `path`; returns its id.
  awaitable<std::string> open_session(std::string path = "/mcp", std::string version = "2025-11-25") {
    client c(io);
    co_await c.connect(port);
    auto r = co_await c.exchange(post(path, initialize_body(version)));
    REQUIRE(r.status == 200);
    auto sid = r.header("mcp-session-id");
    REQUIRE_FALSE(sid.empty());
    auto n = co_await c.exchange(post(path, R"({"jsonrpc":"2.0","method":"notifications/initialized"})", session_headers(sid, version)));
    REQUIRE(n.status == 202);
    co_return sid;
  }

  // One request on a fresh connection.
  awaitable<reply> request(std::string raw) {
    client c(io);
    co_await c.connect(port);
    co_return co_await c.exchange(std::move(raw));
  }

  // Yields to the io_context until `pred` holds (bounded by the run() cap).
  awaitable<void> until(std::function<bool()> pred) {
    asio::steady_timer t(io);
    while (!pred()) {
      t.expires_after(5ms);
      co_await t.async_wait(net::as_value);
    }
  }
};

}  // namespace mcp_test
