// `opentabs native-host install | uninstall | status | run`: Chrome native messaging between
// the OpenTabs extension and this binary.
//  * install writes, per browser (Chrome and Chromium; or one custom profile with
//    --user-data-dir), the host manifest `com.opentabs.server.json` naming exactly our
//    extension in allowed_origins, and a launcher script in <configDir>/native-host/ that pins
//    the config dir (and the port, when one was chosen) and runs `opentabs native-host run`;
//  * uninstall removes them, status reports what is installed and whether it is sound;
//  * run is the host itself, started by Chrome with the caller's origin as argument: it
//    speaks the length-prefixed stdio protocol (native_messaging.hpp) and answers
//      {"type":"ping"}                    → {"type":"pong","version"}
//      {"type":"getServer","start":bool} → {"type":"server","port","secret","started","version"}
//    (starting the server in the background first when asked and none is running), or
//    {"type":"error","code","message"} for anything it cannot do.  The secret goes only to
//    our own extension (Chrome enforces allowed_origins and the host checks the origin too,
//    refusing a start without one), and only once the program on the port has proved it knows
//    the secret (bridge/server_proof.hpp); the host itself never sends the secret anywhere.
#include <filesystem>
#include <string>

#include "app/extension_install.hpp"
#include "bridge/bridge_log.hpp"
#include "bridge/contact_failure.hpp"
#include "bridge/server_launcher.hpp"
#include "bridge/server_proof.hpp"
#include "cli/cli_failure.hpp"
#include "cli/commands.hpp"
#include "cli/native_host_manifest.hpp"
#include "cli/native_messaging.hpp"
#include "cli/output.hpp"
#include "cli/server_api.hpp"
#include "config/config_paths.hpp"
#include "platform/executable_path.hpp"
#include "platform/file_access.hpp"
#include "platform/standard_streams.hpp"
#include "util/env.hpp"
#include "util/files.hpp"

namespace opentabs::cli {

namespace fs = std::filesystem;

namespace {

result<fs::path> own_executable() {
  std::error_code ec;
  auto p = platform::executable_path(ec);
  if (ec) return make_error(errc::io, "cannot find the opentabs executable: " + ec.message());
  return p;
}

// Our extension's ID: from the installed copy's manifest (what the browser loads), else from
// the extension files this binary ships with (installed share/ folder or source tree).
result<std::string> our_extension_id(const context& ctx) {
  auto installed = ctx.paths.extension_dir() / "manifest.json";
  if (fs::exists(installed)) return native::extension_id_from_manifest(installed);
  return native::extension_id_from_manifest(app::extension_source_dir() / "manifest.json");
}

fs::path launcher_path(const context& ctx) {
  return ctx.paths.dir / "native-host" / std::string(native::launcher_file_name(platform::current_os()));
}

result<std::vector<native::manifest_location>> locations(const parsed_command& cmd) {
  auto folders = platform::user_folders_now();
  if (!folders) return make_error(errc::not_found, "cannot find the home directory");
  std::optional<fs::path> custom;
  if (auto d = cmd.value("user-data-dir")) {
    if (d->empty()) return make_error(cli_failure::usage, "--user-data-dir needs a directory");
    custom = fs::absolute(*d);
  }
  return native::manifest_locations(platform::current_os(), *folders, cmd.value("browser").value_or("all"), custom);
}

// What a manifest file says about itself: absent, ours and sound, or a problem.
struct manifest_state {
  bool present = false;
  bool ok = false;
  std::string problem;
  std::string launcher;
};

manifest_state inspect(const fs::path& file, const std::string& extension_id) {
  manifest_state s;
  if (!fs::exists(file)) return s;
  s.present = true;
  auto text = read_file(file, 64 * 1024);
  if (!text) { s.problem = "unreadable: " + text.err().message; return s; }
  auto parsed = json::parse_object(*text);
  if (!parsed) { s.problem = "not valid JSON: " + parsed.err().message; return s; }
  const auto* name = json::get_string(*parsed, "name");
  const auto* path = json::get_string(*parsed, "path");
  const auto* origins = json::get_array(*parsed, "allowed_origins");
  if (path) s.launcher = std::string(*path);
  std::string want = "chrome-extension://" + extension_id + "/";
  bool names_us = false;
  if (origins)
    for (const auto& o : *origins)
      if (o.is_string() && o.get_string() == want) names_us = true;
  if (!name || *name != native::kHostName) s.problem = "its name is not " + std::string(native::kHostName);
  else if (!names_us) s.problem = "allowed_origins does not name " + want;
  else if (!path || !platform::is_executable(fs::path(std::string(*path)))) s.problem = "its launcher " + s.launcher + " is missing or not executable";
  else s.ok = true;
  return s;
}

// ---- host mode -------------------------------------------------------------------------------

json::object error_message(std::string_view code, std::string_view message) {
  return json::object{{"type", "error"}, {"code", json::str(code)}, {"message", json::str(message)}};
}

class host_session {
 public:
  host_session(context& ctx, bridge::bridge_log log) : ctx_(ctx), log_(std::move(log)) {}

