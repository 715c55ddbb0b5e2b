// The arguments of `opentabs tool call`: from the positional JSON, --params or
// --params-file (a path or '-' for stdin), with --tab-id and --instance merged in.  Pure
// except read_params_file().  Bad JSON is reported with the line and column where it
// broke; a file over the limit is refused before it is parsed.
#pragma once

#include <cstddef>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "json/json.hpp"
#include "util/result.hpp"

namespace opentabs::cli {

// The server refuses bodies over 10 MiB; the arguments must leave room for the envelope.
inline constexpr std::size_t kMaxParamsBytes = 10 * 1024 * 1024 - 1024;

struct tool_argument_inputs {
  std::optional<std::string> positional;   // `tool call <name> '<json>'`
  std::optional<std::string> params;       // --params
  std::optional<std::string> params_file;  // --params-file content (already read)
  std::optional<std::string> tab_id;       // --tab-id
  std::optional<std::string> instance;     // --instance
};

// Errors: "usage" (more than one source, bad --tab-id), "invalid_json" (with position,
// or "must be a JSON object").
result<json::object> build_tool_arguments(const tool_argument_inputs& in);

// Reads --params-file: a path, or "-" for `in` (stdin).  Refuses more than `limit` bytes.
result<std::string> read_params_file(const std::string& spec, std::FILE* in, std::size_t limit = kMaxParamsBytes);

// Up to `n` tool names closest to `name` (edit distance, then shared substrings).
std::vector<std::string> closest_names(std::string_view name, const std::vector<std::string>& candidates,
                                       std::size_t n = 3);

}  // namespace opentabs::cli
