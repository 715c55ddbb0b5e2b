// Tests for output_file_policy: where a tool may write a file a call names (output folder,
// additionalAllowedDirectories), and that it never follows a symlink, never replaces a file
// without overwrite, never writes the config folder's own files, and writes atomically 0600.
#include "app/output_files.hpp"

#include <doctest/doctest.h>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "test/support/test_os.hpp"
#include "util/random.hpp"

using namespace opentabs;
using namespace opentabs::app;
namespace fs = std::filesystem;

namespace {

struct sandbox {
  fs::path root = fs::temp_directory_path() / ("ot-output-test-" + random_hex(6));
  fs::path config = root / "config";
  fs::path home = root / "home";
  sandbox() {
    fs::create_directories(config / "extension");
    fs::create_directories(home);
    std::ofstream(config / "config.json") << "{}";
    std::ofstream(config / "extension" / "auth.json") << "{\"secret\":\"s\"}";
  }
  ~sandbox() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  output_locations where(std::vector<fs::path> extra = {}) const {
    return output_locations{config, config / "output", std::move(extra)};
  }
};

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

unsigned mode_of(const fs::path& p) {
  return static_cast<unsigned>(fs::symlink_status(p).permissions()) & 0777u;
}

}  // namespace

TEST_CASE("a relative filePath lands in the output folder, created 0700, the file 0600") {
  sandbox s;
  output_file_policy policy(s.where());
  auto written = policy.write("traffic.har", "HAR", false);
  REQUIRE(written.ok());
  CHECK(*written == s.config / "output" / "traffic.har");
  CHECK(read_text(*written) == "HAR");
  CHECK_POSIX_MODE(mode_of(*written) == 0600);
  CHECK_POSIX_MODE(mode_of(s.config / "output") == 0700);
  auto nested = policy.write("shots/today/a.png", "PNG", false);
  REQUIRE(nested.ok());
  CHECK(*nested == s.config / "output" / "shots" / "today" / "a.png");
  // No temp file is left behind.
  for (const auto& e : fs::directory_iterator(s.config / "output")) CHECK(e.path().filename().string().find(".tmp.") == std::string::npos);
}

TEST_CASE("paths outside the output folder and the allowed folders are refused, naming the path") {
  sandbox s;
  output_file_policy policy(s.where());
  auto bashrc = policy.write((s.home / ".bashrc").string(), "evil", false);
  REQUIRE_FALSE(bashrc.ok());
  CHECK(bashrc.err().is(errc::invalid_params));
  CHECK(bashrc.err().message.find((s.home / ".bashrc").string()) != std::string::npos);
  CHECK(bashrc.err().message.find("outside") != std::string::npos);
  CHECK_FALSE(fs::exists(s.home / ".bashrc"));
  CHECK_FALSE(policy.resolve("../config.json").ok());
  CHECK_FALSE(policy.resolve("a/../../config.json").ok());
  CHECK_FALSE(policy.resolve((s.config / "output" / ".." / "config.json").string()).ok());
  CHECK_FALSE(policy.resolve("").ok());
  CHECK_FALSE(policy.resolve(std::string("a\0b", 3)).ok());
  CHECK_FALSE(policy.resolve((s.config / "output").string()).ok());  // the folder itself is no file
  CHECK_FALSE(policy.resolve("/").ok());
  // An additional folder is allowed; a sibling whose name starts the same is not.
  fs::create_directories(s.home / "exports");
  output_file_policy wider(s.where({s.home / "exports"}));
  CHECK(wider.write((s.home / "exports" / "a.har").string(), "x", false).ok());
  CHECK_FALSE(wider.resolve((s.home / "exports-evil" / "a.har").string()).ok());
}

TEST_CASE("an existing file is replaced only with overwrite") {
  sandbox s;
  output_file_policy policy(s.where());
  REQUIRE(policy.write("a.har", "one", false).ok());
  auto again = policy.write("a.har", "two", false);
  REQUIRE_FALSE(again.ok());
  CHECK(again.err().message.find("already exists; pass overwrite: true") != std::string::npos);
  CHECK(read_text(s.config / "output" / "a.har") == "one");
  REQUIRE(policy.write("a.har", "two", true).ok());
  CHECK(read_text(s.config / "output" / "a.har") == "two");
  CHECK_POSIX_MODE(mode_of(s.config / "output" / "a.har") == 0600);
}

// Skipped on Windows: the mingw-w64 libstdc++ implements no std::filesystem::create_symlink (ENOSYS).
TEST_CASE("symbolic links at the target or below the allowed folder are never followed" * doctest::skip(opentabs::testing::on_windows)) {
  sandbox s;
  output_file_policy policy(s.where());
  fs::create_directories(s.config / "output");
  std::ofstream(s.home / ".bashrc") << "original";
  fs::create_symlink(s.home / ".bashrc", s.config / "output" / "link.har");
  auto at_target = policy.write("link.har", "evil", true);
  REQUIRE_FALSE(at_target.ok());
  CHECK(at_target.err().message.find("symbolic link") != std::string::npos);
  CHECK(read_text(s.home / ".bashrc") == "original");
  CHECK(fs::is_symlink(s.config / "output" / "link.har"));

  fs::create_directory_symlink(s.home, s.config / "output" / "dirlink");
  auto below = policy.write("dirlink/.profile", "evil", false);
  REQUIRE_FALSE(below.ok());
  CHECK(below.err().message.find("symbolic link") != std::string::npos);
  CHECK_FALSE(fs::exists(s.home / ".profile"));

  // A dangling link is refused too (O_CREAT through it would create its target).
  fs::create_symlink(s.home / "new-file", s.config / "output" / "dangling.har");
  CHECK_FALSE(policy.write("dangling.har", "evil", true).ok());
  CHECK_FALSE(fs::exists(s.home / "new-file"));
}

