// Tests for plugin_log_limiter (issue 13 item 10): per plugin, lines and bytes per window
// reach server.log, the rest is counted and summarised once the window is over.
#include "app/plugin_log_limiter.hpp"

#include <doctest/doctest.h>

using namespace opentabs::app;
using namespace std::chrono_literals;

TEST_CASE("plugin_log_limiter: lines over the limit are counted, summarised once, then logging resumes") {
  plugin_log_limiter lim({.max_lines = 3, .max_bytes = 1000, .window = 1s});
  auto t0 = plugin_log_limiter::clock::time_point{} + 100s;
  CHECK(lim.admit("flood", 10, t0));
  CHECK(lim.admit("flood", 10, t0));
  CHECK(lim.admit("flood", 10, t0 + 100ms));
  CHECK_FALSE(lim.admit("flood", 10, t0 + 200ms));
  CHECK_FALSE(lim.admit("flood", 20, t0 + 300ms));
  CHECK(lim.admit("quiet", 10, t0 + 300ms));  // another plugin has its own budget
  CHECK(lim.next_summary_due() == t0 + 1s);
  CHECK(lim.take_summaries(t0 + 900ms).empty());  // the window is not over yet
  // Until the summary is taken, the window with suppressed lines stays closed.
  CHECK_FALSE(lim.admit("flood", 10, t0 + 1500ms));
  auto summaries = lim.take_summaries(t0 + 1500ms);
  REQUIRE(summaries.size() == 1);
  CHECK(summaries[0].plugin == "flood");
  CHECK(summaries[0].lines == 3);
  CHECK(summaries[0].bytes == 40);
  CHECK(lim.summary_text(summaries[0]) ==
        "3 log line(s) (40 bytes) left out of server.log: over 3 lines or 0 KiB per second");
  CHECK(lim.take_summaries(t0 + 1500ms).empty());  // reported once
  CHECK_FALSE(lim.next_summary_due());
  CHECK(lim.admit("flood", 10, t0 + 1600ms));  // a new window
}

TEST_CASE("plugin_log_limiter: the byte budget limits a few huge lines") {
  plugin_log_limiter lim({.max_lines = 100, .max_bytes = 256 * 1024, .window = 1s});
  auto t0 = plugin_log_limiter::clock::time_point{} + 5s;
  int written = 0;
  for (int i = 0; i < 100; ++i) written += lim.admit("big", 16 * 1024, t0) ? 1 : 0;
  CHECK(written == 16);
  auto s = lim.take_summaries(t0 + 1s);
  REQUIRE(s.size() == 1);
  CHECK(s[0].lines == 84);
  CHECK(s[0].bytes == 84 * 16 * 1024);
  CHECK(lim.summary_text(s[0]).ends_with("over 100 lines or 256 KiB per second"));
}
