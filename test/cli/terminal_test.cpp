// Tables that fit the terminal, truncation that respects UTF-8, styling only when asked.
#include <doctest/doctest.h>

#include <sstream>

#include "cli/terminal.hpp"

using namespace opentabs::cli;

namespace {
std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}
}  // namespace

TEST_CASE("a table keeps natural widths when it fits") {
  auto t = render_table({"TOOL", "PLUGIN"}, {{"browser_list_tabs", "browser"}, {"x", "y"}}, 80, false);
  CHECK(t == "TOOL               PLUGIN\nbrowser_list_tabs  browser\nx                  y\n");
}

TEST_CASE("a wide table is cut to the width, the last column first, with an ellipsis") {
  std::string desc(200, 'd');
  auto t = render_table({"TOOL", "PLUGIN", "DESCRIPTION"}, {{"browser_list_tabs", "browser", desc}}, 60, false);
  for (const auto& l : lines_of(t)) CHECK(display_width(l) <= 60);
  CHECK(t.find("…") != std::string::npos);
  CHECK(t.find("browser_list_tabs") != std::string::npos);  // earlier columns intact
}

TEST_CASE("newlines in cells never break rows") {
  auto t = render_table({"A"}, {{"one\ntwo"}}, 80, false);
  CHECK(lines_of(t).size() == 2);
}

TEST_CASE("display width counts code points and skips colour codes; truncation keeps UTF-8 whole") {
  CHECK(display_width("héllo") == 5);
  CHECK(display_width(green("ok", true)) == 2);
  auto cut = truncate_to("ééééé", 3);
  CHECK(cut == "éé…");
  CHECK(truncate_to("abc", 3) == "abc");
}

TEST_CASE("styling is a no-op when colour is off") {
  CHECK(bold("x", false) == "x");
  CHECK(red("x", true) == "\x1b[31mx\x1b[0m");
}
