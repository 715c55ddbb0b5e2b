// The method table: one registration per name, lookup by name and call kind.
#include <doctest/doctest.h>

#include <functional>

#include "jsonrpc/method_table.hpp"

using namespace opentabs::jsonrpc;

TEST_CASE("methods are found by name and by the kind of call they answer") {
  method_table<std::function<int()>> table;
  table.add("ping", {[] { return 1; }, params_kind::none, call_kind::either, rate_class::exempt});
  table.add("config.getState", {[] { return 2; }, params_kind::none, call_kind::request});
  table.add("plugin.log", {[] { return 3; }, params_kind::object, call_kind::notification});

  REQUIRE(table.find("ping"));
  CHECK(table.find("ping")->handler() == 1);
  CHECK(table.find("ping")->rate == rate_class::exempt);
  CHECK(table.find("config.getState", true));
  CHECK_FALSE(table.find("config.getState", false));
  CHECK(table.find("plugin.log", false));
  CHECK_FALSE(table.find("plugin.log", true));
  CHECK_FALSE(table.find("plugin.nothing"));
  CHECK(table.size() == 3);
  CHECK(table.names() == std::vector<std::string>{"config.getState", "ping", "plugin.log"});
}

TEST_CASE("a name registered twice is a programming error") {
  method_table<int> table;
  table.add("a", {1});
  CHECK_THROWS_AS(table.add("a", {2}), std::logic_error);
}
