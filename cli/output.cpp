// Result and error printing (see output.hpp).
#include "cli/output.hpp"

#include <cstdio>
#include <string>

namespace opentabs::cli {

int report_error(const context& ctx, const error& e) {
  if (ctx.json) {
    json::object o{{"error", json::object{{"code", json::str(e.code())}, {"message", json::str(e.message)}}}};
    print_json(o);
  } else {
    std::string line = red("opentabs:", ctx.term.color_stderr) + " " + e.message + "\n";
    std::fwrite(line.data(), 1, line.size(), stderr);
  }
  return e.is(cli_failure::usage) ? kExitUsage : kExitFailure;
}

int report_error(const context& ctx, errc kind, std::string message) { return report_error(ctx, make_error(kind, std::move(message))); }

void print_json(const json::value& v) {
  std::string s = json::dump_pretty(v);
  if (s.empty() || s.back() != '\n') s.push_back('\n');
  std::fwrite(s.data(), 1, s.size(), stdout);
}

void print_line(std::string_view text) {
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fputc('\n', stdout);
}

void print_note(const context& ctx, std::string_view text) {
  std::string line = dim(text, ctx.term.color_stderr) + "\n";
  std::fwrite(line.data(), 1, line.size(), stderr);
}

}  // namespace opentabs::cli
