// `opentabs plugin search | list | install | remove | configure | create`.  npm work is
// delegated to the npm client (search, install -g, uninstall -g) with progress feedback;
// local plugins are edited in config.json; the running server is told to reload.
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "app/npm_commands.hpp"
#include "cli/cli_failure.hpp"
#include "cli/commands.hpp"
#include "cli/output.hpp"
#include "cli/plugin_scaffold.hpp"
#include "cli/process.hpp"
#include "cli/prompt.hpp"
#include "cli/server_api.hpp"
#include "config/cli_setting.hpp"
#include "config/config_migrations.hpp"
#include "config/config_store.hpp"
#include "plugins/naming.hpp"
#include "util/control_chars.hpp"
#include "util/files.hpp"
#include "util/strings.hpp"

namespace opentabs::cli {

namespace {

namespace fs = std::filesystem;

constexpr auto kNpmSearchTimeout = std::chrono::seconds(60);
constexpr auto kNpmInstallTimeout = std::chrono::seconds(180);

// `slack` → the npm packages it may mean, most likely first.
std::vector<std::string> package_candidates(const std::string& name) {
  if (name.find('/') != std::string::npos || starts_with(name, "opentabs-plugin-")) return {name};
  return {"@opentabs-dev/opentabs-plugin-" + name, "opentabs-plugin-" + name};
}

result<captured> run_npm(const context& ctx, const std::vector<std::string>& args, const std::string& message,
                         std::chrono::milliseconds timeout) {
  std::vector<std::string> argv = {"npm"};
  argv.insert(argv.end(), args.begin(), args.end());
  progress prog(ctx.term, message);
  auto r = run_capture(argv, timeout, [&] { prog.tick(); });
  if (!r) {
    prog.fail();
    if (r.err().is(errc::not_found)) return make_error(cli_failure::npm_missing, "npm is not installed; it is needed to " + message);
    return r.err();
  }
  if (r->timed_out) {
    prog.fail();
    return make_error(errc::timeout, "npm did not finish within " + std::to_string(timeout.count() / 1000) + " s");
  }
  if (r->exit_code != 0) prog.fail();
  else prog.done();
  return r;
}

// The last meaningful line of npm's stderr ("npm error 404 Not Found ...").
std::string npm_reason(const captured& c) {
  std::string best;
  for (auto line : split(c.err, '\n')) {
    auto t = trim(line);
    if (t.empty()) continue;
    if (t.find("404") != std::string_view::npos || t.find("ERR") != std::string_view::npos ||
        t.find("error") != std::string_view::npos)
      if (best.empty()) best = std::string(t);
  }
  if (best.empty()) {
    auto t = trim(c.err);
    best = std::string(t.substr(0, 300));
  }
  return best.empty() ? "exit code " + std::to_string(c.exit_code) : best;
}

struct installed_plugin {
  std::string name;
  std::string version;
  std::string source;  // "npm" or "local"
  std::string location;
};

std::optional<installed_plugin> read_plugin_dir(const fs::path& dir, const std::string& source) {
  auto text = read_file(dir / "package.json", 1024 * 1024);
  if (!text) return std::nullopt;
  auto pkg = json::parse_object(*text);
  if (!pkg || !json::get_object(*pkg, "opentabs")) return std::nullopt;
  installed_plugin p;
  auto pkg_name = json::get_string(*pkg, "name");
  if (!pkg_name) p.name = dir.filename().string();
  else if (auto name = plugins::plugin_name_from_package(*pkg_name)) p.name = *name;
  else p.name = std::string(*pkg_name);
  if (auto v = json::get_string(*pkg, "version")) p.version = std::string(*v);
  p.source = source;
  p.location = dir.string();
  return p;
}

// Plugins on disk, for when the server is not running: npm globals and localPlugins.
std::vector<installed_plugin> offline_plugins(const context& ctx, std::vector<std::string>& notes) {
  std::vector<installed_plugin> out;
  auto root = run_capture({"npm", "root", "-g"}, std::chrono::seconds(15));
  if (root && root->exit_code == 0) {
    fs::path dir(std::string(trim(root->out)));
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
      auto n = e.path().filename().string();
      if (starts_with(n, "opentabs-plugin-")) {
        if (auto p = read_plugin_dir(e.path(), "npm")) out.push_back(*p);
      } else if (starts_with(n, "@")) {
        std::error_code ec2;
        for (const auto& s : fs::directory_iterator(e.path(), ec2))
          if (starts_with(s.path().filename().string(), "opentabs-plugin-"))
            if (auto p = read_plugin_dir(s.path(), "npm")) out.push_back(*p);
      }
    }
  } else {
    notes.push_back("npm globals not scanned (npm unavailable)");
  }
  auto text = read_file(ctx.paths.config_json(), 1024 * 1024);
  auto home = config::home_directory();
  if (text && home) {
    if (auto cfg = json::parse_object(*text))
      if (auto locals = json::get_array(*cfg, "localPlugins"))
        for (const auto& l : *locals) {
          if (!l.is_string()) continue;
          fs::path p = config::expand_home(std::string(l.as_string()), *home);
          if (p.is_relative()) p = ctx.paths.dir / p;
          if (auto pl = read_plugin_dir(p, "local")) out.push_back(*pl);
          else notes.push_back("local plugin " + std::string(l.as_string()) + " has no valid package.json");
        }
  }
  return out;
}

}  // namespace

