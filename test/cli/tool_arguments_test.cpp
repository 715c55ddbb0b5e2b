// `tool call` arguments: one source only, JSON errors with their position, objects only,
// --tab-id and --instance merged, size limits, closest tool names.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "cli/tool_arguments.hpp"

using namespace opentabs;
using namespace opentabs::cli;

namespace {
using opt = std::optional<std::string>;
tool_argument_inputs in(opt positional, opt params = {}, opt tab_id = {}, opt instance = {}) {
  tool_argument_inputs i;
  i.positional = positional;
  i.params = params;
  i.tab_id = tab_id;
  i.instance = instance;
  return i;
}
}  // namespace

TEST_CASE("no arguments is an empty object; the positional JSON is used as is") {
  CHECK(build_tool_arguments({})->empty());
  auto a = build_tool_arguments(in("{\"channel\":\"C1\"}"));
  REQUIRE(a.ok());
  CHECK(json::dump(*a) == "{\"channel\":\"C1\"}");
}

TEST_CASE("tab id and instance are merged into the arguments") {
  auto a = build_tool_arguments(in({}, "{\"x\":1}", "42", "work"));
  REQUIRE(a.ok());
  CHECK(json::get_int(*a, "tabId") == 42);
  CHECK(*json::get_string(*a, "instance") == "work");
  CHECK(json::get_int(*a, "x") == 1);
}

TEST_CASE("errors: bad JSON with position, not an object, two sources, bad tab id") {
  auto bad = build_tool_arguments(in("{\n  \"a\": }"));
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.err().is(errc::invalid_params));
  CHECK(bad.err().message.find("line 2") != std::string::npos);
  auto arr = build_tool_arguments(in({}, "[1,2]"));
  REQUIRE_FALSE(arr.ok());
  CHECK(arr.err().message.find("--params must be a JSON object") != std::string::npos);
  auto two = build_tool_arguments(in("{}", "{}"));
  REQUIRE_FALSE(two.ok());
  CHECK(two.err().code() == "usage");
  for (const char* t : {"0", "-3", "abc", "1.5", "99999999999"}) {
    auto r = build_tool_arguments(in({}, {}, t));
    REQUIRE_FALSE(r.ok());
    CHECK(r.err().message.find("--tab-id") != std::string::npos);
  }
}

TEST_CASE("params files: a missing file, the size limit, stdin") {
  auto missing = read_params_file("/nonexistent/params.json", stdin);
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.err().message.find("/nonexistent/params.json") != std::string::npos);
  auto dir = std::filesystem::temp_directory_path() / "opentabs-cli-test-params";
  std::filesystem::create_directories(dir);
  auto big = dir / "big.json";
  {
    std::ofstream f(big);
    f << std::string(2000, ' ');
  }
  auto r = read_params_file(big.string(), stdin, 1000);
  REQUIRE_FALSE(r.ok());
  CHECK(r.err().code() == "too_large");
  CHECK(r.err().message.find("the limit is") != std::string::npos);
  std::FILE* in = std::fopen(big.string().c_str(), "r");
  auto from_stdin = read_params_file("-", in, 1000);
  std::fclose(in);
  REQUIRE_FALSE(from_stdin.ok());
  CHECK(from_stdin.err().code() == "too_large");
  std::filesystem::remove_all(dir);
}

TEST_CASE("closest names: typos, missing letters, double-underscore spellings") {
  std::vector<std::string> names = {"browser_list_tabs", "browser_list_tab_groups", "browser_open_tab", "slack_send_message"};
  auto a = closest_names("browser_list_tab", names);
  REQUIRE_FALSE(a.empty());
  CHECK(a.front() == "browser_list_tabs");
  auto b = closest_names("slack__send_mesage", names);
  REQUIRE_FALSE(b.empty());
  CHECK(b.front() == "slack_send_message");
  CHECK(closest_names("zzzzzzzzzzzzzz", names).empty());
}
