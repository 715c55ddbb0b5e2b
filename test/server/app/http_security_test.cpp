#include <doctest/doctest.h>

#include <string>

#include "app/http_security.hpp"

using namespace opentabs::app;

TEST_CASE("Host allow-list") {
  for (const char* ok : {"localhost", "localhost:9515", "127.0.0.1", "127.0.0.1:1", "[::1]", "[::1]:9515", "::1",
                         "::ffff:127.0.0.1", "LOCALHOST:80"})
    CHECK_MESSAGE(host_allowed(ok), ok);
  for (const char* bad : {"", "evil.com", "localhost.evil.com", "127.0.0.2", "localhost:abc", "localhost:",
                          "[::2]:1", "192.168.1.1:9515", "localhost:123456"})
    CHECK_MESSAGE(!host_allowed(bad), bad);
}

TEST_CASE("Origin rule") {
  CHECK(origin_allowed("", false));
  CHECK(origin_allowed("chrome-extension://abcdef", true));
  CHECK_FALSE(origin_allowed("http://evil.example.com", true));
  CHECK_FALSE(origin_allowed("null", true));
  CHECK_FALSE(origin_allowed("", true));
  // Two Origin fields are joined into one value: only a single extension origin passes.
  CHECK_FALSE(origin_allowed("chrome-extension://abcdef, https://evil.example.com", true));
  CHECK_FALSE(origin_allowed("chrome-extension://abcdef https://evil.example.com", true));
  CHECK_FALSE(origin_allowed("chrome-extension://", true));
  CHECK_FALSE(origin_allowed("chrome-extension://abc/def", true));
}

TEST_CASE("own loopback origin (MCP endpoint only)") {
  CHECK(is_own_loopback_origin("http://127.0.0.1:9515", 9515));
  CHECK(is_own_loopback_origin("http://localhost:9515", 9515));
  CHECK(is_own_loopback_origin("http://[::1]:9515", 9515));
  CHECK_FALSE(is_own_loopback_origin("http://127.0.0.1:9516", 9515));
  CHECK_FALSE(is_own_loopback_origin("http://localhost.evil.com:9515", 9515));
  CHECK_FALSE(is_own_loopback_origin("https://127.0.0.1:9515", 9515));
  CHECK_FALSE(is_own_loopback_origin("http://127.0.0.1:0", 0));
}

TEST_CASE("bearer token") {
  std::string secret(64, 'a');
  CHECK(bearer_matches("Bearer " + secret, secret));
  CHECK(bearer_matches("bearer " + secret, secret));
  CHECK_FALSE(bearer_matches("Bearer " + std::string(64, 'b'), secret));
  CHECK_FALSE(bearer_matches(secret, secret));
  CHECK_FALSE(bearer_matches("", secret));
}

TEST_CASE("WebSocket subprotocol credentials") {
  std::string s(64, 'f');
  auto c = check_ws_subprotocols({"opentabs", s, "conn-1"}, s);
  CHECK(c.authorized);
  CHECK(c.connection_id == "conn-1");
  CHECK(c.caller == "bearer");  // the secret itself: one caller with every bearer client
  CHECK(check_ws_subprotocols({"opentabs", s}, s).connection_id.empty());
  auto bad = check_ws_subprotocols({"opentabs", "wrong", "conn-1"}, s);
  CHECK_FALSE(bad.authorized);
  CHECK(bad.connection_id.empty());
}

TEST_CASE("WebSocket subprotocol credentials: a peer-proof credential, never taken as the connection id") {
  std::string s(64, 'f');
  std::string token = std::string(64, 'a') + "." + std::string(64, 'b');
  auto accept_token = [&](std::string_view t) { return t == token; };
  auto c = check_ws_subprotocols({"opentabs", "opentabs-proof." + token, "conn-1"}, s, accept_token);
  CHECK(c.authorized);
  CHECK(c.connection_id == "conn-1");
  // A caller of its own, as peer_proof::caller_identity names it (the per-caller slot budget).
  CHECK(c.caller == "proof " + std::string(64, 'a'));
  auto refused = check_ws_subprotocols({"opentabs", "opentabs-proof.x", "conn-1"}, s, accept_token);
  CHECK_FALSE(refused.authorized);
  CHECK(refused.caller.empty());
  // Without a proof check (no table), a proof credential authorises nothing.
  CHECK_FALSE(check_ws_subprotocols({"opentabs", "opentabs-proof." + token}, s).authorized);
}
