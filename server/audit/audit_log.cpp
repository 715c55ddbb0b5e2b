#include "audit/audit_log.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <system_error>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

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
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

status audit_log::write_line(std::string_view line) {
  // A deleted audit.log would swallow every later entry through a descriptor to an unlinked
  // file; fstat is cheap enough to ask on every append.
  struct stat st {};
  if (fd_ >= 0 && (::fstat(fd_, &st) != 0 || st.st_nlink == 0)) close_file();
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (fd_ < 0) {
      fd_ = ::open(options_.file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
      if (fd_ < 0 && errno == ELOOP)
        return make_error(errc::io, options_.file.string() +
                                    " is a symbolic link, which the audit log does not follow; replace it with a regular file");
      if (fd_ < 0) return make_error(errc::io, "cannot open " + options_.file.string() + ": " + std::strerror(errno));
    }
    std::size_t done = 0;
    while (done < line.size()) {
      ssize_t n = ::write(fd_, line.data() + done, line.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
    if (done == line.size()) return ok();
    const int err = errno;
    close_file();  // a stale descriptor (file system remounted, ...) gets one fresh try
    // Part of the line reached the file: the next one must not be glued to it.
    if (done > 0) needs_leading_newline_ = true;
    if (done > 0 || attempt == 1)
      return make_error(errc::io, "cannot append to " + options_.file.string() + ": " + std::strerror(err));
  }
  return ok();
}

void audit_log::rotate_if_needed() {
  std::error_code ec;
  // audit.log renamed or replaced by someone else (logrotate): follow the path again.
  struct stat by_fd {}, by_path {};
  if (fd_ >= 0 && (::fstat(fd_, &by_fd) != 0 || ::stat(options_.file.c_str(), &by_path) != 0 ||
                   by_fd.st_ino != by_path.st_ino || by_fd.st_dev != by_path.st_dev))
    close_file();
  auto size = fs::file_size(options_.file, ec);
  if (ec || size < options_.rotate_at_bytes) return;
  // rename() replaces audit.log.1 atomically, which is the original's "delete audit.log.1,
  // rename audit.log" without a window where neither file holds the old entries.
  if (std::rename(options_.file.c_str(), options_.rotated_file.c_str()) != 0) {
    record_failure("cannot rotate " + options_.file.string() + " to " + options_.rotated_file.string() + ": " +
                   std::strerror(errno));
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
