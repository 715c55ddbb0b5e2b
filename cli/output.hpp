// How commands report: results on stdout, errors as one line on stderr ("opentabs: ...")
// or, with --json, as {"error":{"code","message"}} on stdout so scripts can parse it.
// Exit codes: 0 success, 1 failure, 2 bad usage.
#pragma once

#include <string_view>

#include "cli/cli_failure.hpp"
#include "cli/context.hpp"
#include "json/json.hpp"
#include "util/result.hpp"

namespace opentabs::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;

// Prints the error and returns its exit code (2 for cli_failure::usage, else 1).
int report_error(const context& ctx, const error& e);
int report_error(const context& ctx, errc kind, std::string message);
template <failure_reason R>
int report_error(const context& ctx, R reason, std::string message) {
  return report_error(ctx, make_error(reason, std::move(message)));
}

void print_json(const json::value& v);  // pretty, trailing newline
void print_line(std::string_view text);  // stdout + newline
void print_note(const context& ctx, std::string_view text);  // stderr, dimmed on a TTY

}  // namespace opentabs::cli
