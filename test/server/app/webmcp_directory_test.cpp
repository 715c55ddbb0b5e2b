// The WebMCP tool directory: reports per frame, bounds, schema checks, stable and
// collision-free names, removal by tab and connection.
#include <doctest/doctest.h>

#include "app/webmcp_directory.hpp"
#include "schema/lazy_validator.hpp"
#include "schema/validator.hpp"

using namespace opentabs;
using namespace opentabs::app;

namespace {

json::object tool(std::string name, std::string description = "does things", json::value schema = nullptr) {
  json::object t{{"name", json::str(name)}, {"description", json::str(description)}};
  if (!schema.is_null()) t["inputSchema"] = schema;
  return t;
}

json::object frame(std::int64_t tab, std::int64_t frame_id, std::string url, json::array tools,
                   std::string document = "doc1") {
  return json::object{{"tabId", tab},
                      {"frameId", frame_id},
                      {"documentId", json::str(document)},
                      {"url", json::str(url)},
                      {"tools", std::move(tools)}};
}

json::value schema_of(const char* text) { return json::parse(text).value(); }

}  // namespace

TEST_CASE("a frame's tools become MCP tools; their schemas wait, uncompiled, for a call") {
  webmcp_directory d;
  auto u = d.replace_frame("c1", frame(7, 0, "http://127.0.0.1:8123/shop",
                                       json::array{tool("search", "Search the shop",
                                                        schema_of(R"({"type":"object","properties":{"q":{"type":"string"}},"required":["q"]})"))}));
  REQUIRE(u);
  CHECK(u->changed);
  REQUIRE(u->accepted.size() == 1);
  CHECK(u->accepted[0].second == "webmcp_127_0_0_1_8123_search");
  auto defs = d.tool_defs();
  REQUIRE(defs.size() == 1);
  CHECK(defs[0].kind == tools::tool_kind::webmcp);
  CHECK(defs[0].plugin == "webmcp:127_0_0_1_8123");
  CHECK(defs[0].base_name == "search");
  CHECK_FALSE(defs[0].validator);  // compiled on first call, once the site is enabled (webmcp_bridge)
  auto slot = d.schema_of("webmcp_127_0_0_1_8123_search");
  REQUIRE(slot);
  CHECK_FALSE(slot->compiled);
  CHECK(slot->limits.max_patterns == d.limits().max_patterns_per_schema);
  auto v = schema::validator::compile(slot->schema, slot->limits);
  REQUIRE(v);
  CHECK_FALSE((*v)->check(json::parse(R"({"q":"x"})").value()));
  CHECK((*v)->check(json::parse(R"({})").value()));
  slot->compiled = true;
  slot->validator = *v;
  REQUIRE(d.tool_defs()[0].validator);
  CHECK(d.tool_defs()[0].validator->get().value() == *v);
  CHECK_FALSE(d.schema_of("webmcp_127_0_0_1_8123_other"));
  auto target = d.find("webmcp_127_0_0_1_8123_search");
  REQUIRE(target);
  CHECK(target->tab_id == 7);
  CHECK(target->frame_id == 0);
  CHECK(target->document_id == "doc1");
  CHECK(target->tool == "search");
}

TEST_CASE("a missing schema means an object without declared properties") {
  webmcp_directory d;
  REQUIRE(d.replace_frame("c1", frame(1, 0, "https://a.test/", json::array{tool("ping")})));
  auto defs = d.tool_defs();
  REQUIRE(defs.size() == 1);
  CHECK(json::dump(defs[0].input_schema) == R"({"type":"object","properties":{}})");
}

TEST_CASE("the same report again changes nothing; names stay put") {
  webmcp_directory d;
  auto first = d.replace_frame("c1", frame(1, 0, "https://a.test/", json::array{tool("x"), tool("y")}));
  REQUIRE(first);
  auto again = d.replace_frame("c1", frame(1, 0, "https://a.test/", json::array{tool("y"), tool("x")}));
  REQUIRE(again);
  CHECK_FALSE(again->changed);
  auto fewer = d.replace_frame("c1", frame(1, 0, "https://a.test/", json::array{tool("y")}));
  REQUIRE(fewer);
  CHECK(fewer->changed);
  CHECK(d.tool_count() == 1);
}

