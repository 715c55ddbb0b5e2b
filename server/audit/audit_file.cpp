#include "audit/audit_file.hpp"

#include <algorithm>

#include "platform/file_handle.hpp"
#include "util/clock.hpp"

namespace opentabs::audit {
namespace {

// The last `max_bytes` of a file.  `truncated` tells whether the start was cut off.
bool read_tail(const fs::path& path, std::size_t max_bytes, std::string& out, bool& truncated, std::string& err) {
  std::error_code ec;
  auto file = platform::file_handle::open(path, platform::file_handle::access::read, 0, ec);
  if (ec) {
    if (ec != std::errc::no_such_file_or_directory) err = "cannot open " + path.string() + ": " + ec.message();
    return false;
  }
  platform::file_facts facts;
  if (file.facts(facts) || facts.kind != platform::file_kind::regular) {
    err = "cannot read " + path.string() + ": not a regular file";
    return false;
  }
  auto size = static_cast<std::size_t>(facts.size);
  std::size_t start = size > max_bytes ? size - max_bytes : 0;
  truncated = start > 0;
  out.assign(size - start, '\0');
  std::size_t got = 0;
  while (got < out.size()) {
    auto n = file.read_at(start + got, out.data() + got, out.size() - got);
    if (n <= 0) break;  // the file shrank (rotated) while reading: keep what we have
    got += static_cast<std::size_t>(n);
  }
  out.resize(got);
  return true;
}

}  // namespace

audit_read_result parse_audit_text(std::string_view text, bool starts_mid_line, const std::string& label) {
  audit_read_result out;
  std::size_t pos = 0;
  if (starts_mid_line) {
    auto nl = text.find('\n');
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
  }
  std::size_t line_no = 0;
  while (pos < text.size()) {
    auto nl = text.find('\n', pos);
    bool complete = nl != std::string_view::npos;
    auto line = text.substr(pos, (complete ? nl : text.size()) - pos);
    pos = complete ? nl + 1 : text.size();
    ++line_no;
    if (line.empty() || line == "\r") continue;
    auto e = parse_ndjson_line(line);
    if (e) {
      // A last line without its newline that still parses is a whole entry (the write
      // finished, only the newline was lost); anything else is skipped.
      out.entries.push_back(std::move(*e));
      continue;
    }
    ++out.skipped_lines;
    out.warnings.push_back("Skipped " + std::string(complete ? "corrupt" : "incomplete last") + " line " +
                           std::to_string(line_no) + (starts_mid_line ? " of the tail" : "") + " of " + label + ": " +
                           e.err().message);
  }
  return out;
}

audit_read_result read_audit_files(const std::vector<fs::path>& oldest_first, std::size_t max_bytes_per_file) {
  audit_read_result all;
  for (const auto& path : oldest_first) {
    std::string text, err;
    bool truncated = false;
    if (!read_tail(path, max_bytes_per_file, text, truncated, err)) {
      if (!err.empty()) all.warnings.push_back(err);
      continue;
    }
    auto part = parse_audit_text(text, truncated, path.string());
    all.skipped_lines += part.skipped_lines;
    for (auto& e : part.entries) all.entries.push_back(std::move(e));
    for (auto& w : part.warnings) all.warnings.push_back(std::move(w));
  }
  return all;
}

bool ends_mid_line(const fs::path& path) {
  std::error_code ec;
  auto file = platform::file_handle::open(path, platform::file_handle::access::read, 0, ec);
  if (ec) return false;
  platform::file_facts facts;
  bool torn = false;
  if (!file.facts(facts) && facts.kind == platform::file_kind::regular && facts.size > 0) {
    char last = '\n';
    if (file.read_at(facts.size - 1, &last, 1) == 1) torn = last != '\n';
  }
  return torn;
}

audit_read_result query_audit_files(const fs::path& audit_log, const fs::path& rotated_log, const audit_query& query) {
  // Each file stays near the 10 MiB rotation size; the cap only guards against a file that
  // grew without rotation (e.g. another writer).
  constexpr std::size_t kMaxFileBytes = 64 * 1024 * 1024;
  auto all = read_audit_files({rotated_log, audit_log}, kMaxFileBytes);
  audit_read_result out;
  out.skipped_lines = all.skipped_lines;
  out.warnings = std::move(all.warnings);
  for (auto it = all.entries.rbegin(); it != all.entries.rend() && out.entries.size() < query.limit; ++it) {
    if (matches(query.filter, *it, parse_iso8601_ms(it->timestamp))) out.entries.push_back(std::move(*it));
  }
  return out;
}

}  // namespace opentabs::audit
