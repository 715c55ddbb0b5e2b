// Tests for background_sync (flushes on a thread of its own, requests made during a flush
// get one more, the destructor finishes what was asked) and write_file_unsynced (the temp
// file + rename replacement that leaves no temp file behind).
#include "util/background_sync.hpp"

#include <doctest/doctest.h>

#include "test/support/test_os.hpp"

#include <filesystem>

#include "util/files.hpp"
#include "util/random.hpp"

using namespace opentabs;
namespace fs = std::filesystem;

namespace {

struct temp_dir {
  fs::path path = fs::temp_directory_path() / ("ot-bgsync-" + random_hex(4));
  temp_dir() { fs::create_directories(path); }
  ~temp_dir() { fs::remove_all(path); }
};

}  // namespace

TEST_CASE("write_file_unsynced replaces a file whole and leaves no temp file") {
  temp_dir d;
  auto f = d.path / "server.json";
  REQUIRE(write_file_unsynced(f, "{\"port\":1}\n", 0644).ok());
  REQUIRE(write_file_unsynced(f, "{\"port\":2}\n", 0644).ok());
  CHECK(*read_file(f, 100) == "{\"port\":2}\n");
  CHECK_POSIX_MODE((fs::status(f).permissions() & fs::perms::others_write) == fs::perms::none);
  std::size_t entries = 0;
  for ([[maybe_unused]] auto& e : fs::directory_iterator(d.path)) ++entries;
  CHECK(entries == 1);
  auto missing = write_file_unsynced(d.path / "no-such-dir" / "x", "y", 0644);
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.err().message.find("cannot create") != std::string::npos);
}

TEST_CASE("requests are flushed on the sync thread, each covered by a flush that started after it") {
  temp_dir d;
  auto sync = background_sync::open(d.path);
  REQUIRE(sync.ok());
  CHECK((*sync)->completed() == 0);  // nothing is flushed before it is asked for
  REQUIRE(write_file_unsynced(d.path / "a", "1", 0644).ok());
  (*sync)->request();
  (*sync)->wait();
  CHECK((*sync)->completed() >= 1);
  auto after_first = (*sync)->completed();
  for (int i = 0; i < 5; ++i) (*sync)->request();
  (*sync)->wait();
  // Requests that arrive while a flush runs share the next one: at most one per request.
  CHECK((*sync)->completed() > after_first);
  CHECK((*sync)->completed() <= after_first + 5);
  CHECK((*sync)->last_error().empty());
  sync->reset();  // joins; nothing pending
}

TEST_CASE("a folder that cannot be opened is an error at once") {
  auto sync = background_sync::open(fs::temp_directory_path() / ("ot-bgsync-missing-" + random_hex(4)));
  REQUIRE_FALSE(sync.ok());
  CHECK(sync.err().message.find("cannot open") != std::string::npos);
}
