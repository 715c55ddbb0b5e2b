// leading_reply_id: finds the top-level string id in a message prefix, and nothing else.
#include "app/oversize_reply.hpp"

#include <doctest/doctest.h>

#include <string>

using opentabs::app::leading_reply_id;
using opentabs::app::oversize_reply_scan_bytes;

TEST_CASE("leading_reply_id reads the top-level id before a large result") {
  std::string reply = R"({"jsonrpc":"2.0","id":"6f1c2a9e-0b1d-4c3e-9f00-123456789abc","result":{"content":")";
  reply += std::string(64, 'x');
  CHECK(leading_reply_id(reply) == "6f1c2a9e-0b1d-4c3e-9f00-123456789abc");
  CHECK(leading_reply_id(R"( { "id" : "abc" , "result": 1})") == "abc");
  CHECK(leading_reply_id(R"({"jsonrpc":"2.0","error":{"code":1},"id":"late"})") == "late");
}

TEST_CASE("leading_reply_id ignores ids inside nested values and in string contents") {
  CHECK_FALSE(leading_reply_id(R"({"result":{"id":"inner"},)").has_value());
  CHECK_FALSE(leading_reply_id(R"({"result":[{"id":"inner"}],)").has_value());
  CHECK_FALSE(leading_reply_id(R"({"note":"\"id\":\"fake\"","result":)").has_value());
  CHECK_FALSE(leading_reply_id(R"({"result":"x","idx":"no"})").has_value());
  CHECK(leading_reply_id(R"({"result":{"id":"inner"},"id":"outer"})") == "outer");
}

TEST_CASE("leading_reply_id gives up on ids it cannot use") {
  CHECK_FALSE(leading_reply_id(R"({"id":7,"result":1})").has_value());
  CHECK_FALSE(leading_reply_id(R"({"id":"","result":1})").has_value());
  CHECK_FALSE(leading_reply_id(R"({"id":")" + std::string(300, 'a') + R"("})").has_value());
  CHECK_FALSE(leading_reply_id(R"({"id":"unterminated)").has_value());
  CHECK_FALSE(leading_reply_id("not json at all").has_value());
  CHECK_FALSE(leading_reply_id("").has_value());
  // An id placed after the scanned prefix is not found.
  std::string late = R"({"result":")" + std::string(oversize_reply_scan_bytes, 'x') + R"(","id":"far"})";
  CHECK_FALSE(leading_reply_id(late).has_value());
}
