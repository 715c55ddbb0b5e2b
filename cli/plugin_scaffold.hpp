// `opentabs plugin create`: the files of a new plugin project (the layout of
// @opentabs-dev/create-plugin: package.json with the `opentabs` field, tsconfig, an
// OpenTabsPlugin subclass with one example tool).  Pure: returns path → content; the
// command writes them.  Names are validated with the plugin naming rules (spec §4.1).
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "util/result.hpp"

namespace opentabs::cli {

struct scaffold_inputs {
  std::string name;         // kebab-case plugin name, e.g. "acme-crm"
  std::string domain;       // "acme.example.com" (default: "<name>.com")
  std::string display;      // "Acme CRM" (default: from the name)
  std::string description;  // one line
};

// Error "usage" for a name that is not kebab-case or is reserved, or a bad domain.
status validate_scaffold(const scaffold_inputs& in);

// Relative path → file content.
std::map<std::string, std::string> scaffold_files(const scaffold_inputs& in);

// "acme-crm" → "Acme Crm".
std::string display_name_from(std::string_view name);

}  // namespace opentabs::cli
