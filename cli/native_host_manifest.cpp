#include "cli/native_host_manifest.hpp"

#include "cli/cli_failure.hpp"
#include "util/base64.hpp"
#include "util/files.hpp"
#include "util/sha256.hpp"

namespace opentabs::cli::native {

result<std::string> extension_id_from_key(std::string_view base64_key) {
  auto der = decode_base64(base64_key);
  if (!der || der->empty()) return make_error(errc::invalid_params, "the extension manifest's \"key\" is not valid base64");
  sha256 h;
  h.update(*der);
  auto digest = h.finish();
  std::string id;
  for (std::size_t i = 0; i < 16; ++i) {
    id.push_back(static_cast<char>('a' + (digest[i] >> 4)));
    id.push_back(static_cast<char>('a' + (digest[i] & 0x0f)));
  }
  return id;
}

result<std::string> extension_id_from_manifest(const fs::path& manifest_json) {
  auto text = read_file(manifest_json, 1024 * 1024);
  if (!text) return make_error(errc::io, "cannot read " + manifest_json.string() + ": " + text.err().message);
  auto parsed = json::parse_object(*text);
  if (!parsed) return make_error(errc::invalid_params, manifest_json.string() + ": " + parsed.err().message);
  const auto* key = json::get_string(*parsed, "key");
  if (!key) return make_error(errc::invalid_params, manifest_json.string() + " has no \"key\" (the extension ID would not be fixed)");
  return extension_id_from_key(std::string_view(*key));
}

result<std::vector<manifest_location>> manifest_locations(platform::os target, const platform::user_folders& folders,
                                                          std::string_view browser,
                                                          std::optional<fs::path> user_data_dir) {
  if (user_data_dir) return std::vector<manifest_location>{{"custom", platform::host_location_in_profile(*user_data_dir, kHostName)}};
  auto one = platform::browser_from_name(browser);
  if (!one && browser != "all")
    return make_error(cli_failure::usage,
                      "unknown browser '" + std::string(browser) + "': use chrome, chromium, edge, brave or all");
  std::vector<manifest_location> out;
  for (auto b : platform::kAllBrowsers)
    if (!one || *one == b)
      out.push_back({std::string(platform::browser_name(b)), platform::host_location_for(target, b, folders, kHostName)});
  return out;
}

json::object host_manifest(const fs::path& launcher, std::string_view extension_id) {
  return json::object{{"name", json::str(kHostName)},
                      {"description", "opentabs: tells the OpenTabs extension where the local server is and starts it"},
                      {"path", json::str(launcher.string())},
                      {"type", "stdio"},
                      {"allowed_origins", json::array{json::str("chrome-extension://" + std::string(extension_id) + "/")}}};
}

namespace {
// Single-quoted for /bin/sh: every ' becomes '\''.
std::string sh_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Quoted for a batch file: inside "…" only % still expands (doubled to stay literal); a
// Windows path cannot contain ".
std::string cmd_quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) out += c == '%' ? std::string("%%") : std::string(1, c);
  return out + "\"";
}

std::string sh_launcher(const fs::path& binary, const fs::path& config_dir, std::optional<std::uint16_t> port) {
  std::string s = "#!/bin/sh\n# Started by Chrome for the OpenTabs extension (native messaging). Written by\n"
                  "# `opentabs native-host install`; removed by `opentabs native-host uninstall`.\n";
  s += "OPENTABS_CONFIG_DIR=" + sh_quote(config_dir.string()) + "\nexport OPENTABS_CONFIG_DIR\n";
  if (port) s += "OPENTABS_PORT=" + std::to_string(*port) + "\nexport OPENTABS_PORT\n";
  s += "exec " + sh_quote(binary.string()) + " native-host run \"$@\"\n";
  return s;
}

// Batch files want CRLF line ends; `setlocal` keeps the variables to this run.
std::string cmd_launcher(const fs::path& binary, const fs::path& config_dir, std::optional<std::uint16_t> port) {
  std::string s = "@echo off\r\nrem Started by Chrome for the OpenTabs extension (native messaging). Written by\r\n"
                  "rem `opentabs native-host install`; removed by `opentabs native-host uninstall`.\r\nsetlocal\r\n";
  s += "set " + cmd_quote("OPENTABS_CONFIG_DIR=" + config_dir.string()) + "\r\n";
  if (port) s += "set \"OPENTABS_PORT=" + std::to_string(*port) + "\"\r\n";
  s += cmd_quote(binary.string()) + " native-host run %*\r\n";
  return s;
}
}  // namespace

std::string_view launcher_file_name(platform::os target) {
  return target == platform::os::windows ? "opentabs-native-host.cmd" : "opentabs-native-host";
}

std::string launcher_script(platform::os target, const fs::path& binary, const fs::path& config_dir,
                            std::optional<std::uint16_t> port) {
  return target == platform::os::windows ? cmd_launcher(binary, config_dir, port) : sh_launcher(binary, config_dir, port);
}

}  // namespace opentabs::cli::native
