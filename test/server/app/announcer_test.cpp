// The announcer's plain part: which plugins get their own plugin.update after a reload
// (those whose adapter or tools.json changed; new plugins come with sync.full).
#include "app/announcer.hpp"

#include <doctest/doctest.h>

using namespace opentabs;
using namespace opentabs::app;

namespace {

plugins::plugin plugin_with(std::string name, std::string hash, std::string source = "adapter", std::string tools = "t1") {
  plugins::plugin p;
  p.loaded.name = std::move(name);
  p.loaded.adapter_hash = std::move(hash);
  p.loaded.adapter_source = std::move(source);
  p.loaded.tools_json_sha256 = std::move(tools);
  return p;
}

using names = std::vector<std::string>;

}  // namespace

TEST_CASE("rebuilt_plugins lists changed adapters and tools.json only, not new, gone or unchanged plugins") {
  std::vector<plugins::plugin> before{plugin_with("same", "h1"), plugin_with("rebuilt", "h2"), plugin_with("gone", "h3")};
  std::vector<plugins::plugin> now{plugin_with("same", "h1"), plugin_with("rebuilt", "h2b"), plugin_with("new", "h4")};
  auto news = rebuilt_plugins(before, now);
  CHECK(news.rebuilt_adapters == names{"rebuilt"});
  CHECK(news.rebuilt_tools.empty());
  CHECK(rebuilt_plugins({}, now).rebuilt_adapters.empty());
}

TEST_CASE("an adapter rebuilt with its embedded hash unchanged counts as rebuilt: the file's content decides") {
  std::vector<plugins::plugin> before{plugin_with("p", "h1", "old body")};
  std::vector<plugins::plugin> now{plugin_with("p", "h1", "new body")};
  CHECK(rebuilt_plugins(before, now).rebuilt_adapters == names{"p"});
}

TEST_CASE("a tools.json changed alone is listed as rebuilt tools, not as a rebuilt adapter") {
  std::vector<plugins::plugin> before{plugin_with("p", "h1", "body", "tools-a")};
  std::vector<plugins::plugin> now{plugin_with("p", "h1", "body", "tools-b")};
  auto news = rebuilt_plugins(before, now);
  CHECK(news.rebuilt_adapters.empty());
  CHECK(news.rebuilt_tools == names{"p"});
}
