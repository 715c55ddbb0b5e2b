// Session table with a hand-moved clock: creation bucket (5 per sliding minute), idle
// expiry, busy sessions never expiring, deletion.
#include <doctest/doctest.h>

#include <set>

#include "mcp/session_table.hpp"

using namespace opentabs::mcp;
using namespace std::chrono_literals;

namespace {
struct fake_clock {
  steady_time t{std::chrono::hours(1)};
  clock_fn fn() {
    return [this] { return t; };
  }
};
}  // namespace

TEST_CASE("at most five new sessions in any sliding minute") {
  fake_clock c;
  session_table table(30min, 5, c.fn());
  for (int i = 0; i < 5; ++i) {
    CHECK(table.admit_new_session());
    c.t += 1s;
  }
  CHECK_FALSE(table.admit_new_session());
  CHECK(table.retry_after_seconds() == 55);  // the first slot frees 60 s after it was taken
  c.t += 54s;
  CHECK_FALSE(table.admit_new_session());
  c.t += 1s;
  CHECK(table.admit_new_session());
  CHECK_FALSE(table.admit_new_session());
}

TEST_CASE("sessions get distinct visible-ASCII ids and can be found and removed") {
  fake_clock c;
  session_table table(30min, 5, c.fn());
  std::set<std::string> ids;
  for (int i = 0; i < 50; ++i) {
    auto s = table.create("2025-11-25");
    ids.insert(s->id);
    for (char ch : s->id) CHECK((ch >= 0x21 && ch <= 0x7e));
  }
  CHECK(ids.size() == 50);
  auto id = *ids.begin();
  REQUIRE(table.find(id));
  CHECK(table.find(id)->protocol_version == "2025-11-25");
  CHECK(table.remove(id));
  CHECK_FALSE(table.find(id));
  CHECK_FALSE(table.remove(id));
  CHECK_FALSE(table.find("not-a-session"));
}

TEST_CASE("idle sessions expire; activity and busy work keep them") {
  fake_clock c;
  session_table table(10min, 5, c.fn());
  auto s = table.create("2025-06-18");
  c.t += 9min;
  CHECK(table.find(s->id));
  table.touch(*s);
  c.t += 9min;
  CHECK(table.find(s->id));
  CHECK(table.next_check(*s) == s->last_activity + 10min);
  c.t += 1min;
  CHECK(table.expired(*s));
  CHECK_FALSE(table.find(s->id));

  auto busy = table.create("2025-11-25");
  busy->busy = 1;  // an open standalone stream
  c.t += 2h;
  CHECK_FALSE(table.expired(*busy));
  CHECK(table.next_check(*busy) == c.t + 10min);
  busy->busy = 0;
  CHECK(table.expired(*busy));
}

TEST_CASE("sessions count as in use when busy or heard from within the window, idle otherwise") {
  fake_clock c;
  session_table table(30min, 5, c.fn());
  auto quiet = table.create("2025-11-25");
  auto streaming = table.create("2025-11-25");
  auto recent = table.create("2025-11-25");
  c.t += 5min;
  streaming->busy = 1;  // an open standalone stream
  table.touch(*recent);
  c.t += 30s;
  auto counts = table.counts(60s);
  CHECK(counts.active_sessions == 2);
  CHECK(counts.idle_sessions == 1);
  c.t += 31s;  // `recent` falls out of the window; the stream keeps its session in use
  counts = table.counts(60s);
  CHECK(counts.active_sessions == 1);
  CHECK(counts.idle_sessions == 2);
}
