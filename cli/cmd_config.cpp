// `opentabs config set | path | show | reset | rotate-secret`: edits of config.json and
// auth.json through the config module, followed by POST /reload so a running server
// picks the change up.
#include <filesystem>
#include <string>

#include "cli/commands.hpp"
#include "cli/output.hpp"
#include "cli/prompt.hpp"
#include "cli/server_api.hpp"
#include "config/auth_secret.hpp"
#include "config/cli_setting.hpp"
#include "config/config.hpp"
#include "config/config_store.hpp"
#include "util/files.hpp"
#include "util/strings.hpp"

namespace opentabs::cli {

namespace {

// The plugin a key names ("plugin-permission.slack" → "slack"), empty for other keys.
std::string plugin_of_key(std::string_view key) {
  for (std::string_view prefix : {"tool-permission.", "plugin-permission.", "setting."}) {
    if (!starts_with(key, prefix)) continue;
    auto rest = key.substr(prefix.size());
    return std::string(rest.substr(0, rest.find('.')));
  }
  return {};
}

// Refuses a plugin the running server does not know (a typo would otherwise silently
// configure nothing).  No server, no check.
status check_known_plugin(const server_api& api, const std::string& plugin) {
  // WebMCP sites ("webmcp:<site>") exist only while a page is open: no check.
  if (plugin.empty() || plugin == "browser" || starts_with(plugin, "webmcp:")) return ok();
  auto health = api.get_json("/health");
  if (!health || !health->is_object()) return ok();
  std::vector<std::string> names;
  if (auto details = json::get_array(health->as_object(), "pluginDetails"))
    for (const auto& d : *details)
      if (d.is_object())
        if (auto n = json::get_string(d.as_object(), "name")) names.emplace_back(*n);
  if (std::find(names.begin(), names.end(), plugin) != names.end()) return ok();
  auto hint = closest_match(plugin, names);
  return make_error(errc::not_found, "the running server has no plugin '" + plugin + "'" +
                                          (hint.empty() ? "" : "; did you mean '" + hint + "'?") +
                                          " (use --force to set it anyway)");
}

}  // namespace

int cmd_config_set(context& ctx, const parsed_command& cmd) {
  const std::string key = *cmd.arg(0);
  auto value = cmd.arg(1);
  if (!value)
    return report_error(ctx, cli_failure::usage, "missing value for '" + key + "'; usage: opentabs config set <key> <value>");
  server_api api(ctx.port.port, ctx.paths);
  if (!cmd.has("force"))
    if (auto st = check_known_plugin(api, plugin_of_key(key)); !st) return report_error(ctx, st.err());

  return apply_config_setting(ctx, key, *value);
}

int apply_config_setting(context& ctx, const std::string& key, const std::string& value) {
  server_api api(ctx.port.port, ctx.paths);
  auto home = config::home_directory();
  if (!home) return report_error(ctx, home.err());
  if (auto st = config::ensure_config_dir(ctx.paths); !st) return report_error(ctx, st.err());
  config::cli_path_context pc{std::filesystem::current_path(), *home, ctx.paths.dir};
  config::config_store store(ctx.paths.config_json(), *home);
  std::string outcome;
  auto written = store.update([&](json::object& root) -> result<bool> {
    auto r = config::apply_cli_setting(root, key, value, pc);
    if (!r) return r.err();
    outcome = *r;
    return true;
  });
  if (!written) return report_error(ctx, written.err());
  print_line(outcome);
  print_note(ctx, api.notify_reload());
  return kExitOk;
}

int cmd_config_path(context& ctx, const parsed_command&) {
  print_line(ctx.paths.config_json().string());
  return kExitOk;
}

int cmd_config_show(context& ctx, const parsed_command& cmd) {
  json::object root;
  bool exists = std::filesystem::exists(ctx.paths.config_json());
  if (exists) {
    auto text = read_file(ctx.paths.config_json(), config::kMaxConfigBytes);
    if (!text) return report_error(ctx, with_context("cannot read " + ctx.paths.config_json().string() + ": ", text.err()));
    auto parsed = config::parse_config_text(*text, ctx.paths.config_json());
    if (!parsed) return report_error(ctx, parsed.err());
    root = std::move(*parsed);
  } else {
    root = config::default_config_object();
  }
  auto secret = config::load_secret(ctx.paths.auth_json());
  json::value secret_value = nullptr;
  if (secret) secret_value = json::str(cmd.has("show-secret") ? *secret : config::mask_secret(*secret));

  if (ctx.json) {
    json::object out = root;
    out["secret"] = secret_value;
    print_json(out);
    return kExitOk;
  }
  bool c = ctx.term.color_stdout;
  print_line(bold("Config file:", c) + " " + ctx.paths.config_json().string() + (exists ? "" : " (not created yet; showing defaults)"));
  print_line(bold("Secret:", c) + "      " +
             (secret ? std::string(secret_value.as_string()) : "none (" + secret.err().message + ")") +
             (secret && !cmd.has("show-secret") ? dim("  (--show-secret to reveal)", c) : ""));
  print_line(bold("Port:", c) + "        " + std::to_string(ctx.port.port) + dim(" (from " + ctx.port.source + ")", c));
  print_line("");
  std::string text = json::dump_pretty(root);
  if (!text.empty() && text.back() == '\n') text.pop_back();
  print_line(text);
  return kExitOk;
}

int cmd_config_reset(context& ctx, const parsed_command& cmd) {
  const auto path = ctx.paths.config_json();
  if (!std::filesystem::exists(path)) {
    print_line("nothing to reset: " + path.string() + " does not exist");
    return kExitOk;
  }
  if (!cmd.has("confirm")) {
    if (!ctx.term.stdin_tty)
      return report_error(ctx, cli_failure::usage, "refusing to delete " + path.string() + " without --confirm");
    if (!confirm(ctx.term, "Delete " + path.string() + " (permissions, settings, local plugins)?"))
      return report_error(ctx, errc::cancelled, "cancelled; nothing was changed");
  }
  auto home = config::home_directory();
  if (!home) return report_error(ctx, home.err());
  config::config_store store(path, *home);
  if (auto removed = store.remove(); !removed) return report_error(ctx, removed.err());
  print_line("deleted " + path.string());
  server_api api(ctx.port.port, ctx.paths);
  print_note(ctx, api.notify_reload());
  return kExitOk;
}

int cmd_config_rotate_secret(context& ctx, const parsed_command& cmd) {
  if (!cmd.has("confirm")) {
    if (!ctx.term.stdin_tty)
      return report_error(ctx, cli_failure::usage, "refusing to rotate the secret without --confirm");
    if (!confirm(ctx.term, "Generate a new secret? MCP clients configured with the old one must be updated"))
      return report_error(ctx, errc::cancelled, "cancelled; nothing was changed");
  }
  server_api api(ctx.port.port, ctx.paths);
  auto old_secret = config::load_secret(ctx.paths.auth_json());
  if (auto st = config::ensure_extension_dirs(ctx.paths); !st) return report_error(ctx, st.err());
  auto fresh = config::rotate_secret(ctx.paths.auth_json());
  if (!fresh) return report_error(ctx, fresh.err());
  print_line("new secret written to " + ctx.paths.auth_json().string());
  // The server still holds the old secret: authenticate this one reload with it.
  std::optional<std::string> token;
  if (old_secret) token = *old_secret;
  auto r = api.call_with_secret("POST", "/reload", "", token, std::chrono::seconds(30));
  if (!r) {
    if (r.err().is(bridge::contact_failure::server_not_running)) {
      print_note(ctx, "server not running; it uses the new secret when it starts");
      return kExitOk;
    }
    return report_error(ctx, with_context("secret rotated, but reloading the server failed: ", r.err()));
  }
  if (r->status != 200)
    return report_error(ctx, cli_failure::server_error, "secret rotated, but the server reload failed (HTTP " + std::to_string(r->status) + "): " + server_error_text(*r));
  print_note(ctx, "server reloaded; the extension reconnects with the new secret. Update your MCP client configuration (`opentabs start --show-config`)");
  return kExitOk;
}

}  // namespace opentabs::cli
