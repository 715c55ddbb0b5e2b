// `opentabs audit`: recent tool invocations from GET /audit, or from audit.log on disk
// with --file (which also works while the server is down).
#include <string>
#include <vector>

#include "audit/audit_file.hpp"
#include "audit/audit_query.hpp"
#include "cli/commands.hpp"
#include "cli/output.hpp"
#include "cli/server_api.hpp"
#include "util/clock.hpp"

namespace opentabs::cli {

namespace {

inline constexpr std::size_t kDefaultAuditLimit = 20;

std::string encode(std::string_view s) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') out.push_back(static_cast<char>(c));
    else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

}  // namespace

int cmd_audit(context& ctx, const parsed_command& cmd) {
  std::optional<std::string> limit_text = cmd.value("limit");
  auto query = audit::parse_audit_query(limit_text ? std::optional<std::string_view>(*limit_text)
                                                   : std::optional<std::string_view>(std::to_string(kDefaultAuditLimit)),
                                        cmd.value("plugin") ? std::optional<std::string_view>(*cmd.value("plugin")) : std::nullopt,
                                        cmd.value("tool") ? std::optional<std::string_view>(*cmd.value("tool")) : std::nullopt,
                                        std::nullopt);
  if (!query) return report_error(ctx, cli_failure::usage, "--" + query.err().message);
  if (auto since = cmd.value("since")) {
    auto ms = audit::parse_since(*since);
    if (!ms) return report_error(ctx, cli_failure::usage, ms.err().message);
    query->filter.since_ms = now_epoch_ms() - *ms;
  }

  std::vector<audit::audit_entry> entries;
  if (cmd.has("file")) {
    auto read = audit::query_audit_files(ctx.paths.audit_log(), ctx.paths.audit_log_rotated(), *query);
    for (const auto& w : read.warnings) print_note(ctx, w);
    entries = std::move(read.entries);
  } else {
    server_api api(ctx.port.port, ctx.paths);
    // --since is applied here, so ask the server for everything it keeps and cut after.
    std::string target = "/audit?limit=" + std::to_string(query->filter.since_ms ? audit::kMaxQueryLimit : query->limit);
    if (query->filter.plugin) target += "&plugin=" + encode(*query->filter.plugin);
    if (query->filter.tool) target += "&tool=" + encode(*query->filter.tool);
    auto got = api.get_json(target);
    if (!got) return report_error(ctx, got.err());
    if (!got->is_array()) return report_error(ctx, net::net_failure::bad_response, "GET /audit did not return an array");
    for (const auto& v : got->as_array()) {
      auto e = audit::audit_entry_from_json(v);
      if (!e) continue;
      if (!audit::matches(query->filter, *e, parse_iso8601_ms(e->timestamp))) continue;
      entries.push_back(std::move(*e));
      if (entries.size() >= query->limit) break;
    }
  }

  if (ctx.json) {
    json::array out;
    for (const auto& e : entries) out.push_back(audit::to_json(e));
    print_json(out);
    return kExitOk;
  }
  if (entries.empty()) {
    print_line("no tool invocations recorded" + std::string(cmd.has("file") ? " in " + ctx.paths.audit_log().string() : ""));
    return kExitOk;
  }
  bool c = ctx.term.color_stdout;
  std::vector<std::vector<std::string>> rows;
  for (const auto& e : entries) {
    std::string err = e.error ? e.error->code + ": " + e.error->message : "";
    rows.push_back({e.timestamp, e.tool, e.success ? green("ok", c) : red("failed", c), std::to_string(e.duration_ms) + " ms",
                    err});
  }
  std::string table = render_table({"TIME", "TOOL", "RESULT", "DURATION", "ERROR"}, rows, ctx.term.width, c);
  std::fwrite(table.data(), 1, table.size(), stdout);
  return kExitOk;
}

}  // namespace opentabs::cli
