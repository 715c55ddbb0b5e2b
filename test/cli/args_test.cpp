// Command-line parsing against the real command table: commands, groups and aliases,
// options in every spelling, positional counts, and the did-you-mean errors.
#include <doctest/doctest.h>

#include "cli/args.hpp"
#include "cli/command_table.hpp"

using namespace opentabs;
using namespace opentabs::cli;

namespace {
result<parsed_command> parse(std::vector<std::string> words) { return parse_command_line(command_table(), words); }
}  // namespace

TEST_CASE("no words runs status; --version and --help need no command") {
  auto p = parse({});
  REQUIRE(p.ok());
  CHECK(p->command->path == "status");
  auto v = parse({"--version"});
  REQUIRE(v.ok());
  CHECK(v->version);
  auto h = parse({"-h"});
  REQUIRE(h.ok());
  CHECK(h->help);
  CHECK(h->command == nullptr);
}

TEST_CASE("group commands, aliases and positionals") {
  auto p = parse({"tool", "call", "browser_list_tabs", "{}"});
  REQUIRE(p.ok());
  CHECK(p->command->path == "tool call");
  CHECK(p->positionals == std::vector<std::string>{"browser_list_tabs", "{}"});
  CHECK(parse({"tool", "ls"})->command->path == "tool list");
  CHECK(parse({"plugin", "rm", "x", "-y"})->command->path == "plugin remove");
  CHECK(parse({"config", "get"})->command->path == "config show");
}

TEST_CASE("options: --x value, --x=value, short flags, globals before the command, and --") {
  auto p = parse({"--port", "9600", "tool", "call", "x", "--params={\"a\":1}", "--tab-id", "3"});
  REQUIRE_MESSAGE(p.ok(), p.err().message);
  CHECK(*p->value("port") == "9600");
  CHECK(*p->value("params") == "{\"a\":1}");
  CHECK(*p->value("tab-id") == "3");
  CHECK(p->positionals == std::vector<std::string>{"x"});
  auto f = parse({"logs", "-f", "-n", "5"});
  REQUIRE(f.ok());
  CHECK(f->has("follow"));
  CHECK(*f->value("lines") == "5");
  auto dash = parse({"tool", "call", "x", "--", "--not-a-flag"});
  REQUIRE(dash.ok());
  CHECK(dash->positionals == std::vector<std::string>{"x", "--not-a-flag"});
  auto stdin_file = parse({"tool", "call", "x", "--params-file", "-"});
  REQUIRE(stdin_file.ok());
  CHECK(*stdin_file->value("params-file") == "-");
}

TEST_CASE("help for a command and for a group") {
  auto c = parse({"tool", "call", "--help"});
  REQUIRE(c.ok());
  CHECK(c->help);
  CHECK(c->command->path == "tool call");
  auto g = parse({"config", "--help"});
  REQUIRE(g.ok());
  CHECK(g->group_help == "config");
  auto text = render_group_help(command_table(), "config", 80);
  CHECK(text.find("set <key> [value]") != std::string::npos);
  auto cmd = render_command_help(*c->command, 80);
  CHECK(cmd.find("--params-file <path|->") != std::string::npos);
  CHECK(cmd.find("Usage: opentabs tool call <name> [json] [options]") != std::string::npos);
}

TEST_CASE("unknown commands, subcommands and flags suggest the closest valid one") {
  auto a = parse({"stauts"});
  REQUIRE_FALSE(a.ok());
  CHECK(a.err().code() == "usage");
  CHECK(a.err().message.find("did you mean 'status'?") != std::string::npos);
  auto b = parse({"config", "rotate-secrt"});
  REQUIRE_FALSE(b.ok());
  CHECK(b.err().message.find("did you mean 'config rotate-secret'?") != std::string::npos);
  auto c = parse({"tool", "list", "--plugn", "x"});
  REQUIRE_FALSE(c.ok());
  CHECK(c.err().message.find("did you mean '--plugin'?") != std::string::npos);
  auto d = parse({"zzzzzzzz"});
  REQUIRE_FALSE(d.ok());
  CHECK(d.err().message.find("did you mean") == std::string::npos);
}

TEST_CASE("missing and extra arguments, missing option values, values given to flags") {
  auto a = parse({"tool", "call"});
  REQUIRE_FALSE(a.ok());
  CHECK(a.err().message.find("missing argument <name>") != std::string::npos);
  auto b = parse({"tool", "schema", "a", "b"});
  REQUIRE_FALSE(b.ok());
  CHECK(b.err().message.find("unexpected argument 'b'") != std::string::npos);
  auto c = parse({"audit", "--limit"});
  REQUIRE_FALSE(c.ok());
  CHECK(c.err().message.find("--limit needs a value") != std::string::npos);
  auto d = parse({"status", "--json=yes"});
  REQUIRE_FALSE(d.ok());
  CHECK(d.err().message.find("does not take a value") != std::string::npos);
  auto e = parse({"tool"});
  REQUIRE_FALSE(e.ok());
  CHECK(e.err().message.find("needs a subcommand") != std::string::npos);
}

TEST_CASE("every command in the table is reachable by its own path") {
  for (const auto& c : command_table()) {
    std::vector<std::string> words;
    std::string path = c.path;
    for (std::size_t p; (p = path.find(' ')) != std::string::npos; path.erase(0, p + 1)) words.push_back(path.substr(0, p));
    words.push_back(path);
    for (const auto& pos : c.positionals)
      if (pos.required) words.push_back("x");
    auto r = parse(words);
    INFO(c.path);
    REQUIRE(r.ok());
    CHECK(r->command == &c);
  }
}
