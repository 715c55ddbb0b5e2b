#include "audit/audit_log.hpp"

#include <cmath>
#include <cstdio>
#include <system_error>

#include "audit/audit_file.hpp"
#include "util/clock.hpp"
#include "util/files.hpp"

namespace opentabs::audit {
namespace {

constexpr std::int64_t kDayMs = 24LL * 60 * 60 * 1000;

// Enough of each file's tail to hold 500 entries even with long error messages, without
// reading a whole 10 MiB log on every start.
constexpr std::size_t kLoadTailBytes = 8 * 1024 * 1024;

}  // namespace

json::object audit_summary::to_json() const {
  json::object o;
  o["totalInvocations"] = all.total;
  o["successCount"] = all.success;
  o["failureCount"] = all.failure;
  json::object day;
  day["total"] = last24h.total;
  day["success"] = last24h.success;
  day["failure"] = last24h.failure;
  o["last24h"] = std::move(day);
  // Whole numbers stay integers on the wire (312, not 312.0).
  if (std::floor(avg_duration_ms) == avg_duration_ms && std::fabs(avg_duration_ms) < 9.0e15)
    o["avgDurationMs"] = static_cast<std::int64_t>(avg_duration_ms);
  else
    o["avgDurationMs"] = avg_duration_ms;
  return o;
}

audit_log::audit_log(audit_log_options options) : options_(std::move(options)) {
  if (options_.capacity == 0) options_.capacity = 1;
  if (options_.rotation_check_every == 0) options_.rotation_check_every = 1;
  if (options_.file.empty()) return;
  if (options_.rotated_file.empty()) {
    options_.rotated_file = options_.file;
    options_.rotated_file += ".1";
  }
  auto read = read_audit_files({options_.rotated_file, options_.file}, kLoadTailBytes);
  std::size_t first = read.entries.size() > options_.capacity ? read.entries.size() - options_.capacity : 0;
  for (std::size_t i = first; i < read.entries.size(); ++i) remember(std::move(read.entries[i]));
  load_report_.loaded = ring_.size();
  load_report_.skipped_lines = read.skipped_lines;
  load_report_.warnings = std::move(read.warnings);
  needs_leading_newline_ = ends_mid_line(options_.file);
}

void audit_log::remember(audit_entry entry) {
  auto ts = parse_iso8601_ms(entry.timestamp);
  ring_.push_back(stored{std::move(entry), ts});
  while (ring_.size() > options_.capacity) ring_.pop_front();
}

void audit_log::record_failure(const std::string& message) {
  ++disk_failures_;
  last_disk_error_ = message;
}

audit_log::~audit_log() { close_file(); }

void audit_log::close_file() {
  file_.close();
}

status audit_log::write_line(std::string_view line) {
  // A deleted audit.log would swallow every later entry through a descriptor to an unlinked
  // file; fstat is cheap enough to ask on every append.
  platform::file_facts facts;
  if (file_.is_open() && (file_.facts(facts) || facts.links == 0)) close_file();
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (!file_.is_open()) {
      std::error_code ec;
      file_ = platform::file_handle::open(options_.file, platform::file_handle::access::append, 0600, ec);
      if (ec == std::errc::too_many_symbolic_link_levels)
        return make_error(errc::io, options_.file.string() +
                                    " is a symbolic link, which the audit log does not follow; replace it with a regular file");
      if (ec) return make_error(errc::io, "cannot open " + options_.file.string() + ": " + ec.message());
    }
    std::error_code err;
    const std::size_t done = file_.write(line, err);
    if (done == line.size()) return ok();
    close_file();  // a stale descriptor (file system remounted, ...) gets one fresh try
    // Part of the line reached the file: the next one must not be glued to it.
    if (done > 0) needs_leading_newline_ = true;
    if (done > 0 || attempt == 1)
      return make_error(errc::io, "cannot append to " + options_.file.string() + ": " + err.message());
  }
  return ok();
}

void audit_log::rotate_if_needed() {
  std::error_code ec;
  // audit.log renamed or replaced by someone else (logrotate): follow the path again.
  platform::file_facts by_handle, by_path;
  if (file_.is_open() && (file_.facts(by_handle) || platform::facts_of(options_.file, by_path, true) ||
                          by_handle.inode != by_path.inode || by_handle.device != by_path.device))
    close_file();
  auto size = fs::file_size(options_.file, ec);
  if (ec || size < options_.rotate_at_bytes) return;
  // rename() replaces audit.log.1 atomically, which is the original's "delete audit.log.1,
  // rename audit.log" without a window where neither file holds the old entries.
  fs::rename(options_.file, options_.rotated_file, ec);
  if (ec) {
    record_failure("cannot rotate " + options_.file.string() + " to " + options_.rotated_file.string() + ": " + ec.message());
    return;
  }
  close_file();  // the next append creates a fresh audit.log
  needs_leading_newline_ = false;
}

status audit_log::append(audit_entry entry) {
  cap_lengths(entry);
  std::string line = to_ndjson_line(entry);
  remember(std::move(entry));
  if (options_.file.empty()) return ok();

  if (appends_ % options_.rotation_check_every == 0) rotate_if_needed();
  ++appends_;

  if (needs_leading_newline_) line.insert(line.begin(), '\n');
  auto written = write_line(line);
  if (!written) {
    record_failure(written.err().message);
    return make_error(errc::io, "audit entry kept in memory only: " + written.err().message);
  }
  needs_leading_newline_ = false;
  return ok();
}

std::vector<audit_entry> audit_log::query(const audit_query& q) const {
  std::vector<audit_entry> out;
  for (auto it = ring_.rbegin(); it != ring_.rend() && out.size() < q.limit; ++it)
    if (matches(q.filter, it->entry, it->timestamp_ms)) out.push_back(it->entry);
  return out;
}

audit_summary audit_log::summary(std::int64_t now_epoch_ms) const {
  audit_summary s;
  double total_duration = 0;
  for (const auto& item : ring_) {
    const auto& e = item.entry;
    if (!e.is_invocation()) continue;
    ++s.all.total;
    (e.success ? s.all.success : s.all.failure) += 1;
    total_duration += static_cast<double>(e.duration_ms);
    if (item.timestamp_ms >= 0 && item.timestamp_ms >= now_epoch_ms - kDayMs) {
      ++s.last24h.total;
      (e.success ? s.last24h.success : s.last24h.failure) += 1;
    }
  }
  if (s.all.total > 0) s.avg_duration_ms = std::round(total_duration / static_cast<double>(s.all.total) * 10.0) / 10.0;
  return s;
}

}  // namespace opentabs::audit
