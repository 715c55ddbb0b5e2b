// Tool-call argument assembly (see tool_arguments.hpp).
#include "cli/tool_arguments.hpp"

#include <algorithm>
#include <charconv>
#include <tuple>

#include "cli/cli_failure.hpp"
#include "util/files.hpp"
#include "util/strings.hpp"

namespace opentabs::cli {

namespace {

std::string mib(std::size_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return buf;
}

}  // namespace

result<json::object> build_tool_arguments(const tool_argument_inputs& in) {
  int sources = (in.positional ? 1 : 0) + (in.params ? 1 : 0) + (in.params_file ? 1 : 0);
  if (sources > 1)
    return make_error(cli_failure::usage, "give the arguments once: as the JSON argument, --params or --params-file");
  json::object args;
  std::optional<std::string> text;
  std::string where = "arguments";
  if (in.positional) text = in.positional;
  if (in.params) {
    text = in.params;
    where = "--params";
  }
  if (in.params_file) {
    text = in.params_file;
    where = "--params-file";
  }
  if (text && !trim(*text).empty()) {
    if (text->size() > kMaxParamsBytes)
      return make_error(errc::too_large, where + " is " + mib(text->size()) + "; the limit is " + mib(kMaxParamsBytes));
    json::parse_limits lim;
    lim.max_bytes = kMaxParamsBytes;
    auto v = json::parse(*text, lim);
    if (!v) return make_error(errc::invalid_params, "invalid JSON in " + where + ": " + v.err().message);
    if (!v->is_object())
      return make_error(errc::invalid_params, where + " must be a JSON object like {\"key\": \"value\"}, not " +
                                            std::string(json::type_name(*v)));
    args = std::move(v->as_object());
  }
  if (in.tab_id) {
    auto t = trim(*in.tab_id);
    long long id = 0;
    auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), id);
    if (t.empty() || ec != std::errc() || p != t.data() + t.size() || id < 1 || id > 2147483647)
      return make_error(cli_failure::usage, "invalid --tab-id '" + *in.tab_id + "': expected a positive integer tab id");
    args["tabId"] = static_cast<std::int64_t>(id);
  }
  if (in.instance) {
    if (trim(*in.instance).empty()) return make_error(cli_failure::usage, "--instance needs a non-empty instance name");
    args["instance"] = json::str(*in.instance);
  }
  return args;
}

result<std::string> read_params_file(const std::string& spec, std::FILE* in, std::size_t limit) {
  if (spec == "-") {
    std::string out;
    char buf[65536];
    while (true) {
      std::size_t n = std::fread(buf, 1, sizeof buf, in);
      if (n == 0) break;
      out.append(buf, n);
      if (out.size() > limit)
        return make_error(errc::too_large, "--params-file - (stdin) is larger than the limit of " + mib(limit));
    }
    if (std::ferror(in)) return make_error(errc::io, "reading the arguments from stdin failed");
    return out;
  }
  std::error_code ec;
  auto size = std::filesystem::file_size(spec, ec);
  if (ec) return make_error(errc::not_found, "cannot read --params-file " + spec + ": " + ec.message());
  if (size > limit)
    return make_error(errc::too_large, "--params-file " + spec + " is " + mib(size) + "; the limit is " + mib(limit));
  auto text = read_file(spec, limit);
  if (!text) return with_context("cannot read --params-file " + spec + ": ", text.err());
  return std::move(*text);
}

std::vector<std::string> closest_names(std::string_view name, const std::vector<std::string>& candidates,
                                       std::size_t n) {
  std::string lowered = to_lower(name);
  // "slack__send" and "slack_send" are the same tool spelled two ways.
  auto canonical = [](std::string s) {
    for (std::size_t p; (p = s.find("__")) != std::string::npos;) s.erase(p, 1);
    return s;
  };
  std::string target = canonical(lowered);
  std::vector<std::tuple<std::size_t, std::size_t, std::string>> scored;
  for (const auto& c : candidates) {
    std::string lc = canonical(to_lower(c));
    std::size_t exact = edit_distance(target, lc);
    std::size_t d = exact;
    // A name that contains what was typed (or the other way round) is a strong hint.
    if (!target.empty() && (lc.find(target) != std::string::npos || target.find(lc) != std::string::npos))
      d = std::min<std::size_t>(d, 1);
    scored.emplace_back(d, exact, c);
  }
  std::sort(scored.begin(), scored.end());
  std::vector<std::string> out;
  std::size_t max_distance = std::max<std::size_t>(3, target.size() / 3);
  for (const auto& [d, exact, c] : scored) {
    if (out.size() >= n || d > max_distance) break;
    out.push_back(c);
  }
  return out;
}

}  // namespace opentabs::cli
