// Reading audit.log / audit.log.1 back: NDJSON text → entries, tolerating what crashes
// leave behind (a torn last line after a SIGKILL mid-write, a corrupt line) without losing
// the good lines around it.  Used by audit_log on start-up (to reload the last 500
// entries) and by the CLI's `audit --file --since ...`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "audit/audit_entry.hpp"
#include "audit/audit_query.hpp"

namespace opentabs::audit {

namespace fs = std::filesystem;

struct audit_read_result {
  std::vector<audit_entry> entries;  // file order (oldest first)
  std::size_t skipped_lines = 0;     // corrupt or torn lines left out
  std::vector<std::string> warnings; // one per skipped line (position only) or unreadable file
};

// Parses NDJSON text.  With `starts_mid_line` the text is the tail of a bigger file and its
// first (partial) line is discarded without counting it as corrupt.  `label` names the
// source in warnings.
audit_read_result parse_audit_text(std::string_view text, bool starts_mid_line, const std::string& label);

// Reads at most the last `max_bytes_per_file` bytes of each file, oldest file first
// (audit.log.1 then audit.log), and concatenates the entries.  Missing files are skipped.
audit_read_result read_audit_files(const std::vector<fs::path>& oldest_first, std::size_t max_bytes_per_file);

// Whether `path` is non-empty and does not end with a newline (a torn last line), so the
// next append must start on a fresh line.
bool ends_mid_line(const fs::path& path);

// The CLI's `opentabs audit --file`: entries from audit.log.1 + audit.log matching the
// query, newest first, at most query.limit.
audit_read_result query_audit_files(const fs::path& audit_log, const fs::path& rotated_log, const audit_query& query);

}  // namespace opentabs::audit
