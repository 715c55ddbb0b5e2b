#include <doctest/doctest.h>

#include "app/dispatch_table.hpp"

using namespace opentabs::app;
using namespace std::chrono_literals;

namespace {
ext_reply result_of(int v) {
  ext_reply r;
  r.result = v;
  return r;
}
}  // namespace

TEST_CASE("lifecycle: add, settle once, take; duplicates and late replies are refused") {
  dispatch_table t;
  auto t0 = clock_type::now();
  REQUIRE(t.add("a", "conn-1", "notes", "notes/echo", t0));
  CHECK_FALSE(t.add("a", "conn-1", "notes", "notes/echo", t0));
  CHECK(t.open_count() == 1);
  CHECK(t.open_for_plugin("notes") == 1);
  CHECK(t.settle("a", result_of(1)));
  CHECK_FALSE(t.settle("a", result_of(2)));  // duplicate
  CHECK(t.open_count() == 0);
  auto r = t.take("a");
  REQUIRE(r);
  CHECK(r->result.as_int64() == 1);
  CHECK(t.size() == 0);
  CHECK_FALSE(t.settle("a", result_of(3)));  // late
  CHECK_FALSE(t.settle("unknown", result_of(3)));
}

TEST_CASE("timeout after 30 s; progress pushes the deadline but never past the cap") {
  dispatch_table t({.timeout = 30s, .cap = 300s});
  auto t0 = clock_type::now();
  t.add("a", "c", "p", "p/slow", t0);
  CHECK_FALSE(t.expire_if_due("a", t0 + 29s));
  CHECK(t.progress("a", t0 + 29s));
  CHECK(t.find("a")->deadline == t0 + 59s);
  CHECK_FALSE(t.expire_if_due("a", t0 + 58s));
  // Keep reporting progress: the cap still ends it at 300 s.
  for (int s = 60; s < 300; s += 20) t.progress("a", t0 + std::chrono::seconds(s));
  CHECK(t.find("a")->deadline == t0 + 300s);
  CHECK(t.expire_if_due("a", t0 + 300s));
  auto r = t.take("a");
  REQUIRE(r);
  CHECK(r->outcome == ext_reply::kind::timeout);
  CHECK(r->message == "Dispatch p/slow timed out after 300000ms");
}

TEST_CASE("plain timeout message names the 30000 ms timeout") {
  dispatch_table t;
  auto t0 = clock_type::now();
  t.add("a", "c", "", "browser.openTab", t0);
  CHECK(t.expire_if_due("a", t0 + 30s));
  CHECK(t.take("a")->message == "Dispatch browser.openTab timed out after 30000ms");
}

TEST_CASE("a dropped connection fails exactly its own pending calls") {
  dispatch_table t;
  auto t0 = clock_type::now();
  t.add("a", "c1", "p", "p/x", t0);
  t.add("b", "c2", "p", "p/y", t0);
  t.add("c", "c1", "p", "p/z", t0);
  auto failed = t.fail_connection("c1", "Extension disconnected");
  CHECK(failed.size() == 2);
  CHECK(t.open_count() == 1);
  CHECK(t.take("a")->outcome == ext_reply::kind::disconnected);
  CHECK_FALSE(t.progress("c", t0));
  CHECK(t.fail_all(ext_reply::kind::shutdown, "Server shutting down").size() == 1);
  CHECK(t.take("b")->message == "Server shutting down");
}
