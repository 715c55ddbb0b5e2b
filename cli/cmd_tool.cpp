// `opentabs tool list | schema | call` over the REST API (GET /tools, POST
// /tools/<name>/call).
#include <cstdio>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/output.hpp"
#include "cli/server_api.hpp"
#include "cli/tool_arguments.hpp"

namespace opentabs::cli {

namespace {

std::string percent_encode(std::string_view s) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(hex[c >> 4]);
      out.push_back(hex[c & 15]);
    }
  }
  return out;
}

result<json::array> fetch_tools(const server_api& api, const std::optional<std::string>& plugin) {
  std::string target = "/tools";
  if (plugin) target += "?plugin=" + percent_encode(*plugin);
  auto v = api.get_json(target);
  if (!v) return v.err();
  if (!v->is_array()) return make_error(net::net_failure::bad_response, "GET /tools did not return an array");
  return std::move(v->as_array());
}

std::vector<std::string> tool_names(const json::array& tools) {
  std::vector<std::string> names;
  for (const auto& t : tools)
    if (t.is_object())
      if (auto n = json::get_string(t.as_object(), "name")) names.emplace_back(*n);
  return names;
}

// Same tool whether spelled with one or two underscores after the plugin name.
bool same_tool(std::string_view a, std::string_view b) {
  auto canon = [](std::string s) {
    for (std::size_t p; (p = s.find("__")) != std::string::npos;) s.erase(p, 1);
    return s;
  };
  return a == b || canon(std::string(a)) == canon(std::string(b));
}

error tool_not_found(std::string_view name, const std::vector<std::string>& names) {
  auto near = closest_names(name, names);
  std::string msg = "tool '" + std::string(name) + "' not found";
  if (!near.empty()) {
    msg += "; closest: ";
    for (std::size_t i = 0; i < near.size(); ++i) msg += (i ? ", " : "") + near[i];
  }
  msg += ". List tools with `opentabs tool list`";
  return make_error(errc::not_found, msg);
}

std::string first_line(std::string_view s) { return std::string(s.substr(0, s.find('\n'))); }

}  // namespace

int cmd_tool_list(context& ctx, const parsed_command& cmd) {
  server_api api(ctx.port.port, ctx.paths);
  auto tools = fetch_tools(api, cmd.value("plugin"));
  if (!tools) return report_error(ctx, tools.err());
  // Every loaded plugin has at least one tool: none means no such plugin is loaded.
  if (auto plugin = cmd.value("plugin"); plugin && tools->empty())
    return report_error(ctx, cli_failure::plugin_not_found, "no plugin named '" + *plugin +
                                                     "' is loaded; `opentabs plugin list` shows the installed plugins");
  if (ctx.json) {
    print_json(*tools);
    return kExitOk;
  }
  std::vector<std::vector<std::string>> rows;
  for (const auto& t : *tools) {
    if (!t.is_object()) continue;
    const auto& o = t.as_object();
    auto name = json::get_string(o, "name");
    auto plugin = json::get_string(o, "plugin");
    auto desc = json::get_string(o, "description");
    rows.push_back({name ? std::string(*name) : "", plugin ? std::string(*plugin) : "",
                    desc ? first_line(*desc) : ""});
  }
  if (rows.empty()) {
    print_line("no tools");
    return kExitOk;
  }
  std::string table = render_table({"TOOL", "PLUGIN", "DESCRIPTION"}, rows, ctx.term.width, ctx.term.color_stdout);
  std::fwrite(table.data(), 1, table.size(), stdout);
  if (ctx.term.stdout_tty)
    print_note(ctx, std::to_string(rows.size()) + " tools. Schema: `opentabs tool schema <name>`; call: `opentabs tool "
                                                  "call <name> '<json>'`");
  return kExitOk;
}

