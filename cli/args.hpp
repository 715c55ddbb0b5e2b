// The command-line grammar of `opentabs`: a table of commands (with subcommands, options and
// positional arguments) and the parser that turns argv into one parsed command.  Pure: no
// I/O, so every rule (did-you-mean for unknown commands and flags, --opt=value, `--`,
// missing or extra arguments) is unit-tested.  Help text is generated from the same table,
// so it cannot drift from what the parser accepts.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "util/result.hpp"

namespace opentabs::cli {

struct option_spec {
  std::string name;        // long name without dashes: "port"
  char short_name = 0;     // 'f' for -f, 0 when none
  std::string value_name;  // empty: a flag; else the option takes a value ("<n>")
  std::string help;
  bool takes_value() const { return !value_name.empty(); }
};

struct positional_spec {
  std::string name;  // "name", "json"
  bool required = true;
  std::string help;
};

struct command_spec {
  std::string path;                  // "status", "tool call", "config set"
  std::vector<std::string> aliases;  // last word aliases: "ls" for "tool list"
  std::string summary;               // one line for listings
  std::vector<positional_spec> positionals;
  std::vector<option_spec> options;  // besides the global ones
  std::string details;               // extra help paragraphs (examples)
};

// Options every command accepts.
const std::vector<option_spec>& global_options();

struct parsed_command {
  const command_spec* command = nullptr;  // nullptr with help = top-level help
  std::map<std::string, std::string> values;  // options given with a value
  std::set<std::string> flags;                // flags given
  std::vector<std::string> positionals;
  bool help = false;
  bool version = false;
  // A group word ("plugin", "tool", "config") given without its subcommand.
  std::string group_help;

  bool has(std::string_view flag) const { return flags.count(std::string(flag)) > 0; }
  std::optional<std::string> value(std::string_view name) const;
  // The positional at index i, or nullopt when not given.
  std::optional<std::string> arg(std::size_t i) const;
};

// Parses argv[1..].  Errors (code "usage") are one line that says what was wrong and, for a
// mistyped command or flag, the closest valid one.  No words at all → `default_command`.
result<parsed_command> parse_command_line(const std::vector<command_spec>& table, const std::vector<std::string>& words,
                                          std::string_view default_command = "status");

// The group words of the table ("plugin", "tool", "config").
std::vector<std::string> command_groups(const std::vector<command_spec>& table);

// Help texts, for a terminal `width` columns wide.
std::string render_overview_help(const std::vector<command_spec>& table, std::size_t width);
std::string render_group_help(const std::vector<command_spec>& table, std::string_view group, std::size_t width);
std::string render_command_help(const command_spec& cmd, std::size_t width);

}  // namespace opentabs::cli
