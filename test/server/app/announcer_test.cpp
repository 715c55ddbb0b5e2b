// The announcer's plain part: which plugins get their own plugin.update after a reload
// (those whose adapter changed; new plugins come with sync.full).
#include "app/announcer.hpp"

#include <doctest/doctest.h>

using namespace opentabs;
using namespace opentabs::app;

namespace {

plugins::plugin plugin_with(std::string name, std::string hash) {
  plugins::plugin p;
  p.loaded.name = std::move(name);
  p.loaded.adapter_hash = std::move(hash);
  return p;
}

}  // namespace

TEST_CASE("plugins_with_new_adapter lists changed adapters only, not new or unchanged plugins") {
  std::map<std::string, std::string> before{{"same", "h1"}, {"rebuilt", "h2"}, {"gone", "h3"}};
  std::vector<plugins::plugin> now{plugin_with("same", "h1"), plugin_with("rebuilt", "h2b"), plugin_with("new", "h4")};
  auto changed = plugins_with_new_adapter(before, now);
  REQUIRE(changed.size() == 1);
  CHECK(changed[0]->name() == "rebuilt");
  CHECK(plugins_with_new_adapter({}, now).empty());
}
