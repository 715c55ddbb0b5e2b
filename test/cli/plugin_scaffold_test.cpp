// `plugin create`: name and domain rules, and the generated project.
#include <doctest/doctest.h>

#include "cli/plugin_scaffold.hpp"
#include "json/json.hpp"

using namespace opentabs;
using namespace opentabs::cli;

namespace {
scaffold_inputs named(std::string name, std::string domain = "") {
  scaffold_inputs i;
  i.name = std::move(name);
  i.domain = std::move(domain);
  return i;
}
}  // namespace

TEST_CASE("names: kebab-case, not reserved; domains look like hosts") {
  CHECK(validate_scaffold(named("acme-crm")).ok());
  for (const char* bad : {"Acme", "acme_crm", "-acme", "acme-", "a--b", "", "browser", "mcp"})
    CHECK_FALSE(validate_scaffold(named(bad)).ok());
  CHECK_FALSE(validate_scaffold(named("ok", "not a domain")).ok());
  CHECK(validate_scaffold(named("ok", "app.example.com")).ok());
}

TEST_CASE("the generated package.json is a valid OpenTabs plugin manifest") {
  auto files = scaffold_files(named("acme-crm", "crm.acme.test"));
  REQUIRE(files.count("package.json"));
  REQUIRE(files.count("src/index.ts"));
  auto pkg = json::parse_object(files["package.json"]);
  REQUIRE(pkg.ok());
  CHECK(*json::get_string(*pkg, "name") == "opentabs-plugin-acme-crm");
  auto ot = json::get_object(*pkg, "opentabs");
  REQUIRE(ot);
  CHECK(*json::get_string(*ot, "displayName") == "Acme Crm");
  CHECK(json::dump(*json::find(*ot, "urlPatterns")) == "[\"*://crm.acme.test/*\"]");
  CHECK(files["src/index.ts"].find("class AcmeCrmPlugin extends OpenTabsPlugin") != std::string::npos);
  CHECK(files["src/index.ts"].find("readonly name = \"acme-crm\"") != std::string::npos);
}

TEST_CASE("display names from kebab-case") {
  CHECK(display_name_from("acme-crm") == "Acme Crm");
  CHECK(display_name_from("x") == "X");
}
