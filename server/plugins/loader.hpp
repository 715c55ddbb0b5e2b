// Loading one plugin package from disk (spec §4.1–4.3): package.json, dist/tools.json
// (object form or legacy bare array), dist/adapter.iife.js (≤5 MiB, non-empty), the optional
// source map and pre-script.  Every read is bounded; every failure is a value whose message
// names the file and what is wrong with it.  Tool input schemas are checked here for what
// is cheap to find (schema::precheck) and compiled on the tool's first call.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "json/json.hpp"
#include "plugins/settings.hpp"
#include "schema/lazy_validator.hpp"
#include "util/result.hpp"

namespace opentabs::plugins {

namespace fs = std::filesystem;

// The plugin SDK version this server speaks (tools.json sdkVersion is checked against it).
inline constexpr std::string_view server_sdk_version = "0.0.115";

inline constexpr std::size_t max_adapter_bytes = 5 * 1024 * 1024;
inline constexpr std::size_t max_package_json_bytes = 1024 * 1024;
inline constexpr std::size_t max_tools_json_bytes = 16 * 1024 * 1024;
inline constexpr std::size_t max_source_map_bytes = 32 * 1024 * 1024;
inline constexpr std::size_t max_pre_script_bytes = 5 * 1024 * 1024;
inline constexpr std::size_t max_tool_description_chars = 1000;
inline constexpr std::size_t max_tools_per_plugin = 500;

// One tool from dist/tools.json.
struct plugin_tool {
  std::string name;  // base name inside the plugin
  std::string display_name;
  std::string description;
  std::string summary;
  std::string icon;  // "wrench" when the manifest has none
  std::string group;
  std::string icon_svg;
  std::string icon_inactive_svg;
  json::object input_schema;   // as in tools.json
  json::object output_schema;
  // Compiled on first use; already refused when the precheck found why (schema_error).
  std::shared_ptr<const schema::lazy_validator> validator;
  std::string schema_error;  // the precheck's refusal, else empty
};

struct loaded_plugin {
  std::string name;          // plugin name
  std::string package_name;  // package.json name (npmPackageName)
  std::string version;
  std::string display_name;
  std::string description;
  std::string author;        // package.json author (string or {name}), may be empty
  std::vector<std::string> url_patterns;      // static, validated
  std::vector<std::string> exclude_patterns;  // validated
  std::string homepage;
  fs::path source_path;      // the plugin directory, canonical
  std::string source;        // "npm" | "local"
  std::optional<std::string> sdk_version;
  std::optional<json::object> config_schema;  // raw, for payloads
  std::vector<config_field> config_fields;
  std::string icon_svg, icon_inactive_svg, icon_dark_svg, icon_dark_inactive_svg;
  std::string adapter_source;          // dist/adapter.iife.js
  std::string adapter_hash;            // the 64-hex hash embedded in the IIFE, or empty
  std::string tools_json_sha256;       // of dist/tools.json as read: a rebuild that changed it
  std::optional<std::string> source_map;
  std::optional<std::string> pre_script;      // dist/<preScriptFile> content
  std::string pre_script_hash;                // tools.json preScriptHash, else SHA-256 of the file
  std::vector<plugin_tool> tools;
  std::vector<std::string> warnings;          // non-fatal findings, for the log
};

struct load_options {
  std::string server_sdk = std::string(server_sdk_version);
  // Browser tool names; a tool description that mentions one is logged as a possible
  // prompt injection (spec §4.3 step 7).
  std::vector<std::string> browser_tool_names;
  schema::limits schema_limits;
};

// Loads the plugin in `dir`.  Errors are invalid_params; the message starts with the
// file concerned, e.g. "dist/tools.json: tools[3].description is longer than 1000 characters".
result<loaded_plugin> load_plugin(const fs::path& dir, std::string_view source, const load_options& options = {});

// The hash in `\.__adapterHash="([0-9a-f]{64})"`, or empty.
std::string extract_adapter_hash(std::string_view adapter_source);

// §4.3 step 6: "x.y.z" sdk compatible when its major.minor ≤ the server's.  nullopt when
// compatible, else the error text.
std::optional<std::string> sdk_incompatibility(std::string_view plugin_sdk, std::string_view server_sdk);

}  // namespace opentabs::plugins
