#include <doctest/doctest.h>

#include <algorithm>

#include "app/npm_commands.hpp"

using namespace opentabs;
using namespace opentabs::app;

namespace {

bool has(const std::vector<std::string>& v, const std::string& x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// Everything after "--" in an argv: the only place a caller's words may appear.
std::vector<std::string> after_separator(const std::vector<std::string>& argv) {
  auto it = std::find(argv.begin(), argv.end(), "--");
  REQUIRE(it != argv.end());
  return {it + 1, argv.end()};
}

}  // namespace

TEST_CASE("npm package name rules") {
  for (const char* ok : {"opentabs-plugin-slack", "@opentabs-dev/opentabs-plugin-slack", "a", "x.y_z~1", "@s/n", "ws"})
    CHECK_MESSAGE(npm::is_valid_package_name(ok), std::string(ok));
  for (const char* bad : {"", "-rf", "--registry=http://evil", ".hidden", "_under", "UPPER", "has space", "a/b", "@/x",
                          "@scope/", "@scope", "@-x/y", "node_modules", "favicon.ico", "a;rm -rf /", "a\nb", "naïve",
                          "@a/b/c", "../x", "$(id)"})
    CHECK_FALSE_MESSAGE(npm::is_valid_package_name(bad), std::string(bad));
  CHECK(npm::is_valid_package_name(std::string(214, 'a')));
  CHECK_FALSE(npm::is_valid_package_name(std::string(215, 'a')));
}

TEST_CASE("plugin package names (spec §4.1)") {
  CHECK(npm::is_plugin_package_name("opentabs-plugin-slack"));
  CHECK(npm::is_plugin_package_name("@opentabs-dev/opentabs-plugin-slack"));
  CHECK(npm::is_plugin_package_name("@myorg/opentabs-plugin-jira"));
  CHECK_FALSE(npm::is_plugin_package_name("opentabs-plugin-"));
  CHECK_FALSE(npm::is_plugin_package_name("slack"));
  CHECK_FALSE(npm::is_plugin_package_name("@opentabs-dev/cli"));
  CHECK_FALSE(npm::is_plugin_package_name("opentabs-plugin-browser"));  // reserved plugin name
  CHECK_FALSE(npm::is_plugin_package_name("opentabs-plugin-a--b"));     // plugin name rule
  CHECK_FALSE(npm::is_plugin_package_name("xopentabs-plugin-slack"));
}

TEST_CASE("install shorthand: slack → @opentabs-dev/opentabs-plugin-slack, then opentabs-plugin-slack (spec §1.3)") {
  auto c = npm::plugin_package_candidates("slack");
  REQUIRE(c);
  CHECK(*c == std::vector<std::string>{"@opentabs-dev/opentabs-plugin-slack", "opentabs-plugin-slack"});

  auto full = npm::plugin_package_candidates("@myorg/opentabs-plugin-jira");
  REQUIRE(full);
  CHECK(*full == std::vector<std::string>{"@myorg/opentabs-plugin-jira"});
  auto unscoped = npm::plugin_package_candidates("opentabs-plugin-notes");
  REQUIRE(unscoped);
  CHECK(*unscoped == std::vector<std::string>{"opentabs-plugin-notes"});
}

TEST_CASE("bad install names are refused with invalid_params naming the input") {
  for (const char* bad : {"", "--global", "-g", "Slack", "slack!", "../../etc/passwd", "@scope/not-a-plugin",
                          "opentabs-plugin-UPPER", "a b", "@opentabs-dev/opentabs-plugin-", "opentabs-plugin-mcp",
                          "http://example.com/x.tgz", "git+ssh://x", "slack@latest", "file:/tmp/x"}) {
    auto r = npm::plugin_package_candidates(bad);
    CHECK_FALSE_MESSAGE(r.ok(), std::string(bad));
    if (!r) {
      CHECK(r.err().code() == "invalid_params");
      CHECK(r.err().message.rfind("Invalid plugin name: ", 0) == 0);
    }
  }
  auto r = npm::plugin_package_candidates(std::string(300, 'a'));
  REQUIRE_FALSE(r);
  CHECK(r.err().message.find("longer than 214") != std::string::npos);
  // Control characters never reach a message raw.
  auto ctl = npm::plugin_package_candidates("a\x1b[31m");
  REQUIRE_FALSE(ctl);
  CHECK(ctl.err().message.find('\x1b') == std::string::npos);
}

TEST_CASE("argv: npm first, options before --, the package alone after it") {
  auto i = npm::install_argv("opentabs-plugin-x");
  CHECK(i.front() == "npm");
  CHECK(i[1] == "install");
  CHECK(has(i, "--global"));
  CHECK(after_separator(i) == std::vector<std::string>{"opentabs-plugin-x"});
  CHECK(npm::update_argv("opentabs-plugin-x")[1] == "update");
  CHECK(after_separator(npm::update_argv("opentabs-plugin-x")) == std::vector<std::string>{"opentabs-plugin-x"});
  CHECK(npm::uninstall_argv("@s/opentabs-plugin-x")[1] == "uninstall");
  CHECK(has(npm::uninstall_argv("@s/opentabs-plugin-x"), "--global"));
  CHECK(after_separator(npm::view_version_argv("opentabs-plugin-x")) == std::vector<std::string>{"opentabs-plugin-x", "version"});
  CHECK(after_separator(npm::view_manifest_argv("opentabs-plugin-x", "1.2.3")) ==
        std::vector<std::string>{"opentabs-plugin-x@1.2.3", "opentabs"});
  auto s = npm::search_argv("--registry=http://attacker");
  CHECK(has(s, "--json"));
  CHECK(after_separator(s) == std::vector<std::string>{"keywords:opentabs-plugin", "--registry=http://attacker"});
  CHECK(after_separator(npm::search_argv("")) == std::vector<std::string>{"keywords:opentabs-plugin"});
}

TEST_CASE("search query parameter") {
  CHECK(*npm::search_query_from(nullptr) == "");
  json::value null_value;
  CHECK(*npm::search_query_from(&null_value) == "");
  json::value q = json::str("  slack  ");
  CHECK(*npm::search_query_from(&q) == "slack");
  json::value num = 5;
  auto r = npm::search_query_from(&num);
  REQUIRE_FALSE(r);
  CHECK(r.err().code() == "invalid_params");
  CHECK(r.err().message == "Invalid params: query must be a string if provided");
  json::value long_q = json::str(std::string(201, 'x'));
  CHECK_FALSE(npm::search_query_from(&long_q));
  json::value ctl = json::str("a\nb");
  CHECK_FALSE(npm::search_query_from(&ctl));
}

TEST_CASE("npm search --json output → plugin hits") {
  auto out = R"([
    {"name":"@opentabs-dev/opentabs-plugin-slack","version":"0.0.115","description":"Slack","publisher":{"username":"opentabs"},"author":{"name":"A"}},
    {"name":"opentabs-plugin-notes","version":"1.0.0","author":{"name":"Jane"}},
    {"name":"left-pad","version":"1.3.0","description":"not a plugin"},
    {"name":"opentabs-plugin-bad","version":"not a version"},
    {"name":"opentabs-plugin-anon","version":"2.0.0-beta.1"},
    42
  ])";
  auto hits = npm::parse_search_output(out);
  REQUIRE(hits);
  REQUIRE(hits->size() == 3);
  CHECK((*hits)[0].name == "@opentabs-dev/opentabs-plugin-slack");
  CHECK((*hits)[0].author == "opentabs");  // publisher first, as the original
  CHECK((*hits)[0].display_name == (*hits)[0].name);
  CHECK((*hits)[1].author == "Jane");
  CHECK((*hits)[1].description == "");
  CHECK((*hits)[2].author == "unknown");
  CHECK((*hits)[2].version == "2.0.0-beta.1");

  auto j = npm::search_hit_json((*hits)[0]);
  for (const char* k : {"name", "displayName", "description", "version", "author", "iconSvg", "iconDarkSvg"})
    CHECK_MESSAGE(j.contains(k), k);

  CHECK_FALSE(npm::parse_search_output("npm error code E404"));
  CHECK_FALSE(npm::parse_search_output(R"({"error":{"code":"E404"}})"));
  CHECK(npm::parse_search_output("[]")->empty());

  std::string many = "[";
  for (int i = 0; i < 50; ++i) many += std::string(i ? "," : "") + R"({"name":"opentabs-plugin-p)" + std::to_string(i) + R"(","version":"1.0.0"})";
  many += "]";
  CHECK(npm::parse_search_output(many)->size() == npm::max_search_results);
}

