// merge_fan_out: the original shapes of extension_get_state / extension_get_logs with
// per-connection detail added, and the tagged concatenation of list results.
#include "app/fan_out_results.hpp"

#include <doctest/doctest.h>

using namespace opentabs;
using namespace opentabs::app;

namespace {

profile_answer ok(std::string id, json::value result) {
  ext_reply r;
  r.result = std::move(result);
  return {std::move(id), std::move(r)};
}

profile_answer failed(std::string id, std::string message) {
  ext_reply r;
  r.outcome = ext_reply::kind::disconnected;
  r.message = std::move(message);
  return {std::move(id), std::move(r)};
}

}  // namespace

TEST_CASE("extension_get_state: {connections:[{connectionId, ...state}]}, failures as {connectionId, error}") {
  auto one = merge_fan_out("extension_get_state", {ok("A", json::object{{"serverPort", 9515}, {"connectionId", "A"}})});
  CHECK(json::dump(one) == R"({"connections":[{"connectionId":"A","serverPort":9515}]})");
  auto two = merge_fan_out("extension_get_state", {ok("A", json::object{{"x", 1}}), failed("B", "Extension disconnected")});
  CHECK(json::dump(two) ==
        R"({"connections":[{"connectionId":"A","x":1},{"connectionId":"B","error":"Extension disconnected"}]})");
}

TEST_CASE("extension_get_logs: entries tagged and newest first, stats summed, per-connection detail added") {
  auto merged = merge_fan_out(
      "extension_get_logs",
      {ok("A", json::object{{"entries", json::array{json::object{{"timestamp", 1}, {"message", "a1"}},
                                                    json::object{{"timestamp", 5}, {"message", "a5"}}}},
                            {"stats", json::object{{"totalBackground", 2}, {"totalOffscreen", 1}, {"bufferSize", 3}}}}),
       ok("B", json::object{{"entries", json::array{json::object{{"timestamp", 3}, {"message", "b3"}}}},
                            {"stats", json::object{{"totalBackground", 1}, {"totalOffscreen", 0}, {"bufferSize", 1}}}}),
       failed("C", "")});
  const auto& o = merged.as_object();
  std::string order;
  for (const auto& e : o.at("entries").as_array())
    order += std::string(e.as_object().at("message").as_string()) + "@" + std::string(e.as_object().at("connectionId").as_string()) + " ";
  CHECK(order == "a5@A b3@B a1@A ");
  CHECK(json::dump(o.at("stats")) == R"({"totalBackground":3,"totalOffscreen":1,"bufferSize":4})");
  const auto& detail = o.at("connections").as_array();
  REQUIRE(detail.size() == 3);
  CHECK(json::dump(detail[2]) == R"({"connectionId":"C","error":"no answer"})");
}

TEST_CASE("lists are concatenated with a connectionId on each object") {
  auto merged = merge_fan_out("browser_list_tabs", {ok("A", json::array{json::object{{"id", 1}}}), ok("B", json::array{json::object{{"id", 2}}})});
  CHECK(json::dump(merged) == R"([{"id":1,"connectionId":"A"},{"id":2,"connectionId":"B"}])");
}
