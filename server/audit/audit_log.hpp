// The audit log (spec §2.4): the last 500 tool invocations in memory for GET /audit and the
// /health auditSummary, each also appended to audit.log as one NDJSON line (mode 0600) with
// size-based rotation to audit.log.1.  Entries survive restarts: construction loads the
// newest entries back from audit.log.1 + audit.log.
//
// Disk trouble never throws and never loses the in-memory entry: the failure is counted,
// the last error kept for /health, and append() returns it.  Not thread-safe: owned by
// the server's io_context thread.  Appends are one small O_APPEND write each, on a
// descriptor kept open between appends (reopened after rotation, after a write error, and
// when audit.log was deleted or replaced behind our back).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "audit/audit_entry.hpp"
#include "platform/file_handle.hpp"
#include "audit/audit_query.hpp"
#include "json/json.hpp"
#include "util/result.hpp"

namespace opentabs::audit {

namespace fs = std::filesystem;

inline constexpr std::size_t kAuditCapacity = 500;
inline constexpr std::uint64_t kAuditRotateBytes = 10ull * 1024 * 1024;
inline constexpr std::size_t kAuditRotationCheckEvery = 100;

struct audit_log_options {
  fs::path file;  // audit.log; empty = memory only
  fs::path rotated_file;  // audit.log.1; empty = `file` + ".1"
  std::size_t capacity = kAuditCapacity;
  // Rotation: checked on the first append and then every `rotation_check_every` appends;
  // rotates when audit.log has reached `rotate_at_bytes`.  Tests shrink both.
  std::uint64_t rotate_at_bytes = kAuditRotateBytes;
  std::size_t rotation_check_every = kAuditRotationCheckEvery;
};

// Options for a log persisted to `file` (audit.log) with the spec's defaults.
inline audit_log_options persisted_to(fs::path file) {
  audit_log_options o;
  o.file = std::move(file);
  return o;
}

struct audit_load_report {
  std::size_t loaded = 0;             // entries restored into memory
  std::size_t skipped_lines = 0;      // corrupt / torn lines left out
  std::vector<std::string> warnings;  // for the caller's log
};

struct audit_counts {
  std::size_t total = 0;
  std::size_t success = 0;
  std::size_t failure = 0;
};

// /health auditSummary.
struct audit_summary {
  audit_counts all;
  audit_counts last24h;
  double avg_duration_ms = 0;  // rounded to one decimal

  // {"totalInvocations","successCount","failureCount","last24h":{total,success,failure},"avgDurationMs"}
  json::object to_json() const;
};

class audit_log {
 public:
  explicit audit_log(audit_log_options options);
  ~audit_log();
  audit_log(const audit_log&) = delete;
  audit_log& operator=(const audit_log&) = delete;

  const audit_load_report& load_report() const noexcept { return load_report_; }

  // Records the entry (capped lengths) and appends it to disk.  The entry is in memory
  // whatever happens; the result says whether it reached the file.
  status append(audit_entry entry);

  // Newest first, at most q.limit.
  std::vector<audit_entry> query(const audit_query& q) const;

  audit_summary summary(std::int64_t now_epoch_ms) const;

  std::size_t size() const noexcept { return ring_.size(); }
  std::uint64_t disk_failures() const noexcept { return disk_failures_; }
  const std::string& last_disk_error() const noexcept { return last_disk_error_; }

 private:
  struct stored {
    audit_entry entry;
    std::int64_t timestamp_ms;  // parsed once; -1 if unparseable
  };

  void remember(audit_entry entry);
  void record_failure(const std::string& message);
  void rotate_if_needed();
  // Appends `line` through the open descriptor, opening audit.log first when needed.
  status write_line(std::string_view line);
  void close_file();

  audit_log_options options_;
  std::deque<stored> ring_;
  audit_load_report load_report_;
  std::uint64_t appends_ = 0;
  std::uint64_t disk_failures_ = 0;
  std::string last_disk_error_;
  // audit.log ends with a torn line (crash mid-write): the next line must start fresh or
  // it would be glued to the fragment and lost on the next load.
  bool needs_leading_newline_ = false;
  platform::file_handle file_;  // audit.log opened for appending, or closed
};

}  // namespace opentabs::audit
