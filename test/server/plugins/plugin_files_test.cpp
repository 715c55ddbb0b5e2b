// read_plugin_file: regular files only, no link out of the plugin folder, size cap first.
#include "plugins/plugin_files.hpp"

#if !defined(_WIN32)
#include <sys/stat.h>  // mkfifo: FIFOs and device files are POSIX-only
#endif

#include <doctest/doctest.h>

#include "temp_tree.hpp"

using opentabs::plugins::read_plugin_file;
using opentabs::testing::temp_tree;
namespace fs = std::filesystem;

// Skipped on Windows: the mingw-w64 libstdc++ implements no std::filesystem::create_symlink (ENOSYS).
TEST_CASE("read_plugin_file reads regular files, also through a link that stays in the folder" * doctest::skip(opentabs::testing::on_windows)) {
  temp_tree t;
  t.write("plugin/dist/tools.json", "[1]");
  fs::create_symlink("tools.json", t / "plugin/dist/alias.json");
  auto r = read_plugin_file(t / "plugin", "dist/tools.json", 100);
  REQUIRE(r);
  CHECK(*r == "[1]");
  auto alias = read_plugin_file(t / "plugin", "dist/alias.json", 100);
  REQUIRE(alias);
  CHECK(*alias == "[1]");
}

// Skipped on Windows: the mingw-w64 libstdc++ implements no std::filesystem::create_symlink (ENOSYS).
TEST_CASE("read_plugin_file refuses links out of the folder, FIFOs, devices and oversized files" * doctest::skip(opentabs::testing::on_windows)) {
  temp_tree t;
  t.write("outside/id_rsa", "PRIVATE");
  t.write("plugin/package.json", std::string(200, 'x'));
  fs::create_directories(t / "plugin/dist");
  fs::create_symlink(t / "outside/id_rsa", t / "plugin/dist/adapter.iife.js");

  auto out = read_plugin_file(t / "plugin", "dist/adapter.iife.js", 100);
  REQUIRE_FALSE(out);
  CHECK(out.err().code() == "unsafe_file");
  CHECK(out.err().message == "dist/adapter.iife.js is a symbolic link that leads out of the plugin folder; it was not read");
  CHECK(out.err().message.find("PRIVATE") == std::string::npos);

#if !defined(_WIN32)
  fs::create_symlink("/dev/ptmx", t / "plugin/dist/tools.json");
  REQUIRE(::mkfifo((t / "plugin/dist/pre.js").c_str(), 0600) == 0);
  auto device = read_plugin_file(t / "plugin", "dist/tools.json", 100);
  REQUIRE_FALSE(device);
  CHECK(device.err().code() == "unsafe_file");

  auto fifo = read_plugin_file(t / "plugin", "dist/pre.js", 100);
  REQUIRE_FALSE(fifo);
  CHECK(fifo.err().message == "dist/pre.js is a FIFO; a plugin may contain only regular files");
#endif

  auto big = read_plugin_file(t / "plugin", "package.json", 100);
  REQUIRE_FALSE(big);
  CHECK(big.err().code() == "too_large");

  auto missing = read_plugin_file(t / "plugin", "dist/none.js", 100);
  REQUIRE_FALSE(missing);
  CHECK(missing.err().code() == "not_found");
}