int cmd_plugin_search(context& ctx, const parsed_command& cmd) {
  std::vector<std::string> args = {"search", "--json", "--searchlimit", "50", "keywords:opentabs-plugin"};
  if (auto q = cmd.arg(0)) args.push_back(*q);
  auto r = run_npm(ctx, args, "searching the npm registry", kNpmSearchTimeout);
  if (!r) return report_error(ctx, r.err());
  // The registry answers a search that matches nothing with 404 (npm: E404); that is an
  // empty result, not a failure, as the original CLI reports it.
  const bool nothing_found = r->exit_code != 0 && app::npm::describe_failure(r->err, r->exit_code).kind == app::npm::failure_kind::package_not_found;
  if (r->exit_code != 0 && !nothing_found) return report_error(ctx, cli_failure::npm_failed, "npm search failed: " + npm_reason(*r));
  auto v = nothing_found ? result<json::value>(json::array{}) : json::parse(r->out);
  if (!v || !v->is_array()) return report_error(ctx, net::net_failure::bad_response, "npm search did not return a JSON list");
  if (ctx.json) {
    print_json(*v);
    return kExitOk;
  }
  std::vector<std::vector<std::string>> rows;
  for (const auto& item : v->as_array()) {
    if (!item.is_object()) continue;
    const auto& o = item.as_object();
    auto s = [&](std::string_view k) {
      auto x = json::get_string(o, k);
      return x ? std::string(*x) : std::string();
    };
    rows.push_back({s("name"), s("version"), s("description")});
  }
  if (rows.empty()) {
    print_line(cmd.arg(0) ? "No plugins found matching \"" + *cmd.arg(0) + "\"" : std::string("No plugins found"));
    return kExitOk;
  }
  std::string table = render_table({"PACKAGE", "VERSION", "DESCRIPTION"}, rows, ctx.term.width, ctx.term.color_stdout);
  std::fwrite(table.data(), 1, table.size(), stdout);
  print_note(ctx, "install with `opentabs plugin install <package>`");
  return kExitOk;
}

