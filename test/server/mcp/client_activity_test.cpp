// Stateless (2026-07-28) clients counted by name within a window, bounded in memory,
// and counts of several endpoints added up.
#include <doctest/doctest.h>

#include "mcp/client_activity.hpp"

using namespace opentabs::mcp;
using namespace std::chrono_literals;

namespace {
struct fake_clock {
  std::chrono::steady_clock::time_point t{std::chrono::hours(1)};
  recent_clients::clock_fn fn() {
    return [this] { return t; };
  }
};
}  // namespace

TEST_CASE("a stateless client counts once per name while heard from within the window") {
  fake_clock c;
  recent_clients clients(64, c.fn());
  clients.heard_from("claude-code");
  clients.heard_from("claude-code");
  clients.heard_from("opencode");
  CHECK(clients.count_within(60s) == 2);
  c.t += 45s;
  clients.heard_from("claude-code");
  c.t += 30s;  // opencode last heard 75 s ago
  CHECK(clients.count_within(60s) == 1);
  c.t += 31s;
  CHECK(clients.count_within(60s) == 0);
}

TEST_CASE("a request without clientInfo counts as one unnamed client") {
  fake_clock c;
  recent_clients clients(64, c.fn());
  clients.heard_from("");
  clients.heard_from("");
  CHECK(clients.count_within(60s) == 1);
}

TEST_CASE("beyond its capacity the least recently heard name is forgotten") {
  fake_clock c;
  recent_clients clients(3, c.fn());
  for (const char* name : {"a", "b", "c"}) {
    clients.heard_from(name);
    c.t += 1s;
  }
  clients.heard_from("a");  // a is now the most recent; b the least
  c.t += 1s;
  clients.heard_from("d");  // forgets b
  CHECK(clients.count_within(60s) == 3);
  c.t += 1s;
  clients.heard_from("b");  // b returns as new and forgets c
  CHECK(clients.count_within(60s) == 3);
}

TEST_CASE("counts of /mcp and /mcp/gateway add up; active includes stateless clients") {
  client_counts mcp{2, 4, 1};
  client_counts gateway{1, 0, 0};
  mcp += gateway;
  CHECK(mcp.active_sessions == 3);
  CHECK(mcp.idle_sessions == 4);
  CHECK(mcp.active() == 4);
}
