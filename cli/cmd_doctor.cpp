// `opentabs doctor`: checks the installation end to end and says how to fix each problem:
// config directory and files (and their modes), the secret, the server (reachable, same
// version, accepts the secret), the extension (installed, current, connected), a real
// WebSocket handshake with the secret, plugins (loaded or failed), and the MCP client
// configuration files that mention opentabs (and whether their secret is current).
#include <cstdlib>
#include <string>
#include <vector>

#include "app/extension_install.hpp"
#include "bridge/server_proof.hpp"
#include "cli/commands.hpp"
#include "cli/output.hpp"
#include "cli/server_api.hpp"
#include "config/auth_secret.hpp"
#include "config/config.hpp"
#include "net/http_client.hpp"
#include "platform/file_access.hpp"
#include "util/files.hpp"
#include "util/random.hpp"

namespace opentabs::cli {

namespace {

enum class verdict { pass, warn, fail, skip };

struct check {
  std::string name;
  verdict result = verdict::pass;
  std::string detail;
  std::string fix;
};

const char* verdict_name(verdict v) {
  switch (v) {
    case verdict::pass: return "ok";
    case verdict::warn: return "warning";
    case verdict::fail: return "fail";
    case verdict::skip: return "skipped";
  }
  return "?";
}

std::optional<unsigned> file_mode(const std::filesystem::path& p) {
  std::error_code ec;
  unsigned mode = platform::file_mode(p, ec);
  if (ec) return std::nullopt;
  return mode & 0777;
}

std::string octal(unsigned mode) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%04o", mode);
  return buf;
}

check private_file_check(const std::string& name, const std::filesystem::path& p, unsigned expected) {
  auto mode = file_mode(p);
  if (!mode) return {name, verdict::fail, p.string() + " does not exist", "run `opentabs start` once to create it"};
  if ((*mode & 077) != 0)
    return {name, verdict::warn, p.string() + " is readable by other users (mode " + octal(*mode) + ")",
            "chmod " + octal(expected) + " " + p.string()};
  return {name, verdict::pass, p.string() + " (mode " + octal(*mode) + ")", ""};
}

// A WebSocket handshake as the extension makes it, with a connection id of our own so the
// server does not mistake the probe for the extension reconnecting (which would replace it).
check websocket_check(std::uint16_t port, const std::string& secret) {
  asio::io_context io{1};
  net::http_client_options opts;
  opts.connect_timeout = std::chrono::seconds(3);
  opts.idle_timeout = std::chrono::seconds(5);
  opts.total_timeout = std::chrono::seconds(5);
  net::http_client client(io.get_executor(), "127.0.0.1", port, opts);
  net::http_client_request req{"GET",
                               "/ws",
                               {{"Connection", "Upgrade"},
                                {"Upgrade", "websocket"},
                                {"Sec-WebSocket-Version", "13"},
                                {"Sec-WebSocket-Key", "b3BlbnRhYnMtZG9jdG9yLTE="},
                                {"Sec-WebSocket-Protocol", "opentabs, " + secret + ", opentabs-doctor-" + uuid_v4()}},
                               ""};
  std::optional<result<net::http_client_response>> got;
  asio::co_spawn(
      io, [&]() -> net::awaitable<void> { got = co_await client.send(req); }, asio::detached);
  io.run();
  if (!got || !got->ok())
    return {"websocket handshake", verdict::fail, got ? got->err().message : "no answer", "check that the server runs"};
  int status = (*got)->status();
  if (status == 101) {
    auto proto = (*got)->header("Sec-WebSocket-Protocol");
    if (proto != "opentabs")
      return {"websocket handshake", verdict::fail, "101 but subprotocol '" + std::string(proto) + "' (Chrome needs 'opentabs')",
              "upgrade the server"};
    return {"websocket handshake", verdict::pass, "/ws accepted the secret (subprotocol opentabs)", ""};
  }
  if (status == 401)
    return {"websocket handshake", verdict::fail, "/ws rejected the secret (HTTP 401)",
            "the server uses another auth.json; restart it with the same OPENTABS_CONFIG_DIR"};
  return {"websocket handshake", verdict::fail, "/ws answered HTTP " + std::to_string(status), "upgrade the server"};
}

void mcp_client_checks(std::vector<check>& out, const std::optional<std::string>& secret) {
  std::vector<std::filesystem::path> candidates;
  if (const char* home = std::getenv("HOME")) {
    std::filesystem::path h(home);
    candidates.push_back(h / ".claude.json");
    candidates.push_back(h / ".cursor" / "mcp.json");
    candidates.push_back(h / ".codeium" / "windsurf" / "mcp_config.json");
    candidates.push_back(h / ".config" / "opencode" / "opencode.json");
  }
  std::error_code ec;
  auto cwd = std::filesystem::current_path(ec);
  if (!ec) {
    candidates.push_back(cwd / ".mcp.json");
    candidates.push_back(cwd / "opencode.json");
    candidates.push_back(cwd / ".cursor" / "mcp.json");
  }
  int mentioned = 0;
  for (const auto& p : candidates) {
    auto text = read_file(p, 16 * 1024 * 1024);
    if (!text || text->find("opentabs") == std::string::npos) continue;
    ++mentioned;
    bool has_bearer = text->find("Bearer ") != std::string::npos;
    bool current = secret && text->find(*secret) != std::string::npos;
    bool stdio = text->find("--stdio") != std::string::npos;
    if (has_bearer && !current && !stdio)
      out.push_back({"MCP client config", verdict::warn, p.string() + " mentions opentabs with a different secret",
                     "update it from `opentabs start --show-config`"});
    else
      out.push_back({"MCP client config", verdict::pass, p.string() + " mentions opentabs", ""});
  }
  if (mentioned == 0)
    out.push_back({"MCP client config", verdict::warn, "no MCP client configuration mentions opentabs",
                   "paste one from `opentabs start --show-config`, or use `opentabs tool call` from a shell"});
}

// The config directory, config.json and the secret; the secret when it could be read.
std::optional<std::string> file_checks(const config::config_paths& paths, std::vector<check>& checks) {
  if (auto mode = file_mode(paths.dir); !mode) {
    checks.push_back({"config directory", verdict::fail, paths.dir.string() + " does not exist", "run `opentabs start`"});
  } else if ((*mode & 077) != 0) {
    checks.push_back({"config directory", verdict::warn, paths.dir.string() + " is accessible by other users (mode " + octal(*mode) + ")",
                      "chmod 700 " + paths.dir.string()});
  } else {
    checks.push_back({"config directory", verdict::pass, paths.dir.string(), ""});
  }
  auto cfg = private_file_check("config.json", paths.config_json(), 0600);
  if (cfg.result != verdict::fail) {
    auto text = read_file(paths.config_json(), config::kMaxConfigBytes);
    auto parsed = text ? config::parse_config_text(*text, paths.config_json()) : result<json::object>(text.err());
    if (!parsed) {
      cfg = {"config.json", verdict::fail, parsed.err().message, "fix the file, or `opentabs config reset --confirm`"};
    } else {
      std::vector<std::string> warnings;
      auto loaded = config::config_from_object(*parsed, paths.config_json(), warnings);
      for (const auto& w : warnings)
        if (w.find("port") == std::string::npos)  // the CLI's own key is expected
          checks.push_back({"config.json", verdict::warn, w, "edit " + paths.config_json().string()});
      // A user switching from the original keeps its CLI or its names: tell them the switch.
      checks.push_back({"tool names", verdict::pass,
                        loaded.tool_names == config::tool_name_style::double_underscore
                            ? "plugin tools are listed as <plugin>__<tool>, as by the original OpenTabs"
                            : "plugin tools are listed as <plugin>_<tool>; if you keep the original OpenTabs CLI or "
                              "its <plugin>__<tool> names, run `opentabs config set toolNames double-underscore` "
                              "(applied at once, no restart)",
                        ""});
    }
  } else {
    cfg.result = verdict::warn;
    cfg.fix = "it is created with defaults when the server starts";
  }
  checks.push_back(cfg);
  auto auth = private_file_check("secret (auth.json)", paths.auth_json(), 0600);
  std::optional<std::string> secret;
  if (auth.result != verdict::fail) {
    auto s = config::load_secret(paths.auth_json());
    if (!s) auth = {"secret (auth.json)", verdict::fail, s.err().message, "`opentabs config rotate-secret --confirm`"};
    else secret = *s;
  }
  checks.push_back(auth);

  return secret;
}

// The extension copy on disk.
void extension_copy_check(const config::config_paths& paths, std::vector<check>& checks) {
  auto manifest = paths.extension_dir() / "manifest.json";
  std::error_code ec;
  if (!std::filesystem::exists(manifest, ec)) {
    checks.push_back({"extension installed", verdict::fail, "no extension in " + paths.extension_dir().string(),
                      "run `opentabs start`; it installs the extension there"});
  } else if (app::classify_extension_folder(app::extension_source_dir(), paths.extension_dir()) ==
             app::extension_folder::foreign) {
    auto label = app::extension_folder_label(paths.extension_dir());
    checks.push_back({"extension installed", verdict::warn,
                      paths.extension_dir().string() + " holds another extension" +
                          (label.empty() ? std::string() : " (" + label + ")") +
                          ", not installed by opentabs; it is left as it is (browser_snapshot and WebMCP page tools "
                          "need the opentabs extension)",
                      "`opentabs extension install --force` (backs up the folder first), then reload it in "
                      "chrome://extensions"});
  } else {
    auto v = read_file(paths.extension_dir() / ".opentabs-version", 256);
    std::string installed = v ? std::string(v->substr(0, v->find_first_of("\r\n"))) : "";
    if (!installed.empty() && installed != OPENTABS_VERSION)
      checks.push_back({"extension installed", verdict::warn,
                        "extension copy is version " + installed + ", this opentabs is " OPENTABS_VERSION,
                        "restart the server to update it, then reload the extension in chrome://extensions"});
    else
      checks.push_back({"extension installed", verdict::pass, paths.extension_dir().string(), ""});
  }

}

// The server on the port: reachable, opentabs, proving the secret, its version; its
// authenticated /health when it accepts the secret.
std::optional<json::object> server_checks(context& ctx, const std::optional<std::string>& secret, std::vector<check>& checks) {
  const auto& paths = ctx.paths;
  server_api api(ctx.port.port, paths);
  auto version = api.probe();
  std::optional<json::object> health;
  if (!version) {
    checks.push_back({"server reachable", verdict::fail, version.err().message, "`opentabs start` (or `opentabs start --background`)"});
  } else if (version->empty()) {
    auto owner = bridge::describe_port_owner(ctx.port.port);
    checks.push_back({"server reachable", verdict::fail, "port " + std::to_string(ctx.port.port) + " answers but is not opentabs" +
                                                            (owner.empty() ? "" : " (" + owner + ")"),
                      "use another port: --port or OPENTABS_PORT"});
  } else if (auto proof = secret ? bridge::prove_server_now(ctx.port.port, *secret) : result<std::string>(std::string());
             !proof) {
    // Nothing that carries the secret goes to a listener that could not prove it knows it.
    checks.push_back({"server proves the secret", verdict::fail, proof.err().message,
                      "stop that program (or run the CLI with the server's OPENTABS_CONFIG_DIR), then `opentabs start`"});
  } else {
    checks.push_back({"server reachable", verdict::pass, "opentabs " + *version + " on port " + std::to_string(ctx.port.port), ""});
    if (secret) checks.push_back({"server proves the secret", verdict::pass, "the server answered the challenge with the secret's HMAC", ""});
    if (*version != OPENTABS_VERSION)
      checks.push_back({"server version", verdict::warn, "server is " + *version + ", this CLI is " OPENTABS_VERSION,
                        "restart the server: `opentabs stop && opentabs start --background`"});
    else
      checks.push_back({"server version", verdict::pass, "same as the CLI (" OPENTABS_VERSION ")", ""});
    auto h = api.get_json("/health");
    if (!h) {
      checks.push_back({"authenticated /health", verdict::fail, h.err().message,
                        "run the CLI with the server's OPENTABS_CONFIG_DIR"});
    } else if (h->is_object()) {
      health = h->as_object();
      checks.push_back({"authenticated /health", verdict::pass, "the server accepts the secret", ""});
    }
    if (secret) checks.push_back(websocket_check(ctx.port.port, *secret));
  }
  return health;
}

// What the server's /health says about the extension and the plugins.
void health_checks(const config::config_paths& paths, const std::optional<json::object>& health, std::vector<check>& checks) {
  if (health) {
    bool connected = json::get_bool(*health, "extensionConnected").value_or(false);
    checks.push_back(connected ? check{"extension connected", verdict::pass,
                                       std::to_string(json::get_int(*health, "extensionConnections").value_or(1)) + " connection(s)", ""}
                               : check{"extension connected", verdict::fail, "no extension is connected",
                                       "load " + paths.extension_dir().string() +
                                           " in chrome://extensions (Developer mode → Load unpacked), or reload it"});
    std::size_t loaded = 0;
    if (auto d = json::get_array(*health, "pluginDetails")) loaded = d->size();
    checks.push_back({"plugins loaded", verdict::pass, std::to_string(loaded) + " plugin(s)", ""});
    if (auto failed = json::get_array(*health, "failedPlugins"))
      for (const auto& f : *failed) {
        if (!f.is_object()) continue;
        auto path = json::get_string(f.as_object(), "path");
        auto err = json::get_string(f.as_object(), "error");
        checks.push_back({"plugin failed", verdict::fail,
                          std::string(path ? *path : "?") + ": " + std::string(err ? *err : "?"),
                          "rebuild the plugin (npm run build) or remove it: `opentabs plugin remove <name>`"});
      }
  } else {
    checks.push_back({"extension connected", verdict::skip, "server not reachable", ""});
    checks.push_back({"plugins loaded", verdict::skip, "server not reachable", ""});
  }
}

int report(context& ctx, const std::vector<check>& checks) {
  bool any_fail = false;
  for (const auto& c : checks) any_fail = any_fail || c.result == verdict::fail;
  if (ctx.json) {
    json::array arr;
    for (const auto& c : checks) {
      json::object o{{"check", json::str(c.name)}, {"status", verdict_name(c.result)}, {"detail", json::str(c.detail)}};
      if (!c.fix.empty()) o["fix"] = json::str(c.fix);
      arr.push_back(std::move(o));
    }
    print_json(json::object{{"ok", !any_fail}, {"checks", std::move(arr)}});
    return any_fail ? kExitFailure : kExitOk;
  }
  bool col = ctx.term.color_stdout;
  for (const auto& c : checks) {
    std::string mark = c.result == verdict::pass   ? green("✓", col)
                       : c.result == verdict::warn ? yellow("!", col)
                       : c.result == verdict::fail ? red("✗", col)
                                                   : dim("-", col);
    print_line(mark + " " + bold(c.name, col) + "  " + c.detail);
    if (!c.fix.empty() && c.result != verdict::pass) print_line("    " + dim("fix: ", col) + c.fix);
  }
  print_line(any_fail ? red("Some checks failed.", col) : green("All checks passed.", col));
  return any_fail ? kExitFailure : kExitOk;
}

}  // namespace

int cmd_doctor(context& ctx, const parsed_command&) {
  std::vector<check> checks;
  auto secret = file_checks(ctx.paths, checks);
  extension_copy_check(ctx.paths, checks);
  auto health = server_checks(ctx, secret, checks);
  health_checks(ctx.paths, health, checks);
  mcp_client_checks(checks, secret);
  return report(ctx, checks);
}

}  // namespace opentabs::cli