int cmd_plugin_list(context& ctx, const parsed_command& cmd) {
  server_api api(ctx.port.port, ctx.paths);
  auto health = api.get_json("/health");
  if (health && health->is_object()) {
    json::array details;
    if (auto d = json::get_array(health->as_object(), "pluginDetails")) details = *d;
    if (ctx.json) {
      print_json(details);
      return kExitOk;
    }
    std::vector<std::vector<std::string>> rows;
    for (const auto& d : details) {
      if (!d.is_object()) continue;
      const auto& p = d.as_object();
      auto s = [&](std::string_view k) {
        auto x = json::get_string(p, k);
        return x ? std::string(*x) : std::string("-");
      };
      std::string tools = std::to_string(json::get_int(p, "toolCount").value_or(0));
      if (cmd.has("verbose"))
        if (auto t = json::get_array(p, "tools")) {
          tools.clear();
          for (const auto& n : *t)
            if (n.is_string()) tools += (tools.empty() ? "" : ", ") + std::string(n.as_string());
        }
      rows.push_back({s("name"), s("displayName"), tools, s("permission"), s("tabState"), s("source")});
    }
    if (rows.empty()) {
      print_line("no plugins installed; find some with `opentabs plugin search`");
    } else {
      std::string table = render_table({"PLUGIN", "NAME", "TOOLS", "PERMISSION", "TAB STATE", "SOURCE"}, rows,
                                       ctx.term.width, ctx.term.color_stdout);
      std::fwrite(table.data(), 1, table.size(), stdout);
    }
    if (auto failed = json::get_array(health->as_object(), "failedPlugins"); failed && !failed->empty()) {
      print_note(ctx, std::to_string(failed->size()) + " plugin(s) failed to load:");
      for (const auto& f : *failed) {
        if (!f.is_object()) continue;
        const auto* path = json::get_string(f.as_object(), "path");
        const auto* error = json::get_string(f.as_object(), "error");
        // Both come from plugin files: never raw to the terminal.
        print_note(ctx, "  " + escape_control_chars(path ? std::string_view(*path) : "?") + ": " +
                            escape_control_chars(error ? std::string_view(*error) : "?"));
      }
    }
    return kExitOk;
  }
  if (!health && !health.err().is(bridge::contact_failure::server_not_running)) return report_error(ctx, health.err());
  std::vector<std::string> notes;
  auto plugins = offline_plugins(ctx, notes);
  if (ctx.json) {
    json::array arr;
    for (const auto& p : plugins)
      arr.push_back(json::object{{"name", json::str(p.name)},
                                 {"version", json::str(p.version)},
                                 {"source", json::str(p.source)},
                                 {"path", json::str(p.location)}});
    print_json(arr);
    return kExitOk;
  }
  print_note(ctx, "server not running; listing plugins found on disk");
  for (const auto& n : notes) print_note(ctx, n);
  if (plugins.empty()) {
    print_line("no plugins installed; find some with `opentabs plugin search`");
    return kExitOk;
  }
  std::vector<std::vector<std::string>> rows;
  for (const auto& p : plugins) rows.push_back({p.name, p.version, p.source, p.location});
  std::string table = render_table({"PLUGIN", "VERSION", "SOURCE", "PATH"}, rows, ctx.term.width, ctx.term.color_stdout);
  std::fwrite(table.data(), 1, table.size(), stdout);
  return kExitOk;
}

int cmd_plugin_install(context& ctx, const parsed_command& cmd) {
  const std::string name = *cmd.arg(0);
  std::string last_reason;
  for (const auto& pkg : package_candidates(name)) {
    auto r = run_npm(ctx, {"install", "-g", pkg}, "installing " + pkg, kNpmInstallTimeout);
    if (!r) return report_error(ctx, r.err());
    if (r->exit_code == 0) {
      print_line("installed " + pkg);
      server_api api(ctx.port.port, ctx.paths);
      print_note(ctx, api.notify_reload());
      print_note(ctx, "new plugins start disabled: review and enable them in the side panel (or `opentabs config set "
                      "plugin-permission.<plugin> auto`)");
      return kExitOk;
    }
    last_reason = npm_reason(*r);
    // Only a package the registry does not have sends us on to the next candidate name.
    if (app::npm::describe_failure(r->err, r->exit_code).kind != app::npm::failure_kind::package_not_found) break;
  }
  return report_error(ctx, cli_failure::install_failed, "could not install '" + name + "': " + last_reason);
}

