// `opentabs status` (also bare `opentabs`): the authenticated /health payload, pretty or raw.
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/output.hpp"
#include "cli/server_api.hpp"

namespace opentabs::cli {

namespace {

std::string duration_text(std::int64_t seconds) {
  std::int64_t d = seconds / 86400, h = seconds % 86400 / 3600, m = seconds % 3600 / 60, s = seconds % 60;
  if (d) return std::to_string(d) + "d " + std::to_string(h) + "h";
  if (h) return std::to_string(h) + "h " + std::to_string(m) + "m";
  if (m) return std::to_string(m) + "m " + std::to_string(s) + "s";
  return std::to_string(s) + "s";
}

std::string str_or(const json::object& o, std::string_view key, std::string fallback = "") {
  if (auto s = json::get_string(o, key)) return std::string(*s);
  return fallback;
}

std::string int_or(const json::object& o, std::string_view key) {
  if (auto n = json::get_int(o, key)) return std::to_string(*n);
  return "?";
}

// Clients in use (a request or open stream within the last minute, by default); sessions that only
// wait for their idle expiry are named apart so a list of dead clients does not read as
// six agents connected.  A server without the count (an older opentabs, the original)
// reports its sessions as they are.
std::string mcp_clients_text(const json::object& h) {
  auto active = json::get_int(h, "mcpClientsActive");
  if (!active) return int_or(h, "mcpClients") + " session(s)";
  std::string text = std::to_string(*active) + " active";
  if (auto idle = json::get_int(h, "mcpSessionsIdle"); idle && *idle > 0)
    text += ", " + std::to_string(*idle) + " idle session(s) (no request lately; they expire unused)";
  return text;
}

}  // namespace

int cmd_status(context& ctx, const parsed_command&) {
  server_api api(ctx.port.port, ctx.paths);
  auto health = api.get_json("/health");
  if (!health) return report_error(ctx, health.err());
  if (ctx.json) {
    print_json(*health);
    return kExitOk;
  }
  if (!health->is_object()) return report_error(ctx, net::net_failure::bad_response, "GET /health did not return an object");
  const auto& h = health->as_object();
  bool c = ctx.term.color_stdout;

  std::string uptime = json::get_int(h, "uptime") ? duration_text(*json::get_int(h, "uptime")) : "?";
  print_line(green("●", c) + " " + bold("opentabs " + str_or(h, "version", "?"), c) + " running on http://127.0.0.1:" +
             std::to_string(ctx.port.port) + " (" + str_or(h, "mode", "production") + ", up " + uptime + ")");
  bool ext = json::get_bool(h, "extensionConnected").value_or(false);
  if (ext) {
    print_line("  Extension:   " + green("connected", c) + " (" + int_or(h, "extensionConnections") + " connection(s))");
  } else {
    print_line("  Extension:   " + yellow("not connected", c) + dim(" — load " + ctx.paths.extension_dir().string() +
                                                                       " in chrome://extensions (Developer mode → Load unpacked)",
                                                                   c));
  }
  print_line("  MCP clients: " + mcp_clients_text(h));
  print_line("  Tools:       " + int_or(h, "toolCount") + " (" + int_or(h, "browserToolCount") + " browser, " +
             int_or(h, "pluginToolCount") + " plugin)");
  if (json::get_bool(h, "skipPermissions").value_or(false))
    print_line("  " + yellow("Permissions: approval prompts skipped (OPENTABS_DANGEROUSLY_SKIP_PERMISSIONS)", c));

  std::vector<std::vector<std::string>> rows;
  if (auto details = json::get_array(h, "pluginDetails")) {
    for (const auto& d : *details) {
      if (!d.is_object()) continue;
      const auto& p = d.as_object();
      std::size_t tabs = 0;
      if (auto t = json::get_array(p, "tabs")) tabs = t->size();
      rows.push_back({str_or(p, "name"), int_or(p, "toolCount"), str_or(p, "tabState", "-"), std::to_string(tabs),
                      str_or(p, "permission", "-"), str_or(p, "source", "-")});
    }
  }
  print_line("");
  if (rows.empty()) {
    print_line("  No plugins. Find some with `opentabs plugin search`.");
  } else {
    std::string table =
        render_table({"PLUGIN", "TOOLS", "TAB STATE", "TABS", "PERMISSION", "SOURCE"}, rows, ctx.term.width, c);
    std::fwrite(table.data(), 1, table.size(), stdout);
  }
  if (auto failed = json::get_array(h, "failedPlugins"); failed && !failed->empty()) {
    print_line("");
    print_line(red("Failed plugins:", c));
    for (const auto& f : *failed)
      if (f.is_object()) print_line("  " + str_or(f.as_object(), "path") + ": " + str_or(f.as_object(), "error"));
  }
  return kExitOk;
}

}  // namespace opentabs::cli