TEST_CASE("npm view <pkg>@<v> opentabs --json → display name and icons") {
  npm::search_hit h;
  h.name = "opentabs-plugin-notes";
  h.display_name = h.name;
  npm::apply_manifest_output(h, R"({"displayName":"Notes","description":"d","iconSvg":"<svg/>","iconDarkSvg":"<svg id=\"d\"/>"})");
  CHECK(h.display_name == "Notes");
  CHECK(h.icon_svg == "<svg/>");
  CHECK(h.icon_dark_svg == "<svg id=\"d\"/>");
  CHECK(h.description == "d");
  npm::search_hit untouched;
  untouched.display_name = "x";
  npm::apply_manifest_output(untouched, "");
  npm::apply_manifest_output(untouched, "[1]");
  CHECK(untouched.display_name == "x");
  npm::search_hit big;
  npm::apply_manifest_output(big, R"({"iconSvg":")" + std::string(70 * 1024, 'a') + R"("})");
  CHECK(big.icon_svg.empty());
}

TEST_CASE("npm view version output") {
  CHECK(npm::parse_view_version("\"1.2.3\"\n") == "1.2.3");
  CHECK(npm::parse_view_version("1.2.3\n") == "1.2.3");
  CHECK(npm::parse_view_version(R"(["1.0.0","1.1.0"])") == "1.1.0");
  CHECK_FALSE(npm::parse_view_version(""));
  CHECK_FALSE(npm::parse_view_version("\"\""));
  CHECK_FALSE(npm::parse_view_version("{\"error\":1}"));
  CHECK_FALSE(npm::parse_view_version("1.0.0; rm -rf /"));
}