TEST_CASE("a re-report of the same document keeps the schema slot (and what compiling gave); a new schema or document starts afresh") {
  webmcp_directory d;
  auto s1 = schema_of(R"({"type":"object","properties":{"q":{"type":"string"}}})");
  REQUIRE(d.replace_frame("c1", frame(1, 0, "https://a.test/", json::array{tool("x", "d", s1)})));
  auto first = d.schema_of("webmcp_a_test_x");
  REQUIRE(first);
  first->compiled = true;
  first->validator = schema::validator::compile(first->schema, first->limits).value();
  REQUIRE(d.replace_frame("c1", frame(1, 0, "https://a.test/", json::array{tool("x", "d", s1)})));
  CHECK(d.schema_of("webmcp_a_test_x") == first);
  REQUIRE(d.tool_defs()[0].validator);
  CHECK(d.tool_defs()[0].validator->get().value() == first->validator);
  REQUIRE(d.replace_frame("c1", frame(1, 0, "https://a.test/", json::array{tool("x", "d", schema_of(R"({"type":"object"})"))})));
  auto second = d.schema_of("webmcp_a_test_x");
  CHECK(second != first);
  CHECK_FALSE(second->compiled);
  CHECK_FALSE(d.tool_defs()[0].validator);
  REQUIRE(d.replace_frame("c1", frame(1, 0, "https://a.test/", json::array{tool("x", "d", schema_of(R"({"type":"object"})"))}, "doc2")));
  CHECK(d.schema_of("webmcp_a_test_x") != second);
}

TEST_CASE("per-page caps: tools per tab and schema bytes per tab, across its frames") {
  webmcp_limits lim;
  lim.max_tools_per_page = 3;
  lim.max_schema_bytes_per_page = 200;
  webmcp_directory d(lim);
  REQUIRE(d.replace_frame("c1", frame(1, 0, "https://a.test/", json::array{tool("a"), tool("b")})));
  auto sub = d.replace_frame("c1", frame(1, 5, "https://a.test/f", json::array{tool("c"), tool("d")}));
  REQUIRE(sub);
  CHECK(sub->accepted.size() == 1);
  REQUIRE(sub->rejected.size() == 1);
  CHECK(sub->rejected[0].name == "1 more tool(s)");
  CHECK(sub->rejected[0].reason == "too many WebMCP tools on this page (limit 3 per tab)");
  // Another tab has its own budget; re-reporting a frame does not count its old tools.
  auto other = d.replace_frame("c1", frame(2, 0, "https://a.test/", json::array{tool("a"), tool("b"), tool("c")}));
  CHECK(other->accepted.size() == 3);
  auto again = d.replace_frame("c1", frame(1, 0, "https://a.test/", json::array{tool("a"), tool("b")}));
  CHECK(again->accepted.size() == 2);

  // Schema bytes: {"type":"object","properties":{...}} with a 60-character description each.
  webmcp_directory bytes(lim);
  auto big = [](std::string name) {
    return tool(name, "d", schema_of((R"({"type":"object","description":")" + std::string(60, 'x') + R"("})").c_str()));
  };
  auto u = bytes.replace_frame("c1", frame(1, 0, "https://a.test/", json::array{big("a"), big("b"), big("c")}));
  REQUIRE(u);
  CHECK(u->accepted.size() == 2);
  REQUIRE(u->rejected.size() == 1);
  CHECK(u->rejected[0].name == "c");
  CHECK(u->rejected[0].reason == "the inputSchemas of this page's WebMCP tools exceed 200 bytes in total");
  auto sub_bytes = bytes.replace_frame("c1", frame(1, 1, "https://a.test/f", json::array{big("d")}));
  CHECK(sub_bytes->accepted.empty());
}