int cmd_plugin_remove(context& ctx, const parsed_command& cmd) {
  const std::string name = *cmd.arg(0);
  if (!cmd.has("confirm")) {
    if (!ctx.term.stdin_tty) return report_error(ctx, cli_failure::usage, "refusing to remove '" + name + "' without -y/--confirm");
    if (!confirm(ctx.term, "Remove plugin '" + name + "'?")) return report_error(ctx, errc::cancelled, "cancelled; nothing was changed");
  }
  server_api api(ctx.port.port, ctx.paths);
  // A local plugin: its path as given, or the path of the local plugin with that name.
  auto home = config::home_directory();
  if (!home) return report_error(ctx, home.err());
  std::vector<std::string> notes;
  std::string local_path;
  for (const auto& p : offline_plugins(ctx, notes))
    if (p.source == "local" && (p.name == name || p.location == name)) local_path = p.location;
  if (local_path.empty() && (name.find('/') != std::string::npos && !starts_with(name, "@"))) local_path = name;
  if (!local_path.empty()) return apply_config_setting(ctx, "localPlugins.remove", local_path);
  std::string last_reason;
  for (const auto& pkg : package_candidates(name)) {
    auto list = run_capture({"npm", "ls", "-g", "--depth=0", "--json", pkg}, std::chrono::seconds(30));
    if (list && list->exit_code == 0 && list->out.find("\"" + pkg + "\"") != std::string::npos) {
      auto r = run_npm(ctx, {"uninstall", "-g", pkg}, "removing " + pkg, kNpmInstallTimeout);
      if (!r) return report_error(ctx, r.err());
      if (r->exit_code != 0) return report_error(ctx, cli_failure::remove_failed, "npm uninstall failed: " + npm_reason(*r));
      print_line("removed " + pkg);
      print_note(ctx, api.notify_reload());
      return kExitOk;
    }
    if (!list && list.err().is(errc::not_found)) return report_error(ctx, cli_failure::npm_missing, "npm is not installed");
  }
  return report_error(ctx, errc::not_found, "no installed plugin '" + name + "' (neither a local plugin nor an npm package); see `opentabs plugin list`");
}

