// Tests for the pure parts of the server-side browser tools: expression detection for
// browser_execute_script, the exec-file wrapper, HAR 1.2 building, PNG sizing and
// timestamps (the output-path rules are in output_files_test.cpp).
#include "app/browser_tools.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

using namespace opentabs;
using namespace opentabs::app;

TEST_CASE("expressions are told apart from statement bodies") {
  CHECK(looks_like_expression("1 + 2"));
  CHECK(looks_like_expression("document.title"));
  CHECK(looks_like_expression("document.title;"));
  CHECK(looks_like_expression("[...document.querySelectorAll('a')].map(a => a.href)"));
  CHECK(looks_like_expression("await fetch('/api').then(r => r.json())"));
  CHECK(looks_like_expression("fetch('/x')\n  .then(r => r.json())"));
  CHECK(looks_like_expression("'a;b'.split(';')"));
  CHECK(looks_like_expression("`x ${1; } y`.length") == true);
  CHECK(looks_like_expression("/a;b/.test('a;b')"));
  CHECK(looks_like_expression("(() => { const x = 1; return x; })()"));
  CHECK(looks_like_expression("x // trailing comment; here"));
  CHECK_FALSE(looks_like_expression("const x = 1; return x * 2"));
  CHECK_FALSE(looks_like_expression("return document.title"));
  CHECK_FALSE(looks_like_expression("let a = 1\na + 1"));
  CHECK_FALSE(looks_like_expression("foo(); bar()"));
  CHECK_FALSE(looks_like_expression("a = 1\nb = 2"));
  CHECK_FALSE(looks_like_expression("if (x) { y() }"));
  CHECK_FALSE(looks_like_expression("for (const a of b) c(a)"));
  CHECK_FALSE(looks_like_expression(""));
  CHECK_FALSE(looks_like_expression("{ a: 1 }"));
}

TEST_CASE("exec file wraps expressions in return and keeps bodies verbatim") {
  auto expr = exec_file_source("0a1b", "document.title;");
  CHECK(expr.find("return (\ndocument.title\n);") != std::string::npos);
  CHECK(expr.find("'__execStarted_' + key") != std::string::npos);
  CHECK(expr.find("const key = '0a1b';") != std::string::npos);
  auto body = exec_file_source("0a1b", "const x = 2; return x;");
  CHECK(body.find("const x = 2; return x;") != std::string::npos);
  CHECK(body.find("return (\n") == std::string::npos);
}

TEST_CASE("HAR 1.2 from captured requests and frames, sorted by start time") {
  auto requests = json::parse(R"([
    {"url":"http://h/b?x=1&y=a%20b","method":"POST","status":201,"statusText":"Created","timestamp":2000,
     "requestHeaders":{"Content-Type":"application/json"},"requestBody":"{\"a\":1}","responseHeaders":{"content-type":"application/json"},
     "responseBody":"{}","mimeType":"application/json","durationMs":12},
    {"url":"http://h/a","method":"GET","status":200,"timestamp":1000}
  ])").value().as_array();
  auto frames = json::parse(R"([{"url":"ws://h/s","direction":"sent","opcode":1,"data":"hi","timestamp":1500}])").value().as_array();
  auto har = build_har(requests, &frames, "1.2.3");
  const auto& log = har["log"].as_object();
  CHECK(log.at("version").as_string() == "1.2");
  CHECK(log.at("creator").as_object().at("version").as_string() == "1.2.3");
  const auto& entries = log.at("entries").as_array();
  REQUIRE(entries.size() == 3);
  CHECK(entries[0].as_object().at("request").as_object().at("url").as_string() == "http://h/a");
  CHECK(entries[1].as_object().at("response").as_object().at("status").as_int64() == 101);
  const auto& post = entries[2].as_object();
  CHECK(post.at("startedDateTime").as_string() == "1970-01-01T00:00:02.000Z");
  CHECK(post.at("time").as_double() == 12);
  const auto& req = post.at("request").as_object();
  CHECK(req.at("postData").as_object().at("mimeType").as_string() == "application/json");
  CHECK(req.at("queryString").as_array().size() == 2);
  CHECK(req.at("queryString").as_array()[1].as_object().at("value").as_string() == "a b");
  CHECK(post.at("response").as_object().at("content").as_object().at("text").as_string() == "{}");
}