  json::object handle(const json::object& request) {
    const auto* type = json::get_string(request, "type");
    if (!type) return error_message("bad_request", "the message needs a string \"type\" (ping or getServer)");
    if (*type == "ping") return json::object{{"type", "pong"}, {"version", OPENTABS_VERSION}};
    if (*type == "getServer") return get_server(json::get_bool(request, "start").value_or(false));
    return error_message("unknown_type", "unknown message type \"" + std::string(std::string_view(*type).substr(0, 40)) +
                                             "\" (expected ping or getServer)");
  }

 private:
  json::object get_server(bool start) {
    std::uint16_t port = ctx_.port.port;
    bool started = false;
    asio::io_context io;
    status up = ok();
    bool running_before = false;
    asio::co_spawn(io, [&]() -> net::awaitable<void> {
      auto probe = co_await bridge::probe_server(port);
      running_before = static_cast<bool>(probe);
      if (probe || !probe.err().is(bridge::contact_failure::server_not_running) || !start) {
        up = probe;
        co_return;
      }
      bridge::launcher_options lo;
      lo.port = port;
      lo.auto_start = true;
      if (auto t = env_milliseconds("OPENTABS_START_TIMEOUT_MS", 1, 600'000)) lo.start_timeout = *t;
      up = co_await bridge::ensure_server(lo, log_);
    }, asio::detached);
    io.run();
    if (!up) return error_message(up.err().code(), up.err().message);
    started = !running_before;
    server_api api(port, ctx_.paths);
    auto secret = api.secret();
    if (!secret) return error_message(secret.err().code(), secret.err().message);
    // The program on the port must prove it knows this secret before the extension learns
    // where to send it: a squatter (or a server of another config dir) gets named instead.
    auto proof = bridge::prove_server_now(port, *secret);
    if (!proof) return error_message(proof.err().code(), proof.err().message);
    log_.write(std::string("gave the extension port ") + std::to_string(port) + (started ? " (server started)" : ""));
    return json::object{{"type", "server"}, {"port", port}, {"secret", json::str(*secret)},
                        {"started", started}, {"version", OPENTABS_VERSION}};
  }

  context& ctx_;
  bridge::bridge_log log_;
};

}  // namespace

int cmd_native_host_install(context& ctx, const parsed_command& cmd) {
  auto id = our_extension_id(ctx);
  if (!id) return report_error(ctx, id.err());
  auto exe = own_executable();
  if (!exe) return report_error(ctx, exe.err());
  auto locs = locations(cmd);
  if (!locs) return report_error(ctx, locs.err());
  if (auto st = config::ensure_config_dir(ctx.paths); !st) return report_error(ctx, st.err());
  auto launcher = launcher_path(ctx);
  if (auto st = ensure_dir(launcher.parent_path(), 0700); !st) return report_error(ctx, st.err());
  // A port chosen on purpose (--port or OPENTABS_PORT) is pinned; otherwise the host resolves
  // it like every command (config.json "port", then 9515).
  std::optional<std::uint16_t> pinned;
  if (ctx.port.source == "--port" || ctx.port.source == "OPENTABS_PORT") pinned = ctx.port.port;
  auto script = native::launcher_script(platform::current_os(), *exe, fs::absolute(ctx.paths.dir), pinned);
  if (auto st = write_file_atomic(launcher, script, 0700); !st)
    return report_error(ctx, st.err());
  json::array written;
  auto manifest = json::dump_pretty(native::host_manifest(launcher, *id)) + "\n";
  for (const auto& loc : *locs) {
    // Chrome only reads the file (0644, as browsers' own installers write it); on Windows the
    // registry key naming it is set too.
    if (auto ec = platform::register_host(loc.where, manifest))
      return report_error(ctx, errc::io, "cannot register the host in " + loc.file().string() + ": " + ec.message());
    written.push_back(json::object{{"browser", json::str(loc.browser)}, {"manifest", json::str(loc.file().string())}});
    if (!ctx.json) print_line("installed " + loc.file().string() + " (" + loc.browser + ")");
  }
  if (ctx.json) {
    print_json(json::object{{"extensionId", json::str(*id)}, {"launcher", json::str(launcher.string())}, {"manifests", std::move(written)}});
  } else {
    print_line("  allowed origin: chrome-extension://" + *id + "/");
    print_line("  launcher: " + launcher.string());
    print_line("Restart the browser (or reload the extension) so it picks up the host.");
  }
  return kExitOk;
}

int cmd_native_host_uninstall(context& ctx, const parsed_command& cmd) {
  auto locs = locations(cmd);
  if (!locs) return report_error(ctx, locs.err());
  json::array removed;
  for (const auto& loc : *locs) {
    const bool was_there = platform::host_registered(loc.where) || fs::exists(loc.file());
    if (auto ec = platform::unregister_host(loc.where))
      return report_error(ctx, errc::io, "cannot remove " + loc.file().string() + ": " + ec.message());
    if (was_there) {
      removed.push_back(json::str(loc.file().string()));
      if (!ctx.json) print_line("removed " + loc.file().string());
    }
  }
  // The launcher goes when no default location uses it any more (custom profiles are
  // removed one by one with --user-data-dir and keep it until then).
  bool still_used = false;
  if (auto folders = platform::user_folders_now())
    if (auto all = native::manifest_locations(platform::current_os(), *folders, "all", std::nullopt))
      for (const auto& loc : *all) still_used = still_used || fs::exists(loc.file());
  if (!still_used && !cmd.value("user-data-dir")) {
    std::error_code ec;
    if (fs::remove(launcher_path(ctx), ec) && !ctx.json) print_line("removed " + launcher_path(ctx).string());
  }
  if (ctx.json) print_json(json::object{{"removed", std::move(removed)}});
  else if (removed.empty()) print_line("no native-host manifest was installed there");
  return kExitOk;
}

int cmd_native_host_status(context& ctx, const parsed_command& cmd) {
  auto id = our_extension_id(ctx);
  if (!id) return report_error(ctx, id.err());
  auto locs = locations(cmd);
  if (!locs) return report_error(ctx, locs.err());
  json::array out;
  bool any_problem = false;
  for (const auto& loc : *locs) {
    auto s = inspect(loc.file(), *id);
    any_problem = any_problem || (s.present && !s.ok);
    json::object o{{"browser", json::str(loc.browser)}, {"manifest", json::str(loc.file().string())},
                   {"installed", s.present}, {"ok", s.ok}};
    if (!s.problem.empty()) o["problem"] = json::str(s.problem);
    if (!s.launcher.empty()) o["launcher"] = json::str(s.launcher);
    if (!ctx.json) {
      std::string line = loc.browser + ": ";
      line += !s.present ? "not installed (" + loc.file().string() + ")"
              : s.ok     ? "installed (" + loc.file().string() + ")"
                         : "BROKEN: " + s.problem + " (" + loc.file().string() + ")";
      print_line(line);
    }
    out.push_back(std::move(o));
  }
  if (ctx.json) print_json(json::object{{"extensionId", json::str(*id)}, {"hostName", json::str(native::kHostName)}, {"locations", std::move(out)}});
  return any_problem ? kExitFailure : kExitOk;
}

int cmd_native_host_run(context& ctx, const parsed_command& cmd) {
  (void)config::ensure_config_dir(ctx.paths);
  (void)ensure_dir(ctx.paths.logs_dir(), 0700);
  bridge::bridge_log log(ctx.paths.logs_dir() / "native-host.log", false);
  auto reply = [&](const json::object& message) {
    auto frame = native::encode_message(message);
    if (!frame) frame = native::encode_message(error_message("too_large", frame.err().message));
    return frame && platform::write_stdout(*frame);
  };
  // Chrome passes the caller's origin; only our own extension may learn the secret, and a
  // start without an origin (not by Chrome) learns nothing.
  auto origin = cmd.arg(0);
  auto id = our_extension_id(ctx);
  std::string want = id ? "chrome-extension://" + *id + "/" : std::string();
  if (!origin || !id || *origin != want) {
    log.write(origin ? "refused caller " + origin->substr(0, 80) : std::string("refused a start without the caller's origin"));
    reply(error_message("forbidden_origin", origin ? "this native host serves only the OpenTabs extension"
                                                   : "this native host must be started by the browser, which names the calling extension"));
    return kExitFailure;
  }
  host_session session(ctx, log);
  native::frame_reader reader;
  char buf[16 * 1024];
  while (true) {
    auto n = platform::read_stdin(buf, sizeof buf);
    if (n <= 0) break;  // Chrome closed the port
    reader.feed(std::string_view(buf, static_cast<std::size_t>(n)));
    while (auto in = reader.next()) {
      json::object answer;
      if (in->what == native::incoming::kind::too_large) answer = error_message("too_large", in->error);
      else if (in->what == native::incoming::kind::bad_json) answer = error_message("bad_json", in->error);
      else answer = session.handle(in->message);
      if (in->what == native::incoming::kind::message)
        if (const auto* id = json::find(in->message, "id"); id && (id->is_string() || id->is_int64()) &&
                                                            (!id->is_string() || id->get_string().size() <= 64))
          answer["id"] = *id;
      if (!reply(answer)) return kExitFailure;
    }
  }
  if (reader.mid_frame()) log.write("input ended in the middle of a message");
  return kExitOk;
}

}  // namespace opentabs::cli
