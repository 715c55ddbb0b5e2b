// Test helper: a private temporary directory tree, removed when the test ends, plus
// shortcuts to write files and to copy the real-format fixture plugins into it.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "test/support/test_os.hpp"

namespace opentabs::testing {

namespace fs = std::filesystem;

class temp_tree {
 public:
  temp_tree() {
    root_ = fs::canonical(make_temp_dir("ot-plugins-test"));
  }
  ~temp_tree() {
    std::error_code ec;
    fs::remove_all(root_, ec);
  }
  temp_tree(const temp_tree&) = delete;
  temp_tree& operator=(const temp_tree&) = delete;

  const fs::path& root() const { return root_; }
  fs::path operator/(std::string_view rel) const { return root_ / rel; }

  fs::path write(std::string_view rel, std::string_view content) const {
    fs::path p = root_ / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << content;
    return p;
  }

  std::string read(std::string_view rel) const {
    std::ifstream in(root_ / rel, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

  // Copies test/fixtures/plugins/<name> to <root>/<as>.
  fs::path copy_fixture(std::string_view name, std::string_view as) const {
    fs::path dst = root_ / as;
    fs::create_directories(dst.parent_path());
    fs::copy(fixture(name), dst, fs::copy_options::recursive);
    return dst;
  }

  static fs::path fixture(std::string_view name) {
    return fs::path(OPENTABS_SOURCE_DIR) / "test/fixtures/plugins" / name;
  }

 private:
  fs::path root_;
};

// A minimal valid plugin (package name opentabs-plugin-<name>) under <root>/<dir>.
inline fs::path write_minimal_plugin(const temp_tree& t, std::string_view dir, std::string_view name,
                                     std::string_view tools_json = {}) {
  std::string d(dir);
  t.write(d + "/package.json", std::string(R"({"name":"opentabs-plugin-)") + std::string(name) +
                                   R"(","version":"1.2.3","main":"dist/adapter.iife.js","opentabs":{"displayName":"Mini",)"
                                   R"("description":"d","urlPatterns":["https://mini.example.com/*"]}})");
  t.write(d + "/dist/tools.json",
          tools_json.empty()
              ? std::string(R"({"sdkVersion":"0.0.115","tools":[{"name":"ping","displayName":"Ping","description":"Ping it","icon":"bell",)"
                            R"("input_schema":{"type":"object","properties":{"n":{"type":"integer"}},"additionalProperties":false},"output_schema":{}}]})")
              : std::string(tools_json));
  t.write(d + "/dist/adapter.iife.js",
          "(function(){})();\n(function(){a.__adapterHash=\"" + std::string(64, 'a') + "\";})();\n");
  return t.root() / d;
}

}  // namespace opentabs::testing