TEST_CASE("the config folder's own files are refused even when the folder is allowed") {
  sandbox s;
  for (const auto& extra : {s.config, s.root}) {
    output_file_policy policy(s.where({extra}));
    for (const auto& victim : {s.config / "config.json", s.config / "extension" / "auth.json", s.config / "audit.log",
                               s.config / "extension" / "adapters" / "x.js"}) {
      auto r = policy.write(victim.string(), "evil", true);
      REQUIRE_FALSE(r.ok());
      CHECK(r.err().is(errc::invalid_params));
      CHECK(r.err().message.find("config folder") != std::string::npos);
    }
    CHECK(read_text(s.config / "config.json") == "{}");
    CHECK(read_text(s.config / "extension" / "auth.json") == "{\"secret\":\"s\"}");
    CHECK_FALSE(fs::exists(s.config / "audit.log"));
    // Its output folder still works.
    CHECK(policy.write((s.config / "output" / "ok.har").string(), "x", true).ok());
  }
  // An output folder set to the config folder itself (or its extension/) opens nothing there.
  for (const auto& out : {s.config, s.config / "extension"}) {
    output_file_policy policy(output_locations{s.config, out, {}});
    CHECK_FALSE(policy.write("config.json", "evil", true).ok());
    CHECK_FALSE(policy.write("auth.json", "evil", true).ok());
  }
  CHECK(read_text(s.config / "config.json") == "{}");
}

TEST_CASE("output folders come from config.json, expanded against home and the config folder") {
  config::config_file cfg;
  auto dflt = output_locations_from_config(cfg, "/c", "/h");
  CHECK(dflt.output_dir == fs::path("/c/output"));
  CHECK(dflt.config_dir == fs::path("/c"));
  cfg.output_directory = "~/Downloads/opentabs/";
  cfg.additional_allowed_directories = {"~/exports", "/srv/out", "rel", ""};
  auto set = output_locations_from_config(cfg, "/c", "/h");
  CHECK(set.output_dir == fs::path("/h/Downloads/opentabs"));
  REQUIRE(set.additional_dirs.size() == 3);
  CHECK(set.additional_dirs[0] == fs::path("/h/exports"));
  CHECK(set.additional_dirs[1] == fs::path("/srv/out"));
  CHECK(set.additional_dirs[2] == fs::path("/c/rel"));
}

// Skipped on Windows: the mingw-w64 libstdc++ implements no std::filesystem::create_symlink (ENOSYS).
TEST_CASE("readable: files for upload come only from the allowed folders, never through links or from the config folder" * doctest::skip(opentabs::testing::on_windows)) {
  sandbox s;
  fs::create_directories(s.config / "output" / "sub");
  std::ofstream(s.config / "output" / "doc.txt") << "doc";
  std::ofstream(s.config / "output" / "sub" / "deep.txt") << "deep";
  std::ofstream(s.home / "secret.txt") << "secret";
  output_file_policy policy(s.where());

  auto rel = policy.readable("doc.txt");
  REQUIRE(rel.ok());
  CHECK(*rel == fs::canonical(s.config / "output" / "doc.txt"));
  CHECK(policy.readable((s.config / "output" / "sub" / "deep.txt").string()).ok());

  for (const auto& bad : {(s.home / "secret.txt").string(), std::string("../extension/auth.json"), std::string("missing.txt"),
                          std::string("sub"), std::string("")}) {
    auto r = policy.readable(bad);
    REQUIRE_FALSE(r.ok());
    CHECK(r.err().is(errc::invalid_params));
  }

  fs::create_symlink(s.home / "secret.txt", s.config / "output" / "link.txt");
  auto link = policy.readable("link.txt");
  REQUIRE_FALSE(link.ok());
  CHECK(link.err().message.find("symbolic link") != std::string::npos);
  fs::create_directory_symlink(s.home, s.config / "output" / "dirlink");
  CHECK_FALSE(policy.readable("dirlink/secret.txt").ok());

  // With the config folder (or its parent) allowed, its own files stay unreadable; the home
  // file becomes readable once home is an allowed folder.
  for (const auto& extra : {s.config, s.root}) {
    output_file_policy wide(s.where({extra}));
    for (const auto& victim : {s.config / "config.json", s.config / "extension" / "auth.json"}) {
      auto r = wide.readable(victim.string());
      REQUIRE_FALSE(r.ok());
      CHECK(r.err().message.find("config folder") != std::string::npos);
    }
    CHECK(wide.readable("doc.txt").ok());
  }
  CHECK(output_file_policy(s.where({s.home})).readable((s.home / "secret.txt").string()).ok());
}