TEST_CASE("version comparison as version-check.ts") {
  CHECK(npm::is_newer("0.0.114", "0.0.115"));
  CHECK(npm::is_newer("1.9.9", "2.0.0"));
  CHECK(npm::is_newer("v1.0.0", "1.0.1"));
  CHECK_FALSE(npm::is_newer("1.0.0", "1.0.0"));
  CHECK_FALSE(npm::is_newer("1.0.1", "1.0.0"));
  CHECK_FALSE(npm::is_newer("1.0.0", "1.0.0-beta.2"));  // prerelease suffix ignored
  CHECK(npm::is_newer("1.0.0-beta.1", "1.0.1"));
  CHECK(npm::is_newer("1.0", "1.0.1"));
  CHECK_FALSE(npm::is_newer("garbage", "also garbage"));
}

TEST_CASE("failures: code and the most telling line") {
  auto e404 = npm::describe_failure(
      "npm warn Unknown user config \"nodedir\".\n"
      "npm error code E404\n"
      "npm error 404 Not Found - GET https://registry.npmjs.org/@opentabs-dev%2fopentabs-plugin-nope - Not found\n"
      "npm error 404\n"
      "npm error 404  '@opentabs-dev/opentabs-plugin-nope@*' is not in this registry.\n"
      "npm error A complete log of this run can be found in: /root/.npm/_logs/x-debug-0.log\n",
      1);
  CHECK(e404.code == "E404");
  CHECK(e404.kind == npm::failure_kind::package_not_found);
  CHECK(e404.reason.rfind("404 Not Found - GET", 0) == 0);
  auto msg = npm::failure_message("install", "@opentabs-dev/opentabs-plugin-nope", e404);
  CHECK(msg.find("npm install @opentabs-dev/opentabs-plugin-nope failed: the package was not found") == 0);

  auto refused = npm::describe_failure(
      "npm error code ECONNREFUSED\nnpm error syscall connect\nnpm error errno ECONNREFUSED\n"
      "npm error FetchError: request to http://127.0.0.1:9/opentabs-plugin-x failed, reason: connect ECONNREFUSED 127.0.0.1:9\n"
      "npm error     at ClientRequest.<anonymous> (/usr/lib/node_modules/npm/node_modules/minipass-fetch/lib/index.js:130:14)\n",
      1);
  CHECK(refused.code == "ECONNREFUSED");
  CHECK(refused.reason == "request to http://127.0.0.1:9/opentabs-plugin-x failed, reason: connect ECONNREFUSED 127.0.0.1:9");
  CHECK(npm::is_network_code(refused.code));
  CHECK(npm::failure_message("install", "opentabs-plugin-x", refused).find("the npm registry could not be reached") !=
        std::string::npos);

  auto old_style = npm::describe_failure("npm ERR! code EACCES\nnpm ERR! syscall mkdir\nnpm ERR! Error: EACCES: permission denied, mkdir '/usr/lib/node_modules/x'\n", 243);
  CHECK(old_style.code == "EACCES");
  CHECK(old_style.reason.find("permission denied") != std::string::npos);
  CHECK(npm::failure_message("install", "x", old_style).find("no permission") != std::string::npos);

  auto silent = npm::describe_failure("", 7);
  CHECK(silent.code.empty());
  CHECK(silent.reason == "npm exited with code 7");

  auto errno_only = npm::describe_failure("npm error errno ETIMEDOUT\nnpm error network timeout\n", 1);
  CHECK(errno_only.code == "ETIMEDOUT");
  CHECK(errno_only.reason == "network timeout");
  auto numeric_errno = npm::describe_failure("npm error errno -13\nnpm error boom\n", 1);
  CHECK(numeric_errno.code.empty());

  // No "code" line, only the registry's answer: still a package the registry does not have.
  auto bare_404 = npm::describe_failure("npm ERR! 404 Not Found - GET http://127.0.0.1:9/opentabs-plugin-x\n", 1);
  CHECK(bare_404.code.empty());
  CHECK(bare_404.kind == npm::failure_kind::package_not_found);
  CHECK(silent.kind == npm::failure_kind::other);
}

