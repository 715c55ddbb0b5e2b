// Config directory resolution and the well-known paths inside it (spec §2).
#include <doctest/doctest.h>

#include "config/config_paths.hpp"
#include "test/server/config/scratch_dir.hpp"
#include "test/support/test_os.hpp"

using namespace opentabs;
using namespace opentabs::config;
using opentabs::test::mode_of;
using opentabs::test::scratch_dir;

// Skipped on Windows: the test data are POSIX paths (/home/alice), which are not absolute on Windows.
TEST_CASE("OPENTABS_CONFIG_DIR wins over HOME" * doctest::skip(opentabs::testing::on_windows)) {
  auto dir = resolve_config_dir("/tmp/custom-ot", "/home/alice");
  REQUIRE(dir.ok());
  CHECK(*dir == "/tmp/custom-ot");
}

// Skipped on Windows: the test data are POSIX paths (/home/alice), which are not absolute on Windows.
TEST_CASE("without OPENTABS_CONFIG_DIR the directory is ~/.opentabs" * doctest::skip(opentabs::testing::on_windows)) {
  auto dir = resolve_config_dir(std::nullopt, "/home/alice");
  REQUIRE(dir.ok());
  CHECK(*dir == "/home/alice/.opentabs");
  // An empty variable counts as unset, as `process.env.X || default` does in the original.
  CHECK(*resolve_config_dir("", "/home/alice") == "/home/alice/.opentabs");
}

TEST_CASE("a relative OPENTABS_CONFIG_DIR becomes absolute") {
  auto dir = resolve_config_dir("rel/dir", "/home/alice");
  REQUIRE(dir.ok());
  CHECK(dir->is_absolute());
  CHECK(*dir == (std::filesystem::current_path() / "rel/dir").lexically_normal());
}

TEST_CASE("no OPENTABS_CONFIG_DIR and no HOME is an error value") {
  auto dir = resolve_config_dir(std::nullopt, std::nullopt);
  REQUIRE_FALSE(dir.ok());
  CHECK(dir.err().is(errc::not_found));
}

TEST_CASE("the well-known paths") {
  config_paths p{"/cfg"};
  CHECK(p.config_json() == "/cfg/config.json");
  CHECK(p.config_backup() == "/cfg/config.json.backup");
  CHECK(p.extension_dir() == "/cfg/extension");
  CHECK(p.auth_json() == "/cfg/extension/auth.json");
  CHECK(p.adapters_dir() == "/cfg/extension/adapters");
  CHECK(p.audit_log() == "/cfg/audit.log");
  CHECK(p.audit_log_rotated() == "/cfg/audit.log.1");
  CHECK(p.server_log() == "/cfg/server.log");
  CHECK(p.server_pid() == "/cfg/server.pid");
  CHECK(p.logs_dir() == "/cfg/logs");
  CHECK(p.stdio_bridge_log() == "/cfg/logs/stdio-bridge.log");
}

TEST_CASE("ensure_config_dir creates the directory with mode 0700 and leaves an existing one alone") {
  scratch_dir tmp;
  config_paths p{tmp / "nested/.opentabs"};
  REQUIRE(ensure_config_dir(p).ok());
  CHECK(std::filesystem::is_directory(p.dir));
  CHECK_POSIX_MODE(mode_of(p.dir) == 0700);

  // OPENTABS_CONFIG_DIR may name a shared directory: its mode is not ours to change.
  std::filesystem::permissions(p.dir, std::filesystem::perms(0755));
  REQUIRE(ensure_config_dir(p).ok());
  CHECK_POSIX_MODE(mode_of(p.dir) == 0755);
  std::filesystem::permissions(p.dir, std::filesystem::perms(0700));

  // A file where the directory should be is a clear error.
  opentabs::test::write_text(tmp / "file", "x");
  auto blocked = ensure_config_dir(config_paths{tmp / "file"});
  REQUIRE_FALSE(blocked.ok());
  CHECK(blocked.err().message.find("it is a file") != std::string::npos);

  REQUIRE(ensure_extension_dirs(p).ok());
  CHECK_POSIX_MODE(mode_of(p.extension_dir()) == 0700);
  CHECK_POSIX_MODE(mode_of(p.adapters_dir()) == 0700);
}

TEST_CASE("config_paths_from_environment follows OPENTABS_CONFIG_DIR") {
  scratch_dir tmp;
  const char* old = std::getenv("OPENTABS_CONFIG_DIR");
  std::string saved = old ? old : "";
  opentabs::testing::set_env("OPENTABS_CONFIG_DIR", (tmp / "envdir").string());
  auto p = config_paths_from_environment();
  if (old) opentabs::testing::set_env("OPENTABS_CONFIG_DIR", saved); else opentabs::testing::unset_env("OPENTABS_CONFIG_DIR");
  REQUIRE(p.ok());
  CHECK(p->dir == tmp / "envdir");
}
