// Version negotiation and the MCP-Protocol-Version header rule.
#include <doctest/doctest.h>

#include "mcp/protocol_version.hpp"

using namespace opentabs::mcp;

TEST_CASE("initialize echoes a supported version and offers the newest otherwise") {
  CHECK(negotiate_version("2025-11-25") == "2025-11-25");
  CHECK(negotiate_version("2025-06-18") == "2025-06-18");
  CHECK(negotiate_version("2025-03-26") == "2025-03-26");
  CHECK(negotiate_version("2099-01-01") == "2025-11-25");
  CHECK(negotiate_version("2024-11-05") == "2025-11-25");
  CHECK(negotiate_version("") == "2025-11-25");
}

TEST_CASE("the header accepts any supported version, falls back to the session's, rejects others") {
  CHECK(*effective_version("", "2025-06-18") == "2025-06-18");
  CHECK(*effective_version("2025-03-26", "2025-11-25") == "2025-03-26");
  CHECK(*effective_version(" 2025-11-25 ", "2025-03-26") == "2025-11-25");
  auto bad = effective_version("1999-01-01", "2025-11-25");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.err().message.find("1999-01-01") != std::string::npos);
  CHECK(bad.err().message.find("2025-11-25, 2025-06-18, 2025-03-26") != std::string::npos);
  CHECK_FALSE(effective_version("2026-07-28", "2025-11-25").ok());
}

TEST_CASE("batches only in 2025-03-26") {
  CHECK(allows_batches("2025-03-26"));
  CHECK_FALSE(allows_batches("2025-06-18"));
  CHECK_FALSE(allows_batches("2025-11-25"));
}
