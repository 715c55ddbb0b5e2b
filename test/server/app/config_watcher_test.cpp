// What the dev watcher stamps: package.json and the two dist/ outputs of each configured
// local plugin folder and of each child of a localPluginDirs entry (built or not), and a
// rebuilt output changes the stamps.
#include "app/config_watcher.hpp"

#include <doctest/doctest.h>

#include <fstream>

#include "util/random.hpp"

using namespace opentabs;
using namespace opentabs::app;
namespace fs = std::filesystem;

namespace {

struct sandbox {
  fs::path root = fs::temp_directory_path() / ("ot-watcher-test-" + random_hex(6));
  sandbox() { fs::create_directories(root); }
  ~sandbox() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
};

}  // namespace

TEST_CASE("local_plugin_stamps covers configured folders and the children of plugin dirs") {
  sandbox box;
  auto single = box.root / "single";
  fs::create_directories(single / "dist");
  std::ofstream(single / "package.json") << "{}";
  std::ofstream(single / "dist" / "tools.json") << "[]";
  auto dir = box.root / "many";
  fs::create_directories(dir / "a");
  fs::create_directories(dir / "b");
  std::ofstream(dir / "not-a-folder.txt") << "x";

  config::config_file cfg;
  cfg.local_plugins = {single.string()};
  cfg.local_plugin_dirs = {dir.string()};
  auto stamps = local_plugin_stamps({}, cfg, box.root, box.root);
  CHECK(stamps.size() == 3 * dev_stamp_files);
  CHECK(stamps.count((single / "dist/adapter.iife.js").string()) == 1);
  CHECK(stamps.count((dir / "a" / "package.json").string()) == 1);
  CHECK(stamps.count((dir / "b" / "dist/tools.json").string()) == 1);

  std::ofstream(single / "dist" / "adapter.iife.js") << "(()=>{})()";
  auto rebuilt = local_plugin_stamps({}, cfg, box.root, box.root);
  CHECK(rebuilt.size() == stamps.size());
  CHECK(rebuilt != stamps);
  CHECK(local_plugin_stamps({}, cfg, box.root, box.root) == rebuilt);
}