int cmd_plugin_configure(context& ctx, const parsed_command& cmd) {
  const std::string name = *cmd.arg(0);
  server_api api(ctx.port.port, ctx.paths);
  auto health = api.get_json("/health");
  if (!health) return report_error(ctx, health.err());
  const json::object* plugin = nullptr;
  std::vector<std::string> names;
  if (health->is_object())
    if (auto d = json::get_array(health->as_object(), "pluginDetails"))
      for (const auto& p : *d)
        if (p.is_object())
          if (auto n = json::get_string(p.as_object(), "name")) {
            names.emplace_back(*n);
            if (*n == name) plugin = &p.as_object();
          }
  if (!plugin) {
    auto hint = closest_match(name, names);
    return report_error(ctx, errc::not_found, "no plugin '" + name + "'" + (hint.empty() ? "" : "; did you mean '" + hint + "'?"));
  }
  const json::object* schema = json::get_object(*plugin, "configSchema");
  if (!schema || schema->empty()) {
    print_line("plugin '" + name + "' has no settings");
    return kExitOk;
  }
  if (!ctx.term.stdin_tty)
    return report_error(ctx, cli_failure::usage, "`plugin configure` asks questions and needs a terminal; in scripts use "
                                      "`opentabs config set setting." + name + ".<key> <value>`");
  json::object settings;
  for (const auto& [key, spec_v] : *schema) {
    if (!spec_v.is_object()) continue;
    const auto& spec = spec_v.as_object();
    auto type = json::get_string(spec, "type");
    auto label = json::get_string(spec, "label");
    auto desc = json::get_string(spec, "description");
    bool required = json::get_bool(spec, "required").value_or(false);
    std::string title = std::string(label ? *label : std::string_view(key)) + (required ? " (required)" : "");
    print_line(bold(title, ctx.term.color_stdout) + (desc ? dim(" — " + std::string(*desc), ctx.term.color_stdout) : ""));
    std::string t = type ? std::string(*type) : "string";
    if (t == "url") {
      json::object instances;
      while (true) {
        auto inst = ask_line("  instance name (empty to finish" + std::string(instances.empty() ? ", e.g. default" : "") + "): ");
        if (!inst || trim(*inst).empty()) break;
        auto url = ask_line("  URL for " + std::string(trim(*inst)) + ": ");
        if (!url || trim(*url).empty()) break;
        instances[std::string(trim(*inst))] = json::str(trim(*url));
      }
      if (!instances.empty()) settings[key] = std::move(instances);
      continue;
    }
    std::string hint = t == "boolean" ? " [true/false]" : "";
    if (t == "select")
      if (auto opts = json::get_array(spec, "options")) {
        hint = " [";
        for (std::size_t i = 0; i < opts->size(); ++i)
          if ((*opts)[i].is_string()) hint += (i ? "/" : "") + std::string((*opts)[i].as_string());
        hint += "]";
      }
    auto answer = ask_line("  value" + hint + " (empty to skip): ");
    if (!answer || trim(*answer).empty()) continue;
    std::string a(trim(*answer));
    if (t == "boolean") settings[key] = (a == "true" || a == "yes" || a == "y");
    else if (t == "number") {
      char* end = nullptr;
      double d = std::strtod(a.c_str(), &end);
      if (*end != '\0') return report_error(ctx, cli_failure::usage, "'" + a + "' is not a number");
      settings[key] = d;
    } else settings[key] = json::str(a);
  }
  json::object body{{"plugin", json::str(name)}, {"settings", std::move(settings)}};
  auto r = api.call("POST", "/plugin-settings", json::dump(body));
  if (!r) return report_error(ctx, r.err());
  if (r->status == 202) {
    auto answer = json::parse_object(r->body);
    const auto* message = answer ? json::get_string(*answer, "message") : nullptr;
    print_line("settings for " + name + " " + (message ? std::string(*message) : std::string("accepted but not written yet")));
    return kExitOk;
  }
  if (r->status != 200) return report_error(ctx, cli_failure::server_error, "saving the settings failed: " + server_error_text(*r));
  print_line("saved settings for " + name);
  return kExitOk;
}

int cmd_plugin_create(context& ctx, const parsed_command& cmd) {
  scaffold_inputs in;
  if (auto n = cmd.arg(0)) in.name = *n;
  else if (ctx.term.stdin_tty) {
    auto n2 = ask_line("plugin name (kebab-case): ");
    if (n2) in.name = std::string(trim(*n2));
  }
  if (in.name.empty()) return report_error(ctx, cli_failure::usage, "missing plugin name; usage: opentabs plugin create <name>");
  in.domain = cmd.value("domain").value_or("");
  in.display = cmd.value("display").value_or("");
  in.description = cmd.value("description").value_or("");
  if (auto st = validate_scaffold(in); !st) return report_error(ctx, st.err());
  fs::path dir = fs::current_path() / ("opentabs-plugin-" + in.name);
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_empty(dir, ec))
    return report_error(ctx, cli_failure::exists, dir.string() + " already exists and is not empty");
  for (const auto& [rel, content] : scaffold_files(in)) {
    fs::path p = dir / rel;
    fs::create_directories(p.parent_path(), ec);
    if (ec) return report_error(ctx, errc::io, "cannot create " + p.parent_path().string() + ": " + ec.message());
    if (auto st = write_file_atomic(p, content, 0644); !st) return report_error(ctx, st.err());
  }
  print_line("created " + dir.string());
  print_line("next: cd " + dir.filename().string() + " && npm install && npm run build");
  return kExitOk;
}

}  // namespace opentabs::cli
