// The announcer's plain part: which plugins get their own plugin.update after a reload
// (those whose adapter or tools.json changed; new plugins come with sync.full); and the
// greeting of a new connection over a fake extension: adapter files first, then sync.full.
#include "app/announcer.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "app/server_state.hpp"
#include "fake_extension.hpp"
#include "util/random.hpp"

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

namespace {

// The announcer's adapter_files_writer: counts the rewrites and notes how many frames the
// connection had received when each ran (sync.full must come after).
struct counting_writer final : adapter_files_writer {
  const std::vector<std::string>* frames = nullptr;
  std::vector<std::size_t> frames_seen;
  void rewrite_adapter_files() override { frames_seen.push_back(frames ? frames->size() : 0); }
};

struct greeting_fixture {
  greeting_fixture() { std::filesystem::create_directories(dir); }
  ~greeting_fixture() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }

  std::filesystem::path dir = std::filesystem::temp_directory_path() / ("opentabs-announcer-test-" + uuid_v4());
  asio::io_context io;
  server_state state{config::config_paths{dir}, dir};
  tools::server_events events;
  net::task_group tasks{io.get_executor()};
  opentabs::app::testing::connection_log connections;
  extension_hub hub{io.get_executor(), dispatch_timing{}, connections};
  counting_writer adapters;
  announcer announce{state.config, state.catalog, state.webmcp, hub, events, tasks, adapters};
};

}  // namespace

TEST_CASE("greeting a connection rewrites the adapter files first, then sends it sync.full") {
  greeting_fixture f;
  opentabs::app::testing::fake_extension ext(f.hub, "profile-1");
  f.adapters.frames = &ext.frames;
  f.announce.greet(*ext.connection());
  CHECK(f.adapters.frames_seen == std::vector<std::size_t>{0});
  CHECK(ext.calls("sync.full").size() == 1);
}

TEST_CASE("while sync.full is held a new connection is neither greeted nor are adapter files written for it") {
  greeting_fixture f;
  opentabs::app::testing::fake_extension ext(f.hub, "profile-1");
  f.announce.hold_sync();
  f.announce.greet(*ext.connection());
  CHECK(f.adapters.frames_seen.empty());
  CHECK(ext.calls("sync.full").empty());
  f.announce.release_sync();
  CHECK(ext.calls("sync.full").size() == 1);
}
