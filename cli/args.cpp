// Command-line parsing and generated help (see args.hpp).
#include "cli/args.hpp"

#include <algorithm>

#include "cli/cli_failure.hpp"
#include "util/strings.hpp"

namespace opentabs::cli {

namespace {

error usage(std::string message) { return make_error(cli_failure::usage, std::move(message)); }

std::string first_word(const std::string& path) { return path.substr(0, path.find(' ')); }
std::string last_word(const std::string& path) {
  auto sp = path.rfind(' ');
  return sp == std::string::npos ? path : path.substr(sp + 1);
}
bool is_group_command(const command_spec& c) { return c.path.find(' ') != std::string::npos; }

// Edit distance where swapping two neighbouring letters costs 1 (optimal string
// alignment): "stauts" is one step from "status", two from "start".
std::size_t typo_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

// The closest candidate within 3 typos, or empty.
std::string suggest(std::string_view word, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_d = 4;
  for (const auto& c : candidates) {
    std::size_t d = typo_distance(word, c);
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  return best;
}

bool is_option_word(std::string_view w) { return w.size() >= 2 && w[0] == '-'; }

const option_spec* find_option(const std::vector<option_spec>& opts, std::string_view name) {
  for (const auto& o : opts)
    if (o.name == name) return &o;
  return nullptr;
}
const option_spec* find_short(const std::vector<option_spec>& opts, char c) {
  for (const auto& o : opts)
    if (o.short_name == c) return &o;
  return nullptr;
}

// Whether any command (or the globals) has a value option spelled like `word`; used to
// skip option values while looking for the command words.
bool any_option_takes_value(const std::vector<command_spec>& table, std::string_view word) {
  auto check = [&](const std::vector<option_spec>& opts) {
    for (const auto& o : opts) {
      if (!o.takes_value()) continue;
      if (word == "--" + o.name) return true;
      if (o.short_name && word.size() == 2 && word[1] == o.short_name) return true;
    }
    return false;
  };
  if (check(global_options())) return true;
  for (const auto& c : table)
    if (check(c.options)) return true;
  return false;
}

std::string usage_line(const command_spec& cmd) {
  std::string s = "opentabs " + cmd.path;
  for (const auto& p : cmd.positionals) s += p.required ? " <" + p.name + ">" : " [" + p.name + "]";
  if (!cmd.options.empty()) s += " [options]";
  return s;
}

// Wraps `text` to `width` columns with every line after the first indented by `indent`.
std::string wrap(std::string_view text, std::size_t indent, std::size_t width) {
  std::string out;
  std::size_t col = indent;
  std::size_t avail = width > indent + 20 ? width : indent + 20;
  bool first = true;
  for (auto word : split(text, ' ')) {
    if (word.empty()) continue;
    if (!first && col + 1 + word.size() > avail) {
      out += "\n" + std::string(indent, ' ');
      col = indent;
    } else if (!first) {
      out += ' ';
      ++col;
    }
    out.append(word);
    col += word.size();
    first = false;
  }
  return out;
}

std::string option_label(const option_spec& o) {
  std::string s = o.short_name ? std::string("-") + o.short_name + ", " : "    ";
  s += "--" + o.name;
  if (o.takes_value()) s += " " + o.value_name;
  return s;
}

void render_options(std::string& out, const std::vector<option_spec>& opts, std::size_t width) {
  std::size_t col = 0;
  for (const auto& o : opts) col = std::max(col, option_label(o).size());
  col += 4;
  for (const auto& o : opts) {
    auto label = option_label(o);
    out += "  " + label + std::string(col - label.size(), ' ') + wrap(o.help, col + 2, width) + "\n";
  }
}

}  // namespace

const std::vector<option_spec>& global_options() {
  static const std::vector<option_spec> opts = {
      {"port", 0, "<n>", "server port (1-65535); default: $OPENTABS_PORT, then config.json \"port\", then 9515"},
      {"no-color", 0, "", "plain output without colours (also: NO_COLOR=1)"},
      {"help", 'h', "", "show help for the command"},
      {"version", 'V', "", "print the opentabs version"},
  };
  return opts;
}

std::optional<std::string> parsed_command::value(std::string_view name) const {
  auto it = values.find(std::string(name));
  if (it == values.end()) return std::nullopt;
  return it->second;
}

std::optional<std::string> parsed_command::arg(std::size_t i) const {
  if (i < positionals.size()) return positionals[i];
  return std::nullopt;
}

std::vector<std::string> command_groups(const std::vector<command_spec>& table) {
  std::vector<std::string> groups;
  for (const auto& c : table)
    if (is_group_command(c)) {
      auto g = first_word(c.path);
      if (std::find(groups.begin(), groups.end(), g) == groups.end()) groups.push_back(g);
    }
  return groups;
}

namespace {

// The positions of the command words: the first one or two words that are not options (or
// option values).  `saw_help`: --help or -h came before them.
std::vector<std::size_t> command_word_positions(const std::vector<command_spec>& table, const std::vector<std::string>& words,
                                                bool& saw_help) {
  std::vector<std::size_t> word_idx;
  for (std::size_t i = 0; i < words.size() && word_idx.size() < 2; ++i) {
    const auto& w = words[i];
    if (w == "--") break;
    if (is_option_word(w)) {
      if (w == "--help" || w == "-h") saw_help = true;
      if (w.find('=') == std::string::npos && any_option_takes_value(table, w)) ++i;
      continue;
    }
    word_idx.push_back(i);
  }
  return word_idx;
}

// `w1 w2` for a group `w1`: sets out.command (or asks for the group's help).
status choose_group_command(const std::vector<command_spec>& table, const std::vector<std::string>& words,
                            const std::vector<std::size_t>& word_idx, bool saw_help, parsed_command& out) {
  const std::string& w1 = words[word_idx[0]];
  if (word_idx.size() < 2) {
    if (!saw_help) return usage("'" + w1 + "' needs a subcommand; see `opentabs " + w1 + " --help`");
    out.help = true;
    out.group_help = w1;
    return ok();
  }
  const std::string& w2 = words[word_idx[1]];
  std::vector<std::string> subs;
  for (const auto& c : table) {
    if (!is_group_command(c) || first_word(c.path) != w1) continue;
    subs.push_back(last_word(c.path));
    if (last_word(c.path) == w2 || std::find(c.aliases.begin(), c.aliases.end(), w2) != c.aliases.end()) out.command = &c;
  }
  if (out.command) return ok();
  auto hint = suggest(w2, subs);
  return usage("unknown command '" + w1 + " " + w2 + "'" + (hint.empty() ? "" : "; did you mean '" + w1 + " " + hint + "'?") +
               " See `opentabs " + w1 + " --help`");
}

// Sets out.command from the command words (or out.version / out.help when the line asks
// for them instead); returns how many command words it took.
result<std::size_t> choose_command(const std::vector<command_spec>& table, const std::vector<std::string>& words,
                                   const std::vector<std::size_t>& word_idx, bool saw_help, std::string_view default_command,
                                   parsed_command& out) {
  if (word_idx.empty()) {
    // No command word: --version, --help, or the default command.
    for (const auto& w : words)
      if (w == "--version" || w == "-V") out.version = true;
    if (!out.version && saw_help) out.help = true;
    for (const auto& c : table)
      if (c.path == default_command) out.command = &c;
    return std::size_t{0};
  }
  const std::string& w1 = words[word_idx[0]];
  for (const auto& c : table) {
    if (is_group_command(c)) continue;
    if (c.path == w1 || std::find(c.aliases.begin(), c.aliases.end(), w1) != c.aliases.end()) out.command = &c;
  }
  if (out.command) return std::size_t{1};
  const auto groups = command_groups(table);
  if (std::find(groups.begin(), groups.end(), w1) != groups.end()) {
    if (auto st = choose_group_command(table, words, word_idx, saw_help, out); !st) return st.err();
    return std::size_t{2};
  }
  std::vector<std::string> names = groups;
  for (const auto& c : table)
    if (!is_group_command(c)) names.push_back(c.path);
  auto hint = suggest(w1, names);
  return usage("unknown command '" + w1 + "'" + (hint.empty() ? "" : "; did you mean '" + hint + "'?") + " See `opentabs --help`");
}

// Pass 2: the options and positionals of the chosen command (the command words skipped).
status read_options(const command_spec& cmd, const std::vector<std::string>& words, const std::vector<std::size_t>& word_idx,
                    std::size_t consumed, parsed_command& out) {
  std::vector<option_spec> opts = cmd.options;
  for (const auto& g : global_options()) opts.push_back(g);
  std::vector<std::string> names;
  for (const auto& o : opts) names.push_back("--" + o.name);
  bool only_positionals = false;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (consumed > 0 && (i == word_idx[0] || (consumed == 2 && i == word_idx[1]))) continue;
    const std::string& w = words[i];
    if (only_positionals || !is_option_word(w)) {
      out.positionals.push_back(w);
      continue;
    }
    if (w == "--") {
      only_positionals = true;
      continue;
    }
    const option_spec* spec = nullptr;
    std::optional<std::string> inline_value;
    std::string shown = w;
    if (w.rfind("--", 0) == 0) {
      std::string name = w.substr(2);
      if (auto eq = name.find('='); eq != std::string::npos) {
        inline_value = name.substr(eq + 1);
        name = name.substr(0, eq);
        shown = "--" + name;
      }
      spec = find_option(opts, name);
    } else if (w.size() == 2) {
      spec = find_short(opts, w[1]);
    }
    if (!spec) {
      auto hint = suggest(shown, names);
      return usage("unknown option '" + shown + "' for `opentabs " + cmd.path + "`" +
                   (hint.empty() ? "" : "; did you mean '" + hint + "'?"));
    }
    if (spec->takes_value()) {
      if (!inline_value) {
        if (i + 1 >= words.size()) return usage("option --" + spec->name + " needs a value " + spec->value_name);
        inline_value = words[++i];
      }
      out.values[spec->name] = *inline_value;
    } else {
      if (inline_value) return usage("option --" + spec->name + " does not take a value");
      out.flags.insert(spec->name);
    }
  }
  return ok();
}

}  // namespace

result<parsed_command> parse_command_line(const std::vector<command_spec>& table, const std::vector<std::string>& words,
                                          std::string_view default_command) {
  parsed_command out;
  bool saw_help = false;
  const auto word_idx = command_word_positions(table, words, saw_help);
  auto consumed = choose_command(table, words, word_idx, saw_help, default_command, out);
  if (!consumed) return consumed.err();
  if (out.version || out.help) {
    out.command = nullptr;
    return out;
  }
  if (!out.command) return usage("no default command");
  const command_spec& cmd = *out.command;
  if (auto st = read_options(cmd, words, word_idx, *consumed, out); !st) return st.err();
  if (out.has("help")) {
    out.help = true;
    return out;
  }
  if (out.has("version")) {
    out.version = true;
    return out;
  }
  std::size_t required = 0;
  for (const auto& p : cmd.positionals) required += p.required ? 1 : 0;
  if (out.positionals.size() < required) {
    const auto& missing = cmd.positionals[out.positionals.size()];
    return usage("missing argument <" + missing.name + ">; usage: " + usage_line(cmd));
  }
  if (out.positionals.size() > cmd.positionals.size())
    return usage("unexpected argument '" + out.positionals[cmd.positionals.size()] + "'; usage: " + usage_line(cmd));
  return out;
}

std::string render_overview_help(const std::vector<command_spec>& table, std::size_t width) {
  std::string out =
      "opentabs " OPENTABS_VERSION " — lets AI agents use your Chrome through the OpenTabs extension\n\n"
      "Usage: opentabs [command] [options]   (no command = status)\n\nCommands:\n";
  std::size_t col = 0;
  for (const auto& c : table) col = std::max(col, c.path.size());
  col += 4;
  for (const auto& c : table) {
    std::string name = c.path;
    if (!c.aliases.empty()) name += "";
    out += "  " + name + std::string(col - name.size(), ' ') + wrap(c.summary, col + 2, width) + "\n";
  }
  out += "\nGlobal options:\n";
  render_options(out, global_options(), width);
  out += "\nRun `opentabs <command> --help` for a command's options.\n";
  return out;
}

std::string render_group_help(const std::vector<command_spec>& table, std::string_view group, std::size_t width) {
  std::string out = "Usage: opentabs " + std::string(group) + " <command> [options]\n\nCommands:\n";
  std::size_t col = 0;
  for (const auto& c : table)
    if (first_word(c.path) == group && is_group_command(c)) col = std::max(col, usage_line(c).size() - 9);
  col += 4;
  for (const auto& c : table) {
    if (first_word(c.path) != group || !is_group_command(c)) continue;
    std::string u = usage_line(c).substr(9);
    out += "  " + u + std::string(col - u.size(), ' ') + wrap(c.summary, col + 2, width) + "\n";
  }
  out += "\nRun `opentabs " + std::string(group) + " <command> --help` for details.\n";
  return out;
}

std::string render_command_help(const command_spec& cmd, std::size_t width) {
  std::string out = "Usage: " + usage_line(cmd) + "\n\n" + wrap(cmd.summary, 0, width) + "\n";
  if (!cmd.aliases.empty()) {
    out += "\nAliases:";
    for (const auto& a : cmd.aliases) out += " " + a;
    out += "\n";
  }
  if (!cmd.positionals.empty()) {
    out += "\nArguments:\n";
    std::size_t col = 0;
    for (const auto& p : cmd.positionals) col = std::max(col, p.name.size() + 2);
    col += 4;
    for (const auto& p : cmd.positionals) {
      std::string label = p.required ? "<" + p.name + ">" : "[" + p.name + "]";
      out += "  " + label + std::string(col - label.size(), ' ') + wrap(p.help, col + 2, width) + "\n";
    }
  }
  if (!cmd.options.empty()) {
    out += "\nOptions:\n";
    render_options(out, cmd.options, width);
  }
  out += "\nGlobal options:\n";
  render_options(out, global_options(), width);
  if (!cmd.details.empty()) out += "\n" + cmd.details + (cmd.details.back() == '\n' ? "" : "\n");
  return out;
}

}  // namespace opentabs::cli
