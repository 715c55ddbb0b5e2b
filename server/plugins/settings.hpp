// Plugin settings (spec §4.5): the `configSchema` a plugin declares, validation of the
// settings a user stores for it (config.setPluginSettings, POST /plugin-settings), and
// resolution into effective URL patterns, homepage, instanceMap and resolvedSettings.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "json/json.hpp"
#include "util/result.hpp"

namespace opentabs::plugins {

// One configSchema entry: {type: url|string|number|boolean|select, label, description?,
// required?, placeholder?, options?}.
struct config_field {
  std::string key;
  std::string type;
  std::string label;
  std::string description;
  bool required = false;
  std::string placeholder;
  std::vector<std::string> options;  // select only, non-empty
};

// Parses a configSchema object; error code "invalid_config_schema" naming the key and rule.
result<std::vector<config_field>> parse_config_schema(const json::object& schema);

// True when some field is `required: true` with type url.
bool has_required_url_field(const std::vector<config_field>& fields);

struct resolved_settings {
  std::vector<std::string> url_patterns;  // static patterns, then derived ones (no duplicates)
  std::string homepage;                   // static homepage, else the first derived URL
  json::object instance_map;              // instance name → "*://host[:port]/*"
  json::object values;                    // resolvedSettings: url maps kept whole
  std::vector<std::string> warnings;      // entries skipped, and why (never the values)
};

// Resolves the user's settings for one plugin (`user` may be null: nothing configured).
resolved_settings resolve_settings(const std::vector<config_field>& fields,
                                   const std::vector<std::string>& static_patterns,
                                   std::string_view static_homepage, const json::object* user);

// Validates a whole settings object before it is stored.  url fields take a non-empty
// {instance: url} map of http(s) URLs (a single URL string is accepted as {"default": url});
// string/number/boolean values must have that type; select values must be one of the
// options; null clears a value; unknown keys are refused.  On success returns the
// normalised object.  Error code "invalid_settings", message
// "Settings validation failed: <key>: <reason>".
result<json::object> validate_settings(const std::vector<config_field>& fields, const json::object& settings);

// /health needsSetup: some required field has no usable user value.
bool needs_setup(const std::vector<config_field>& fields, const json::object* user);

}  // namespace opentabs::plugins