TEST_CASE("PNG size") {
  std::string png("\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\x02\x80\0\0\x01\xe0", 24);
  auto size = png_size(png);
  REQUIRE(size.has_value());
  CHECK(size->first == 640);
  CHECK(size->second == 480);
  CHECK_FALSE(png_size("GIF89a...............").has_value());
}

TEST_CASE("the request index is one line per request, with paused requests after") {
  auto reply = json::parse_object(R"({"source":"light","requests":[
    {"requestId":"w1","method":"GET","status":200,"type":"Document","url":"http://127.0.0.1:1/a.html","size":1234,
     "requestHeaders":{"accept":"text/html"},"responseHeaders":{"content-type":"text/html"}},
    {"requestId":"w2","method":"POST","type":"XHR","url":"http://127.0.0.1:1/api\nevil","failed":true,"errorText":"net::ERR_ABORTED"},
    {"requestId":"77.1","method":"GET","status":304,"type":"Script","url":"http://127.0.0.1:1/s.js","encodedDataLength":90}],
    "pausedRequests":[{"requestId":"p9","method":"GET","resourceType":"Fetch","url":"http://127.0.0.1:1/p"}]})").value();
  const std::string text = network_index(reply, 7);
  std::vector<std::string> lines;
  for (std::size_t start = 0, nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1) lines.push_back(text.substr(start, nl - start));
  REQUIRE(lines.size() == 7);
  CHECK(lines[0].rfind("3 requests in tab 7 (always-on record", 0) == 0);
  CHECK(lines[1] == "id method status type url size");
  CHECK(lines[2] == "w1 GET 200 Document http://127.0.0.1:1/a.html 1234");
  CHECK(lines[3] == "w2 POST failed:net::ERR_ABORTED XHR http://127.0.0.1:1/api evil -");
  CHECK(lines[4] == "77.1 GET 304 Script http://127.0.0.1:1/s.js 90");
  CHECK(lines[5].find("1 paused") == 0);
  CHECK(lines[6] == "p9 GET Fetch http://127.0.0.1:1/p");
  CHECK(text.find("accept") == std::string::npos);  // headers only in the detail tool

  json::array many;
  for (int i = 0; i < 600; ++i) many.push_back(json::object{{"requestId", json::str("w" + std::to_string(i))}, {"method", "GET"}, {"url", "http://x/"}});
  const std::string capped = network_index(json::object{{"requests", many}}, 1);
  CHECK(capped.find("[100 oldest not shown]") != std::string::npos);
  CHECK(capped.find("\nw99 ") == std::string::npos);
  CHECK(capped.find("\nw100 ") != std::string::npos);
  CHECK(capped.find("(network capture)") != std::string::npos);
}

TEST_CASE("the page's record says what it lacks: a tab without the record, and requests it no longer keeps") {
  auto none = json::parse_object(R"({"source":"light","requests":[],"note":"No request record in tab 3 (the page was loaded before the extension)\nreload it"})").value();
  const std::string text = network_index(none, 3);
  CHECK(text.rfind("0 requests in tab 3 (always-on record kept by the page: no headers or bodies", 0) == 0);
  CHECK(text.find("\nNo request record in tab 3 (the page was loaded before the extension) reload it\n") != std::string::npos);
  CHECK(text.find("id method status type url size") == std::string::npos);

  auto some = json::parse_object(R"({"source":"light","dropped":12,"requests":[
    {"requestId":"rab12.13","status":200,"type":"Fetch","url":"http://127.0.0.1:1/api","size":40}]})").value();
  const std::string kept = network_index(some, 4);
  CHECK(kept.find("[12 earlier requests of this page no longer kept]\n") != std::string::npos);
  CHECK(kept.find("\nrab12.13 - 200 Fetch http://127.0.0.1:1/api 40\n") != std::string::npos);
}