int cmd_tool_schema(context& ctx, const parsed_command& cmd) {
  server_api api(ctx.port.port, ctx.paths);
  auto tools = fetch_tools(api, std::nullopt);
  if (!tools) return report_error(ctx, tools.err());
  const std::string name = *cmd.arg(0);
  for (const auto& t : *tools) {
    if (!t.is_object()) continue;
    auto n = json::get_string(t.as_object(), "name");
    if (!n || !same_tool(*n, name)) continue;
    const json::value* schema = json::find(t.as_object(), "inputSchema");
    print_json(schema ? *schema : json::value(json::object{}));
    return kExitOk;
  }
  return report_error(ctx, tool_not_found(name, tool_names(*tools)));
}

int cmd_tool_call(context& ctx, const parsed_command& cmd) {
  const std::string name = *cmd.arg(0);
  tool_argument_inputs in;
  in.positional = cmd.arg(1);
  in.params = cmd.value("params");
  if (auto file = cmd.value("params-file")) {
    auto content = read_params_file(*file, stdin);
    if (!content) return report_error(ctx, content.err());
    in.params_file = std::move(*content);
  }
  in.tab_id = cmd.value("tab-id");
  in.instance = cmd.value("instance");
  auto args = build_tool_arguments(in);
  if (!args) return report_error(ctx, args.err());

  server_api api(ctx.port.port, ctx.paths);
  json::object body{{"arguments", std::move(*args)}};
  // Tools may legitimately run for minutes (progress extends them up to 300 s).
  auto reply = api.call("POST", "/tools/" + percent_encode(name) + "/call", json::dump(body), true,
                        std::chrono::seconds(310));
  if (!reply) return report_error(ctx, reply.err());
  if (reply->status == 404) {
    auto tools = fetch_tools(api, std::nullopt);
    return report_error(ctx, tool_not_found(name, tools ? tool_names(*tools) : std::vector<std::string>{}));
  }
  if (reply->status == 429)
    return report_error(ctx, errc::rate_limited, "too many tool calls (the server allows 30 per minute); retry shortly");
  if (reply->status == 413)
    return report_error(ctx, errc::too_large, "the server refused the arguments as too large (limit 10 MiB)");
  if ((reply->status != 200 && reply->status != 422) || !reply->json || !reply->json->is_object())
    return report_error(ctx, cli_failure::server_error,
                        "tool call failed with HTTP " + std::to_string(reply->status) + ": " + server_error_text(*reply));

  const auto& result = reply->json->as_object();
  bool is_error = json::get_bool(result, "isError").value_or(false) || reply->status == 422;
  if (ctx.json) {
    print_json(result);
    return is_error ? kExitFailure : kExitOk;
  }
  std::string text;
  if (auto content = json::get_array(result, "content")) {
    for (const auto& item : *content) {
      if (!item.is_object()) continue;
      const auto& c = item.as_object();
      auto type = json::get_string(c, "type");
      if (type && *type == "text") {
        if (auto t = json::get_string(c, "text")) text += std::string(*t) + "\n";
      } else if (type && (*type == "image" || *type == "audio")) {
        auto mime = json::get_string(c, "mimeType");
        auto data = json::get_string(c, "data");
        text += "[" + std::string(*type) + " " + (mime ? std::string(*mime) : "") + ", " +
                std::to_string(data ? data->size() * 3 / 4 : 0) + " bytes; use --json for the data]\n";
      } else {
        text += json::dump(c) + "\n";
      }
    }
  }
  if (is_error) {
    std::string msg = "tool " + name + " failed: " + (text.empty() ? "(no message)" : text);
    while (!msg.empty() && msg.back() == '\n') msg.pop_back();
    std::string line = red("opentabs:", ctx.term.color_stderr) + " " + msg + "\n";
    std::fwrite(line.data(), 1, line.size(), stderr);
    return kExitFailure;
  }
  std::fwrite(text.data(), 1, text.size(), stdout);
  return kExitOk;
}

}  // namespace opentabs::cli
