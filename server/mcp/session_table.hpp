// The sessions of one MCP endpoint, sans-I/O: records keyed by Mcp-Session-Id, idle
// expiry, and the bucket that allows at most N new sessions per minute.  Time comes from
// an injectable clock so tests can move it.  Lives on the io thread; not thread-safe.
#pragma once

#include <chrono>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

#include "mcp/client_activity.hpp"
#include "mcp/log_level.hpp"
#include "util/string_keyed.hpp"

namespace opentabs::mcp {

using steady_time = std::chrono::steady_clock::time_point;
using clock_fn = std::function<steady_time()>;

// At most `capacity` takes in any sliding 60 s window.
class creation_bucket {
 public:
  creation_bucket(int capacity, clock_fn now);
  bool try_take();
  // Whole seconds until a take can succeed again (at least 1).
  int retry_after_seconds();

 private:
  void forget_old(steady_time now);
  int capacity_;
  clock_fn now_;
  std::deque<steady_time> taken_;
};

// What the protocol remembers about one session.
struct session_record {
  std::string id;
  std::string protocol_version;  // negotiated at initialize
  log_filter log;
  bool initialized = false;       // notifications/initialized seen
  bool client_elicits_form = false;  // initialize declared form elicitation
  bool client_samples = false;       // initialize declared sampling
  std::string client_name;           // initialize's clientInfo.name, at most 64 bytes
  steady_time last_activity{};
  // In-flight requests plus an open standalone stream: a busy session never expires.
  int busy = 0;
};

class session_table {
 public:
  session_table(std::chrono::milliseconds idle_expiry, int max_new_per_minute, clock_fn now = std::chrono::steady_clock::now);

  // Takes one slot of the creation bucket; false: 429.
  bool admit_new_session() { return bucket_.try_take(); }
  int retry_after_seconds() { return bucket_.retry_after_seconds(); }

  // A new session with a fresh unguessable id (UUID v4: visible ASCII only).
  std::shared_ptr<session_record> create(std::string protocol_version);
  // The live session, or null when unknown, deleted or idle-expired.
  session_record* find(std::string_view id);
  void touch(session_record& s) { s.last_activity = now_(); }
  bool remove(std::string_view id);

  bool expired(const session_record& s) const;
  // When the session's idle state should next be examined (busy sessions: one idle
  // period from now, so every wait stays bounded).
  steady_time next_check(const session_record& s) const;
  std::chrono::milliseconds idle_expiry() const { return idle_; }

  std::size_t size() const { return sessions_.size(); }
  // Sessions in use (busy, or a request within `window`) and the idle rest.
  client_counts counts(std::chrono::milliseconds window) const;
  template <class F>
  void for_each(F&& f) {
    for (auto& [id, s] : sessions_) f(*s);
  }

 private:
  std::chrono::milliseconds idle_;
  clock_fn now_;
  creation_bucket bucket_;
  string_map<std::shared_ptr<session_record>> sessions_;
};

}  // namespace opentabs::mcp
