// The opentabs command dispatcher: parse argv against the command table, resolve the
// context (config dir, port, terminal), run one command.
#include "cli/cli.hpp"

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "cli/command_table.hpp"
#include "cli/commands.hpp"
#include "cli/output.hpp"

namespace opentabs::cli {

namespace {

using command_fn = std::function<int(context&, const parsed_command&)>;

const std::map<std::string, command_fn>& handlers() {
  static const std::map<std::string, command_fn> m = {
      {"start", cmd_start},
      {"stop", cmd_stop},
      {"status", cmd_status},
      {"audit", cmd_audit},
      {"logs", cmd_logs},
      {"doctor", cmd_doctor},
      {"extension install", cmd_extension_install},
      {"plugin search", cmd_plugin_search},
      {"plugin list", cmd_plugin_list},
      {"plugin install", cmd_plugin_install},
      {"plugin remove", cmd_plugin_remove},
      {"plugin configure", cmd_plugin_configure},
      {"plugin create", cmd_plugin_create},
      {"tool list", cmd_tool_list},
      {"tool schema", cmd_tool_schema},
      {"tool call", cmd_tool_call},
      {"config set", cmd_config_set},
      {"config path", cmd_config_path},
      {"config show", cmd_config_show},
      {"config reset", cmd_config_reset},
      {"config rotate-secret", cmd_config_rotate_secret},
      {"native-host install", cmd_native_host_install},
      {"native-host uninstall", cmd_native_host_uninstall},
      {"native-host status", cmd_native_host_status},
      {"native-host run", cmd_native_host_run},
  };
  return m;
}

std::optional<std::string_view> env(const char* name) {
  const char* v = std::getenv(name);
  if (!v) return std::nullopt;
  return std::string_view(v);
}

}  // namespace

int run(int argc, char** argv) {
  std::vector<std::string> words(argv + 1, argv + argc);
  context ctx;
  bool no_color = false;
  for (const auto& w : words)
    if (w == "--no-color") no_color = true;
  ctx.term = terminal::detect(no_color);
  for (const auto& w : words)
    if (w == "--json") ctx.json = true;

  const auto& table = command_table();
  auto parsed = parse_command_line(table, words);
  if (!parsed) return report_error(ctx, parsed.err());
  const parsed_command& cmd = *parsed;
  ctx.json = cmd.has("json");

  if (cmd.version) {
    print_line(OPENTABS_VERSION);
    return kExitOk;
  }
  if (cmd.help) {
    std::string text = cmd.command            ? render_command_help(*cmd.command, ctx.term.width)
                       : !cmd.group_help.empty() ? render_group_help(table, cmd.group_help, ctx.term.width)
                                                 : render_overview_help(table, ctx.term.width);
    std::fwrite(text.data(), 1, text.size(), stdout);
    return kExitOk;
  }

  auto paths = config::config_paths_from_environment();
  if (!paths) return report_error(ctx, paths.err());
  ctx.paths = *paths;
  // Only a foreground `start` can run on an ephemeral port (it prints the port it got).
  const bool ephemeral_ok = cmd.command->path == "start" && !cmd.has("background") && !cmd.has("stdio");
  // Every command honours the server's PORT variable the same way `start` does (after
  // --port and OPENTABS_PORT, the CLI's variable), so `PORT=n opentabs status` finds a
  // server started with `PORT=n opentabs start`.
  auto env_port = env("OPENTABS_PORT");
  std::string_view env_name = "OPENTABS_PORT";
  if (!env_port || env_port->empty()) {
    env_port = env("PORT");
    env_name = "PORT";
  }
  auto port = resolve_port(cmd.value("port"), env_port, read_config_port(ctx.paths), ephemeral_ok, env_name);
  if (!port) return report_error(ctx, port.err());
  ctx.port = *port;

  auto it = handlers().find(cmd.command->path);
  if (it == handlers().end()) return report_error(ctx, errc::internal, "command '" + cmd.command->path + "' has no handler");
  std::fflush(stdout);
  int code = it->second(ctx, cmd);
  std::fflush(stdout);
  return code;
}

}  // namespace opentabs::cli
