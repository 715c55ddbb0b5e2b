// Tests for adapter files: content-hashed names, sourceMappingURL rewrite, pre-scripts,
// skipping identical writes, stale-file and __exec-* cleanup.
#include "plugins/adapter_files.hpp"

#include <doctest/doctest.h>

#include <algorithm>

#include "util/sha256.hpp"
#include "temp_tree.hpp"

using namespace opentabs;
using namespace opentabs::plugins;
using opentabs::testing::temp_tree;

namespace {
bool has(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }
}  // namespace

TEST_CASE("names and rewrite") {
  auto notes = load_plugin(temp_tree::fixture("notes"), "local");
  REQUIRE(notes.ok());
  auto n = adapter_file_names_for(*notes);
  std::string h = sha256_hex(notes->adapter_source).substr(0, 8);
  CHECK(hash8(notes->adapter_source) == h);
  CHECK(n.adapter_file == "adapters/fixture-notes-" + h + ".js");
  CHECK(n.source_map_file == "adapters/fixture-notes-" + h + ".js.map");
  CHECK(n.pre_script_file.empty());
  auto tracker = load_plugin(temp_tree::fixture("tracker"), "local");
  REQUIRE(tracker.ok());
  auto tn = adapter_file_names_for(*tracker);
  CHECK(tn.source_map_file.empty());
  CHECK(tn.pre_script_file == "adapters/fixture-tracker-prescript-" + hash8(*tracker->pre_script) + ".js");
  CHECK(rewrite_source_mapping_url("x;\n//# sourceMappingURL=adapter.iife.js.map\n", "p-12345678.js.map") ==
        "x;\n//# sourceMappingURL=p-12345678.js.map\n");
  CHECK(rewrite_source_mapping_url("no map", "m") == "no map");
  CHECK(adapters_dir("/c") == fs::path("/c/extension/adapters"));
}

TEST_CASE("writing, re-writing, and cleaning the adapters directory") {
  temp_tree t;
  auto notes = load_plugin(temp_tree::fixture("notes"), "local");
  auto tracker = load_plugin(temp_tree::fixture("tracker"), "local");
  REQUIRE(notes.ok());
  REQUIRE(tracker.ok());
  fs::path dir = adapters_dir(t / "config");
  auto nn = adapter_file_names_for(*notes);
  auto tn = adapter_file_names_for(*tracker);
  auto base = [](const std::string& rel) { return rel.substr(rel.rfind('/') + 1); };

  t.write("config/extension/adapters/gone-0123abcd.js", "old");
  t.write("config/extension/adapters/gone-0123abcd.js.map", "old");
  t.write("config/extension/adapters/fixture-notes-deadbeef.js", "previous build");
  t.write("config/extension/adapters/__exec-1234.js", "transient");
  t.write("config/extension/adapters/README.txt", "not ours");

  auto r = write_adapter_files(dir, {&*notes, &*tracker});
  CHECK(r.errors.empty());
  CHECK(r.written.size() == 4);
  CHECK(has(r.written, base(nn.adapter_file)));
  CHECK(has(r.written, base(nn.source_map_file)));
  CHECK(has(r.written, base(tn.adapter_file)));
  CHECK(has(r.written, base(tn.pre_script_file)));
  CHECK(has(r.removed, "gone-0123abcd.js"));
  CHECK(has(r.removed, "gone-0123abcd.js.map"));
  CHECK(has(r.removed, "fixture-notes-deadbeef.js"));
  CHECK(fs::exists(dir / "__exec-1234.js"));  // only remove_exec_leftovers touches these
  CHECK(fs::exists(dir / "README.txt"));

  std::string written = t.read("config/extension/" + nn.adapter_file);
  CHECK(written.find("sourceMappingURL=" + base(nn.source_map_file)) != std::string::npos);
  CHECK(written.find("sourceMappingURL=adapter.iife.js.map") == std::string::npos);
  CHECK(t.read("config/extension/" + tn.adapter_file) == tracker->adapter_source);
  CHECK(t.read("config/extension/" + tn.pre_script_file) == *tracker->pre_script);
  if (opentabs::testing::has_posix_modes)
    CHECK((static_cast<unsigned>(fs::status(dir).permissions()) & 0777u) == 0700u);

  // The same files as values (written later, on the server's copier thread).
  auto planned = adapter_files_for({&*notes, &*tracker});
  REQUIRE(planned.size() == 4);
  CHECK(planned[0].name == base(nn.adapter_file));
  CHECK(planned[0].content == written);
  CHECK(planned[1].name == base(nn.source_map_file));
  auto from_list = write_adapter_file_list(dir, planned);
  CHECK(from_list.unchanged.size() == 4);
  CHECK(from_list.written.empty());

  auto again = write_adapter_files(dir, {&*notes, &*tracker});
  CHECK(again.written.empty());
  CHECK(again.unchanged.size() == 4);
  CHECK(again.removed.empty());

  // A plugin removed from the set loses its files on the next write.
  auto fewer = write_adapter_files(dir, {&*tracker});
  CHECK(has(fewer.removed, base(nn.adapter_file)));
  CHECK(has(fewer.removed, base(nn.source_map_file)));
  CHECK_FALSE(fs::exists(t / ("config/extension/" + nn.adapter_file)));

  auto exec = remove_exec_leftovers(dir);
  CHECK(exec == std::vector<std::string>{"__exec-1234.js"});
  CHECK_FALSE(fs::exists(dir / "__exec-1234.js"));
  CHECK(remove_exec_leftovers(t / "no-such-dir").empty());
}

TEST_CASE("an unwritable adapters directory is reported, not thrown") {
  temp_tree t;
  t.write("blocker", "a file where the directory should be");
  auto notes = load_plugin(temp_tree::fixture("notes"), "local");
  REQUIRE(notes.ok());
  auto r = write_adapter_files(t / "blocker/adapters", {&*notes});
  CHECK(r.written.empty());
  CHECK(r.errors.size() == 1);
}
