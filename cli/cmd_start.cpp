// `opentabs start` (foreground, --background, --stdio, --show-config) and `opentabs stop`.
// The foreground server runs in this process (app::run_server); --background re-runs this
// binary detached with its output appended to server.log; that detached server, once it
// owns the port, records server.pid (so when two starts race, only the winner writes it and
// the loser exits quietly); --stdio hands over to the bridge program.
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <thread>

#include "app/extension_install.hpp"
#include "app/server.hpp"
#include "bridge/contact_failure.hpp"
#include "bridge/server_proof.hpp"
#include "bridge/stdio_bridge.hpp"
#include "cli/client_config.hpp"
#include "cli/commands.hpp"
#include "cli/log_tee.hpp"
#include "cli/output.hpp"
#include "cli/pid_file.hpp"
#include "cli/process.hpp"
#include "cli/server_api.hpp"
#include "net/asio.hpp"
#include "platform/standard_streams.hpp"
#include "config/auth_secret.hpp"
#include "util/env.hpp"
#include "util/files.hpp"

namespace opentabs::cli {

namespace {

// Set in the environment of the server that `start --background` spawns: its output
// already goes to server.log, so it must not tee or print client configuration.
constexpr const char* kBackgroundChildEnv = "OPENTABS_BACKGROUND_CHILD";

// server.log's rotation size: OPENTABS_SERVER_LOG_MAX_BYTES (a test knob) or 10 MiB.
std::uint64_t server_log_max_bytes() {
  auto n = env_integer("OPENTABS_SERVER_LOG_MAX_BYTES", 1, std::numeric_limits<std::int64_t>::max());
  return n ? static_cast<std::uint64_t>(*n) : rotating_file::kDefaultMaxBytes;
}

// The start and stop deadlines: OPENTABS_START_TIMEOUT_MS / OPENTABS_STOP_TIMEOUT_MS, at
// most 10 minutes.
std::chrono::milliseconds env_ms(const char* name, std::chrono::milliseconds fallback) {
  return env_milliseconds(name, 1, 600'000).value_or(fallback);
}

// Whether 127.0.0.1:`port` can be bound now (a bind and nothing else; no io_context runs).
bool port_free(std::uint16_t port) {
  asio::io_context io;
  asio::ip::tcp::acceptor probe(io);
  asio::error_code ec;
  probe.open(asio::ip::tcp::v4(), ec);
  if (ec) return false;
  probe.set_option(asio::socket_base::reuse_address(true), ec);
  probe.bind({asio::ip::address_v4::loopback(), port}, ec);
  return !ec;
}

// Whether `port` can be used; otherwise an error saying who holds it and what to do.
status check_port(const context& ctx, std::uint16_t port) {
  if (port == 0 || port_free(port)) return ok();
  server_api api(port, ctx.paths);
  auto version = api.probe();
  std::string p = std::to_string(port);
  // A listener that says it is opentabs must also prove it knows our secret.
  if (version && !version->empty())
    if (auto secret = api.secret())
      if (auto proof = bridge::prove_server_now(port, *secret); !proof && proof.err().is(bridge::contact_failure::not_opentabs))
        return make_error(bridge::contact_failure::port_in_use, proof.err().message);
  if (version && !version->empty()) {
    std::string pid;
    if (auto text = read_file(ctx.paths.server_pid(), 4096))
      if (auto rec = parse_pid_file(*text); rec && (!rec->port || *rec->port == port) && process_alive(rec->pid))
        pid = ", pid " + std::to_string(rec->pid);
    return make_error(cli_failure::already_running,
                      "opentabs " + *version + " is already running on port " + p + pid +
                          ". See `opentabs status`; stop it with `opentabs stop` (or use --port)");
  }
  auto owner = bridge::describe_port_owner(port);
  return make_error(bridge::contact_failure::port_in_use,
                    "port " + p + " is in use by another program" + (owner.empty() ? "" : " (" + owner + ")") +
                        ". Pick another port: `opentabs start --port <n>` or OPENTABS_PORT=<n>");
}

// The detached server found its port taken.  When an opentabs server answers there (a
// concurrent start won the race), that is not an error: say so in one line (server.log)
// and exit 0; the caller connects to the winner.  Waits a little for the winner to answer
// (it may have bound the port a moment ago).  nullopt when something else holds the port.
std::optional<int> lost_start_race(const context& ctx, std::uint16_t port) {
  server_api api(port, ctx.paths);
  for (int attempt = 0; attempt < 40; ++attempt) {
    auto version = api.probe();
    if (version && !version->empty()) {
      std::printf("opentabs: another opentabs server already serves port %u (it started at the same time); "
                  "this one exits\n",
                  static_cast<unsigned>(port));
      return kExitOk;
    }
    if (!version && !version.err().is(bridge::contact_failure::server_not_running)) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return std::nullopt;
}

// server.pid, written by the detached server itself once it listens (tmp file + rename).
void write_own_pid_file(const context& ctx, std::uint16_t port) {
  if (auto st = write_file_atomic(ctx.paths.server_pid(), format_pid_file({platform::current_process_id(), port}) + "\n");
      !st)
    std::fprintf(stderr, "opentabs: could not write %s: %s\n", ctx.paths.server_pid().string().c_str(), st.err().message.c_str());
}

// The pid server.pid names, if it holds a valid record.
std::optional<long> pid_file_owner(const context& ctx) {
  auto text = read_file(ctx.paths.server_pid(), 4096);
  if (!text) return std::nullopt;
  auto rec = parse_pid_file(*text);
  if (!rec) return std::nullopt;
  return rec->pid;
}

// On the way out: remove server.pid if it still names this process.
void remove_own_pid_file(const context& ctx) {
  auto owner = pid_file_owner(ctx);
  if (!owner || *owner != platform::current_process_id()) return;
  std::error_code ec;
  std::filesystem::remove(ctx.paths.server_pid(), ec);
}

void print_extension_instructions(const context& ctx, bool first_run) {
  bool c = ctx.term.color_stdout;
  std::string dir = ctx.paths.extension_dir().string();
  if (first_run) {
    print_line(bold("Load the Chrome extension (first run):", c));
    print_line("  1. open chrome://extensions and switch on Developer mode");
    print_line("  2. click \"Load unpacked\" and choose " + cyan(dir, c));
    print_line("  3. pin OpenTabs and open its side panel to enable plugins");
  } else {
    print_line(dim("Extension: " + dir + " (reload it in chrome://extensions after an update)", c));
  }
}

// What a foreground start shows once it listens, last on the screen: where MCP clients
// connect, how to get their configuration (the ~85 lines of snippets are behind
// --show-config so they do not push the first-run steps away), and the extension steps.
std::string ready_summary(const context& ctx, std::uint16_t port, bool first_run) {
  bool c = ctx.term.color_stdout;
  std::string port_arg = port == 9515 ? "" : " --port " + std::to_string(port);
  std::string dir = ctx.paths.extension_dir().string();
  std::string out = "\n" + bold("opentabs is ready: MCP clients connect to http://127.0.0.1:" + std::to_string(port) + "/mcp", c) + "\n";
  out += "  client configuration to paste (Claude Code, OpenCode, Cursor, Windsurf, gateway, stdio): " +
         cyan("opentabs start --show-config" + port_arg, c) + "\n";
  out += "  clients that start a command: " + cyan("opentabs start --stdio" + port_arg, c) + "\n";
  if (first_run) {
    out += bold("Load the Chrome extension (first run):", c) + "\n";
    out += "  1. open chrome://extensions and switch on Developer mode\n";
    out += "  2. click \"Load unpacked\" and choose " + cyan(dir, c) + "\n";
    out += "  3. pin OpenTabs and open its side panel to enable plugins\n";
  } else {
    out += dim("Extension: " + dir + " (reload it in chrome://extensions after an update)", c) + "\n";
  }
  return out;
}

// Installs or updates <configDir>/extension with the server's own function (it keeps
// adapters/ and auth.json), so the first-run message can say where the extension is before
// the server starts.  Returns whether this was the first install; a failure is only a
// note, because the server retries the copy itself on startup.
// `note_foreign`: say here when another extension holds the folder (the background mode; in
// the foreground the server this process runs says it on the terminal itself).
bool install_extension_copy(const context& ctx, bool note_foreign) {
  auto report = app::install_extension(app::extension_source_dir(), ctx.paths.extension_dir());
  if (!report) {
    print_note(ctx, "could not install the extension into " + ctx.paths.extension_dir().string() + ": " +
                        report.err().message);
    return false;
  }
  // Another extension (e.g. the original OpenTabs one) lives there: it stays, and we say so.
  if (!report->installed && note_foreign) print_note(ctx, app::foreign_extension_notice(ctx.paths.extension_dir(), report->foreign_label));
  return report->first_install;
}

bool extension_present(const context& ctx) {
  std::error_code ec;
  return std::filesystem::exists(ctx.paths.extension_dir() / "manifest.json", ec);
}

int start_stdio(context& ctx) {
  bridge::bridge_options o;
  o.port = ctx.port.port;
  o.paths = ctx.paths;
  return bridge::run_stdio_bridge(bridge::with_env_knobs(o));
}

// Waits until the background server `pid` answers /health, or dies (then says why, from its
// log), or the start timeout passes: nullopt once it answers, else the exit code.
std::optional<int> wait_until_started(context& ctx, std::uint16_t port, platform::child& child, progress& prog) {
  const long pid = child.pid();
  auto timeout = env_ms("OPENTABS_START_TIMEOUT_MS", std::chrono::milliseconds(15'000));
  server_api api(port, ctx.paths);
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    if (auto code = reap_child(child)) {
      if (*code == kExitOk) {
        // Our server lost the port to a concurrent start (see lost_start_race): the winner
        // serves, and server.pid is the winner's to write.
        prog.fail();
        if (auto st = check_port(ctx, port); !st) return report_error(ctx, st.err());
        return report_error(ctx, cli_failure::start_failed, "the server found port " + std::to_string(port) +
                                                                " taken and exited, and nothing serves it now; try again");
      }
      prog.fail("the server exited during startup (status " + std::to_string(*code) + ")");
      std::string tail = tail_lines(ctx.paths.server_log(), 8);
      return report_error(ctx, cli_failure::start_failed, "the server exited during startup (status " + std::to_string(*code) +
                                                              "). Last lines of " + ctx.paths.server_log().string() + ":\n" + tail);
    }
    auto v = api.probe();
    // An answer is ours only when server.pid (written by the server before it serves) names
    // our child; another pid means a concurrent start won and ours is about to exit.
    if (v && !v->empty()) {
      auto owner = pid_file_owner(ctx);
      if (!owner || *owner == pid || !process_alive(*owner)) break;
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      prog.fail();
      return report_error(ctx, cli_failure::start_timeout, "the server (pid " + std::to_string(pid) + ") did not answer within " +
                                                               std::to_string(timeout.count()) + " ms; see `opentabs logs`");
    }
    for (int i = 0; i < 4; ++i) {
      prog.tick();
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  return std::nullopt;
}

int start_background(context& ctx, const parsed_command& cmd) {
  std::uint16_t port = ctx.port.port;
  if (auto st = check_port(ctx, port); !st) return report_error(ctx, st.err());
  std::vector<std::string> args = {"start", "--port", std::to_string(port)};
  if (cmd.has("dev")) args.push_back("--dev");
  if (cmd.has("conformance-mode")) args.push_back("--conformance-mode");
  bool first_run = install_extension_copy(ctx, true) || !extension_present(ctx);
  auto child = spawn_detached_self(args, ctx.paths.server_log(), {{kBackgroundChildEnv, "1"}});
  if (!child) return report_error(ctx, child.err());
  const long pid = child->pid();

  progress prog(ctx.term, "starting opentabs on port " + std::to_string(port));
  if (auto code = wait_until_started(ctx, port, *child, prog)) return *code;
  prog.done();  // the outcome is printed below, on stdout
  if (ctx.json) {
    print_json(json::object{{"pid", static_cast<std::int64_t>(pid)},
                            {"port", static_cast<std::int64_t>(port)},
                            {"log", json::str(ctx.paths.server_log().string())}});
    return kExitOk;
  }
  print_line("opentabs running in the background on http://127.0.0.1:" + std::to_string(port) + " (pid " +
             std::to_string(pid) + ")");
  print_line("  logs: " + ctx.paths.server_log().string() + "  (`opentabs logs -f`)   stop: `opentabs stop`");
  print_extension_instructions(ctx, first_run);
  print_line("  MCP client configuration: `opentabs start --show-config`");
  return kExitOk;
}

// `opentabs start` in the foreground (also the background server's own process).  `--port 0`
// (ephemeral) is allowed here: the server prints the real port.
int start_foreground(context& ctx, const parsed_command& cmd, bool secret_generated) {
  const bool child = std::getenv(kBackgroundChildEnv) != nullptr;
  platform::line_buffer_stdout();  // "listening on" must reach pipes promptly
  std::uint16_t port = ctx.port.port;
  if (auto st = check_port(ctx, port); !st) {
    if (child)
      if (auto code = lost_start_race(ctx, port)) return *code;
    return report_error(ctx, st.err());
  }
  // The server installs or updates the extension copy itself as it starts (and says when it
  // could not, or when another extension holds the folder); copying it here first too read
  // and hashed every file twice before the first /health answer.  Whether this is the first
  // run is whether a copy is there yet.
  bool first_run = child ? false : !extension_present(ctx);
  std::unique_ptr<log_tee> tee;
  if (!child) {
    if (secret_generated) print_line("created a new secret in " + ctx.paths.auth_json().string());
    auto t = log_tee::start(ctx.paths.server_log(), server_log_max_bytes());
    if (t) tee = std::move(*t);
    else print_note(ctx, "not writing server.log: " + t.err().message);
  } else {
    // The background server's stdout and stderr are server.log itself (opened by the parent);
    // writing through the tee instead keeps the file rotated.
    auto t = log_tee::start(ctx.paths.server_log(), server_log_max_bytes(), /*copy_to_terminal=*/false);
    if (t) tee = std::move(*t);
  }
  app::server_options opts = app::options_from_env();
  opts.port = port;
  opts.config_dir = ctx.paths.dir;
  if (cmd.has("dev")) opts.dev = true;
  if (cmd.has("conformance-mode")) opts.conformance_mode = true;
  if (child) {
    // Only the process that owns the port records itself, once it listens and before it
    // answers anyone (a concurrent start that gets an answer reads server.pid).
    opts.on_bound = [&ctx](std::uint16_t bound) { write_own_pid_file(ctx, bound); };
  } else {
    // Printed once bound, so `--port 0` shows the port clients must use; for the terminal,
    // not server.log.
    opts.on_listening = [&ctx, &tee, first_run](std::uint16_t bound) {
      std::string text = ready_summary(ctx, bound, first_run);
      if (tee) tee->write_terminal_only(text);
      else std::fwrite(text.data(), 1, text.size(), stdout);
    };
  }
  int code = app::run_server(opts);
  tee.reset();
  if (child) {
    remove_own_pid_file(ctx);
    if (code == app::kExitPortBusy)
      if (auto quiet = lost_start_race(ctx, port)) return *quiet;
  }
  return code;
}

}  // namespace

int cmd_start(context& ctx, const parsed_command& cmd) {
  int modes = (cmd.has("background") ? 1 : 0) + (cmd.has("stdio") ? 1 : 0) + (cmd.has("show-config") ? 1 : 0);
  if (modes > 1) return report_error(ctx, cli_failure::usage, "choose one of --background, --stdio and --show-config");
  if (cmd.has("stdio")) return start_stdio(ctx);  // the bridge ensures the secret and the server itself

  if (auto st = config::ensure_config_dir(ctx.paths); !st) return report_error(ctx, st.err());
  if (auto st = config::ensure_extension_dirs(ctx.paths); !st) return report_error(ctx, st.err());
  auto secret = config::ensure_secret(ctx.paths.auth_json());
  if (!secret) return report_error(ctx, secret.err());
  // Why an auth.json secret was replaced (never the secret itself).
  for (const auto& w : secret->warnings) print_note(ctx, w);

  if (cmd.has("show-config")) {
    std::string text = render_client_config({ctx.port.port, secret->secret, ctx.term.color_stdout});
    std::fwrite(text.data(), 1, text.size(), stdout);
    return kExitOk;
  }
  if (cmd.has("background")) return start_background(ctx, cmd);

  return start_foreground(ctx, cmd, secret->generated);
}

int cmd_stop(context& ctx, const parsed_command&) {
  const auto pid_path = ctx.paths.server_pid();
  auto text = read_file(pid_path, 4096);
  if (!text) {
    server_api api(ctx.port.port, ctx.paths);
    auto v = api.probe();
    if (v && !v->empty())
      return report_error(ctx, cli_failure::not_background, "opentabs is running on port " + std::to_string(ctx.port.port) +
                                                                " but was not started with --background (no " + pid_path.string() +
                                                                "); stop it where it runs (Ctrl-C)");
    return report_error(ctx, cli_failure::not_running, "opentabs is not running (no " + pid_path.string() + ")");
  }
  auto rec = parse_pid_file(*text);
  if (!rec) {
    error unreadable = rec.err();
    unreadable.message += " (" + pid_path.string() + "); delete it if no server runs";
    return report_error(ctx, unreadable);
  }
  std::error_code ec;
  if (!process_alive(rec->pid)) {
    std::filesystem::remove(pid_path, ec);
    return report_error(ctx, cli_failure::not_running, "opentabs is not running (removed the stale " + pid_path.string() + ")");
  }
  // Never signal a process that is not ours: the pid may have been reused.
  if (!looks_like_opentabs_server(rec->pid)) {
    std::filesystem::remove(pid_path, ec);
    return report_error(ctx, cli_failure::not_running, "process " + std::to_string(rec->pid) +
                                                           " is not an opentabs server (stale pid file removed); nothing stopped");
  }
  if (rec->port) {
    server_api api(*rec->port, ctx.paths);
    auto v = api.probe();
    if (!v || v->empty())
      print_note(ctx, "note: no opentabs answer on port " + std::to_string(*rec->port) + "; stopping pid " +
                          std::to_string(rec->pid) + " anyway");
  }
  if (auto ec = platform::request_termination(rec->pid))
    return report_error(ctx, errc::io, "cannot signal pid " + std::to_string(rec->pid) + ": " + ec.message());
  progress prog(ctx.term, "stopping opentabs (pid " + std::to_string(rec->pid) + ")");
  auto deadline = std::chrono::steady_clock::now() + env_ms("OPENTABS_STOP_TIMEOUT_MS", std::chrono::milliseconds(5'000));
  while (process_alive(rec->pid) && std::chrono::steady_clock::now() < deadline) {
    prog.tick();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  if (process_alive(rec->pid)) {
    prog.fail();
    return report_error(ctx, cli_failure::stop_timeout, "opentabs (pid " + std::to_string(rec->pid) +
                                                            ") did not exit after SIGTERM; `kill -9 " + std::to_string(rec->pid) +
                                                            "` ends it forcefully");
  }
  std::filesystem::remove(pid_path, ec);
  // On a terminal the spinner's line becomes the outcome; elsewhere the outcome goes to stdout.
  const std::string stopped = "stopped opentabs (pid " + std::to_string(rec->pid) + ")";
  if (ctx.term.stderr_tty) {
    prog.done(stopped);
  } else {
    prog.done();
    print_line(stopped);
  }
  return kExitOk;
}

}  // namespace opentabs::cli
