// Probing for and auto-starting the server (see server_launcher.hpp).
#include "bridge/server_launcher.hpp"

#include <optional>
#include <string>
#include <vector>

#include "bridge/contact_failure.hpp"
#include "net/http_client.hpp"
#include "net/net_failure.hpp"
#include "platform/child_process.hpp"
#include "platform/executable_path.hpp"

namespace opentabs::bridge {

namespace {

// This executable `start --background --port <p>` in its own session, with the null device
// as stdin and its output in the bridge log (never our stdout), and no other descriptor of
// ours: an inherited copy of the client's stdin/stdout pipe would keep the client waiting
// for an EOF that only comes when the server exits.
result<platform::child> spawn_start_background(std::uint16_t port, const std::filesystem::path& log_file) {
  std::error_code ec;
  platform::child_spec spec;
  spec.program = platform::executable_path(ec);
  if (ec) return make_error(errc::io, "cannot find our own executable: " + ec.message());
  spec.argv = {"opentabs", "start", "--background", "--port", std::to_string(port)};
  spec.group = platform::child_group::own_session;
  spec.output_file = log_file;
  platform::child child;
  if (auto e = platform::spawn(spec, child)) return make_error(errc::io, "cannot start the server process: " + e.message());
  return child;
}

}  // namespace

net::awaitable<status> probe_server(std::uint16_t port) {
  net::http_client_options opts;
  opts.connect_timeout = std::chrono::seconds(2);
  opts.idle_timeout = std::chrono::seconds(5);
  opts.total_timeout = std::chrono::seconds(5);
  net::http_client client(co_await asio::this_coro::executor, "127.0.0.1", port, opts);
  net::http_client_request req{"GET", "/health", {}, ""};
  auto r = co_await client.send(req);
  if (!r && r.err().is(net::net_failure::connect_failed))
    co_return make_error(contact_failure::server_not_running, r.err().message);
  if (!r) co_return r.err();
  if (r->header("x-opentabs-version").empty())
    co_return make_error(contact_failure::port_in_use, "port " + std::to_string(port) + " is used by another program (not opentabs)");
  co_return ok();
}

namespace {

// Notes the exit of the `start --background` child once it has exited, without waiting.
void note_child_exit(platform::child& child, bool& done, int& status) {
  if (done) return;
  auto st = child.try_wait();
  if (!st) return;
  done = true;
  status = st->signal == 0 && st->code >= 0 ? st->code : 128;
}

}  // namespace

net::awaitable<status> ensure_server(const launcher_options& options, const bridge_log& log) {
  auto first = co_await probe_server(options.port);
  if (first || !first.err().is(contact_failure::server_not_running)) co_return first;
  if (!options.auto_start)
    co_return make_error(contact_failure::server_not_running,
                         "no opentabs server on port " + std::to_string(options.port) + "; start one with `opentabs start`");

  log.write("no server on port " + std::to_string(options.port) + "; starting one: opentabs start --background --port " +
            std::to_string(options.port));
  auto child = spawn_start_background(options.port, log.file());
  if (!child) co_return make_error(contact_failure::server_not_running, "could not start the server: " + child.err().message);

  asio::steady_timer timer(co_await asio::this_coro::executor);
  auto deadline = std::chrono::steady_clock::now() + options.start_timeout;
  bool child_done = false;
  int child_status = 0;
  // Loops leave with break, never co_return (GCC 12 mis-compiles some co_returns inside
  // coroutine loops); `outcome` holds the answer once there is one.
  std::optional<status> outcome;
  while (std::chrono::steady_clock::now() < deadline) {
    note_child_exit(*child, child_done, child_status);
    auto probe = co_await probe_server(options.port);
    if (probe) {
      log.write("server is up on port " + std::to_string(options.port));
      outcome = ok();
      break;
    }
    if (probe.err().is(contact_failure::port_in_use)) {
      outcome = probe;
      break;
    }
    // `start --background` exits once the server is healthy or has failed; a failure
    // with nothing listening means there is no point in waiting longer.
    if (child_done && child_status != 0) {
      outcome = make_error(contact_failure::server_not_running, "`opentabs start --background` failed (exit " +
                                                                    std::to_string(child_status) + "); see " +
                                                                    log.file().string());
      break;
    }
    timer.expires_after(options.poll_interval);
    co_await timer.async_wait(net::as_value);
  }
  // `start --background` exits right after the server answers; reap it so it does not
  // linger as a zombie for the bridge's lifetime (bounded wait).
  const bool up = outcome && outcome->ok();
  for (int i = 0; i < 100 && up && !child_done; ++i) {
    if (child->try_wait()) break;
    timer.expires_after(std::chrono::milliseconds(50));
    co_await timer.async_wait(net::as_value);
  }
  if (outcome) co_return *outcome;
  co_return make_error(contact_failure::server_not_running,
                       "the server did not answer on port " + std::to_string(options.port) + " within " +
                           std::to_string(options.start_timeout.count()) + " ms; see " + log.file().string());
}

}  // namespace opentabs::bridge
