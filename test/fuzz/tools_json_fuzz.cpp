// libFuzzer target: plugin tools.json parsing through the real loader (plugins::load_plugin),
// which reads the package from a directory: a valid package.json and adapter are written
// once into a private temporary directory and each input becomes its dist/tools.json.  Tool
// names, descriptions, icons, configSchema, preScriptFile and every input schema's
// compilation are reached this way.  A failed load must name the file and what is wrong.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "plugins/loader.hpp"

namespace fs = std::filesystem;
namespace plugins = opentabs::plugins;

namespace {
void write(const fs::path& p, std::string_view text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

const fs::path& plugin_dir() {
  static const fs::path dir = [] {
    const fs::path base = fs::exists("/dev/shm") ? fs::path("/dev/shm") : fs::temp_directory_path();
    fs::path d = base / ("opentabs-fuzz-plugin-" + std::to_string(::getpid()));
    fs::create_directories(d / "dist");
    write(d / "package.json",
          R"({"name":"opentabs-plugin-fuzz","version":"1.0.0","main":"dist/adapter.iife.js",)"
          R"("opentabs":{"displayName":"Fuzz","description":"fuzz target","urlPatterns":["http://localhost/*"]}})");
    write(d / "dist" / "adapter.iife.js", "(function(){})();\n");
    write(d / "dist" / "pre.js", "void 0;\n");
    std::atexit([] { std::error_code ec; fs::remove_all(plugin_dir(), ec); });
    return d;
  }();
  return dir;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const fs::path& dir = plugin_dir();
  write(dir / "dist" / "tools.json", std::string_view(reinterpret_cast<const char*>(data), size));
  plugins::load_options options;
  options.browser_tool_names = {"browser_list_tabs", "browser_execute_script"};
  options.schema_limits.max_schema_nodes = 300;  // keeps one input cheap for the fuzzer's pace
  auto loaded = plugins::load_plugin(dir, "local", options);
  if (!loaded) {
    const auto& message = loaded.err().message;
    if (message.rfind("dist/tools.json: ", 0) != 0 && message.rfind("package.json: ", 0) != 0) __builtin_trap();
  }
  return 0;
}