TEST_CASE("two tabs of one site get distinct names; the first keeps the plain one") {
  webmcp_directory d;
  REQUIRE(d.replace_frame("c1", frame(10, 0, "http://localhost:9000/a", json::array{tool("search")})));
  auto second = d.replace_frame("c1", frame(11, 0, "http://localhost:9000/b", json::array{tool("search")}));
  REQUIRE(second);
  CHECK(second->accepted[0].second == "webmcp_localhost_9000_search_t11");
  CHECK(d.find("webmcp_localhost_9000_search")->tab_id == 10);
  CHECK(d.find("webmcp_localhost_9000_search_t11")->tab_id == 11);
  // A re-report of tab 11 keeps its name even after tab 10 is gone.
  CHECK(d.remove_tab("c1", 10));
  auto again = d.replace_frame("c1", frame(11, 0, "http://localhost:9000/b", json::array{tool("search")}));
  REQUIRE(again);
  CHECK(again->accepted[0].second == "webmcp_localhost_9000_search_t11");
  // A subframe of the same tab, and another browser profile with the same tab id.
  auto sub = d.replace_frame("c1", frame(11, 3, "http://localhost:9000/frame", json::array{tool("search")}));
  CHECK(sub->accepted[0].second == "webmcp_localhost_9000_search");
  auto sub2 = d.replace_frame("c1", frame(11, 4, "http://localhost:9000/frame", json::array{tool("search")}));
  CHECK(sub2->accepted[0].second == "webmcp_localhost_9000_search_t11f4");
  auto other = d.replace_frame("c2", frame(11, 4, "http://localhost:9000/frame", json::array{tool("search")}));
  CHECK(other->accepted[0].second == "webmcp_localhost_9000_search_t11f4_2");
}

TEST_CASE("different sites never collide") {
  webmcp_directory d;
  REQUIRE(d.replace_frame("c1", frame(1, 0, "https://a.b.test/", json::array{tool("go")})));
  REQUIRE(d.replace_frame("c1", frame(2, 0, "https://a_b.test/", json::array{tool("go")})));
  auto defs = d.tool_defs();
  REQUIRE(defs.size() == 2);
  CHECK(defs[0].plugin != defs[1].plugin);
  CHECK(defs[0].name != defs[1].name);
}

TEST_CASE("bad tools are refused one by one, with reasons") {
  webmcp_directory d;
  json::array tools{
      json::value(42),
      json::object{{"description", "no name"}},
      tool("bad name!"),
      tool("nodesc", ""),
      tool("huge", std::string(9000, 'x')),
      tool("dup"),
      tool("dup"),
      tool("notobject", "d", schema_of(R"({"type":"array"})")),
      tool("badschema", "d", schema_of(R"({"type":"object","properties":{"a":{"type":"nonsense"}}})")),
      tool("badjson", "d", json::str("{not json")),
      tool("ok", "fine", json::str(R"({"type":"object","properties":{"n":{"type":"number"}}})")),
  };
  auto u = d.replace_frame("c1", frame(1, 0, "https://a.test/", tools));
  REQUIRE(u);
  CHECK(u->accepted.size() == 3);  // dup (first), badschema (refused only when a call compiles it) and ok
  std::map<std::string, std::string> why;
  for (const auto& r : u->rejected) why[r.name] = r.reason;
  CHECK(why["#0"] == "tool descriptor must be an object");
  CHECK(why["#1"] == "missing name");
  CHECK(why["bad name!"].find("invalid name") == 0);
  CHECK(why["nodesc"] == "missing description");
  CHECK(why["huge"].find("description longer than") == 0);
  CHECK(why["dup"] == "duplicate name in this frame");
  CHECK(why["notobject"].find("must describe an object") != std::string::npos);
  CHECK_FALSE(why.count("badschema"));
  CHECK(why["badjson"].find("not valid JSON") != std::string::npos);
}