TEST_CASE("a failed npm run is an error whose reason is the failure's kind and whose npm_code is npm's") {
  auto not_found = npm::failure_error(npm::failure{"E404", "404 Not Found", npm::failure_kind::package_not_found}, "gone");
  CHECK(not_found.is(npm::failure_kind::package_not_found));
  CHECK(not_found.is(errc::io));
  CHECK(not_found.npm_code == "E404");
  CHECK(not_found.code() == "package_not_found");
  CHECK(not_found.message == "gone");

  auto unreachable = npm::failure_error(npm::failure{"ECONNREFUSED", "refused", npm::failure_kind::unreachable}, "down");
  CHECK(unreachable.is(npm::failure_kind::unreachable));
  CHECK(unreachable.is(errc::unavailable));
  CHECK(unreachable.npm_code == "ECONNREFUSED");

  auto silent = npm::failure_error(npm::failure{"", "npm exited with code 7", npm::failure_kind::other}, "failed");
  CHECK(silent.is(npm::failure_kind::other));
  CHECK(silent.is(errc::io));
  CHECK(silent.npm_code.empty());
  CHECK(silent.code() == "npm_failed");
}

TEST_CASE("credentials never reach error text") {
  CHECK(npm::redact_credentials("GET https://user:s3cret@registry.example/x failed") ==
        "GET https://***@registry.example/x failed");
  CHECK(npm::redact_credentials("//registry.example/:_authToken=abcdef0123 more") == "//registry.example/:_authToken=*** more");
  CHECK(npm::redact_credentials("no secrets here http://127.0.0.1:9/x") == "no secrets here http://127.0.0.1:9/x");
  auto f = npm::describe_failure("npm error request to https://bob:hunter2@reg.example/p failed, reason: boom\n", 1);
  CHECK(f.reason.find("hunter2") == std::string::npos);
  CHECK(f.reason.find("bob") == std::string::npos);
}