TEST_CASE("thousands of tools: the frame keeps its limit, the rest is refused in one entry") {
  webmcp_limits lim;
  lim.max_tools_per_frame = 50;
  lim.max_tools_per_connection = 120;
  webmcp_directory d(lim);
  json::array many;
  for (int i = 0; i < 3000; ++i) many.push_back(tool("t" + std::to_string(i)));
  auto u = d.replace_frame("c1", frame(1, 0, "https://a.test/", many));
  REQUIRE(u);
  CHECK(u->accepted.size() == 50);
  REQUIRE(u->rejected.size() == 1);
  CHECK(u->rejected[0].name == "2950 more tool(s)");
  CHECK(u->rejected[0].reason.find("limit 50") != std::string::npos);
  REQUIRE(d.replace_frame("c1", frame(2, 0, "https://a.test/", many)));
  auto third = d.replace_frame("c1", frame(3, 0, "https://a.test/", many));
  REQUIRE(third);
  CHECK(third->accepted.size() == 20);  // 120 per connection
  CHECK(d.tool_count() == 120);
}

TEST_CASE("malformed frames are errors naming the field") {
  webmcp_directory d;
  auto no_tab = d.replace_frame("c1", json::object{{"frameId", 0}, {"url", "https://a.test/"}, {"tools", json::array()}});
  REQUIRE_FALSE(no_tab);
  CHECK(no_tab.err().message == "tabId must be a non-negative integer");
  auto bad_url = d.replace_frame("c1", frame(1, 0, "chrome://settings", json::array{tool("x")}));
  REQUIRE_FALSE(bad_url);
  CHECK(bad_url.err().message == "url must be an http(s) URL with a host");
  auto bad_doc = d.replace_frame("c1", frame(1, 0, "https://a.test/", json::array{tool("x")}, "a\"b"));
  REQUIRE_FALSE(bad_doc);
  auto no_tools = d.replace_frame("c1", json::object{{"tabId", 1}, {"frameId", 0}, {"url", "https://a.test/"}});
  REQUIRE_FALSE(no_tools);
  CHECK(no_tools.err().message == "tools must be an array");
  CHECK(d.tool_count() == 0);
}

TEST_CASE("an empty report, a closed tab and a closed connection remove tools") {
  webmcp_directory d;
  REQUIRE(d.replace_frame("c1", frame(1, 0, "https://a.test/", json::array{tool("x")})));
  REQUIRE(d.replace_frame("c1", frame(2, 0, "https://a.test/", json::array{tool("y")})));
  REQUIRE(d.replace_frame("c2", frame(1, 0, "https://b.test/", json::array{tool("z")})));
  auto cleared = d.replace_frame("c1", frame(2, 0, "https://a.test/", json::array{}));
  CHECK(cleared->changed);
  CHECK(d.tool_count() == 2);
  CHECK_FALSE(d.remove_tab("c1", 99));
  CHECK(d.remove_tab("c1", 1));
  CHECK(d.tool_count() == 1);
  CHECK(d.remove_connection("c2"));
  CHECK(d.tool_count() == 0);
}

TEST_CASE("syncAll replaces what a connection reported before") {
  webmcp_directory d;
  REQUIRE(d.replace_frame("c1", frame(1, 0, "https://a.test/", json::array{tool("old")})));
  auto u = d.sync_all("c1", json::object{{"frames", json::array{frame(5, 0, "https://a.test/", json::array{tool("new")}),
                                                                json::value("junk")}}});
  REQUIRE(u);
  CHECK(u->changed);
  CHECK(u->rejected.size() == 1);
  CHECK(d.tool_count() == 1);
  CHECK(d.find("webmcp_a_test_new"));
  CHECK_FALSE(d.find("webmcp_a_test_old"));
}

TEST_CASE("sites summarise keys, tabs and tools for the side panel") {
  webmcp_directory d;
  REQUIRE(d.replace_frame("c1", frame(1, 0, "https://a.test/", json::array{tool("x")})));
  REQUIRE(d.replace_frame("c1", frame(2, 0, "https://a.test/", json::array{tool("x"), tool("y")})));
  auto sites = d.sites();
  REQUIRE(sites.size() == 1);
  CHECK(sites[0].key == "webmcp:a_test");
  CHECK(sites[0].site == "a.test");
  CHECK(sites[0].tabs == std::vector<std::int64_t>{1, 2});
  CHECK(sites[0].tools == std::vector<std::string>{"x", "y"});
  CHECK(sites[0].mcp_names.size() == 3);
}
