// auth.json: format, validation, generation, rotation, and that the secret never leaks
// into error text (spec §2.3).
#include <doctest/doctest.h>

#include "config/auth_secret.hpp"
#include "test/server/config/scratch_dir.hpp"

using namespace opentabs;
using namespace opentabs::config;
using opentabs::test::mode_of;
using opentabs::test::read_text;
using opentabs::test::scratch_dir;
using opentabs::test::write_text;

namespace {
const std::string kSecret = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
}

TEST_CASE("a secret is any 1 to 512 token characters, as the original accepts any non-empty string that can be sent") {
  CHECK(is_valid_secret(kSecret));
  CHECK(is_valid_secret(generate_secret()));
  CHECK(generate_secret().size() == 64);
  CHECK(is_valid_secret(kSecret.substr(1)));
  std::string upper = kSecret;
  upper[10] = 'A';
  CHECK(is_valid_secret(upper));
  CHECK(is_valid_secret("5f0c8a52-1b7e-4d7a-9a3c-2f0f4b1a9e11"));
  CHECK(is_valid_secret("rotated-by-a-tool_2026.v2~!"));
  CHECK(is_valid_secret(std::string(kMaxSecretLength, 'x')));
  CHECK_FALSE(is_valid_secret(std::string(kMaxSecretLength + 1, 'x')));
  CHECK_FALSE(is_valid_secret(""));
  // Would split the Sec-WebSocket-Protocol list or the Authorization header.
  for (std::string_view bad : {"two words", "a,b", "quo\"te", "tab\there", "new\nline", "sl/ash", "caf\xc3\xa9"})
    CHECK_MESSAGE(!is_valid_secret(bad), bad);
  CHECK(generate_secret() != generate_secret());
}

TEST_CASE("auth.json content is the exact wire format") {
  CHECK(format_auth_json(kSecret) == "{\"secret\":\"" + kSecret + "\"}\n");
  auto back = parse_auth_json(format_auth_json(kSecret), "/x/auth.json");
  REQUIRE(back.ok());
  CHECK(*back == kSecret);
}

TEST_CASE("invalid auth.json contents are rejected without echoing the secret") {
  std::string almost = kSecret.substr(0, 63) + " ";  // one bad character
  for (const std::string& text : {std::string("{\"secret\":\"" + almost + "\"}"), std::string("{\"secret\":42}"),
                                 std::string("[\"" + kSecret + "\"]"), std::string("{\"secret\":\"" + kSecret),
                                 std::string(""), std::string("{\"token\":\"" + kSecret + "\"}")}) {
    auto r = parse_auth_json(text, "/x/auth.json");
    REQUIRE_FALSE(r.ok());
    CHECK(r.err().is(errc::invalid_params));
    CHECK(r.err().message.find("/x/auth.json") != std::string::npos);
    CHECK(r.err().message.find(kSecret.substr(0, 16)) == std::string::npos);
    CHECK(r.err().message.find(almost.substr(0, 16)) == std::string::npos);
  }
}

TEST_CASE("ensure_secret generates auth.json (0600, parent 0700) when missing and then keeps it") {
  scratch_dir tmp;
  auto auth = tmp / "extension/auth.json";
  auto first = ensure_secret(auth);
  REQUIRE(first.ok());
  CHECK(first->generated);
  CHECK(first->warnings.empty());
  CHECK(is_valid_secret(first->secret));
  CHECK(read_text(auth) == format_auth_json(first->secret));
  CHECK_POSIX_MODE(mode_of(auth) == 0600);
  CHECK_POSIX_MODE(mode_of(tmp / "extension") == 0700);

  auto second = ensure_secret(auth);
  REQUIRE(second.ok());
  CHECK_FALSE(second->generated);
  CHECK(second->secret == first->secret);
  CHECK(*load_secret(auth) == first->secret);
}

TEST_CASE("ensure_secret replaces an invalid or half-written auth.json and says why without the content") {
  scratch_dir tmp;
  auto auth = tmp / "auth.json";
  write_text(auth, "{\"secret\":\"" + kSecret.substr(0, 20));  // torn write
  auto r = ensure_secret(auth);
  REQUIRE(r.ok());
  CHECK(r->generated);
  CHECK(r->secret != kSecret);
  REQUIRE(r->warnings.size() == 1);
  CHECK(r->warnings[0].find("generating a new secret") != std::string::npos);
  CHECK(r->warnings[0].find(kSecret.substr(0, 20)) == std::string::npos);
  CHECK(*load_secret(auth) == r->secret);
}

// Skipped on Windows: Windows files have no POSIX mode to find too open.
TEST_CASE("ensure_secret tightens a world-readable auth.json" * doctest::skip(opentabs::testing::on_windows)) {
  scratch_dir tmp;
  auto auth = tmp / "auth.json";
  write_text(auth, format_auth_json(kSecret));
  std::filesystem::permissions(auth, std::filesystem::perms(0644));
  auto r = ensure_secret(auth);
  REQUIRE(r.ok());
  CHECK(r->secret == kSecret);
  CHECK_FALSE(r->generated);
  CHECK_POSIX_MODE(mode_of(auth) == 0600);
  REQUIRE(r->warnings.size() == 1);
  CHECK(r->warnings[0].find(kSecret) == std::string::npos);
}

TEST_CASE("rotate_secret writes a new secret atomically and leaves no temp files") {
  scratch_dir tmp;
  auto auth = tmp / "auth.json";
  write_text(auth, format_auth_json(kSecret));
  auto rotated = rotate_secret(auth);
  REQUIRE(rotated.ok());
  CHECK(*rotated != kSecret);
  CHECK(is_valid_secret(*rotated));
  CHECK(*load_secret(auth) == *rotated);
  CHECK_POSIX_MODE(mode_of(auth) == 0600);
  CHECK(tmp.entries() == std::vector<std::string>{"auth.json"});
}

TEST_CASE("load_secret reports a missing file and refuses an oversized one") {
  scratch_dir tmp;
  CHECK(load_secret(tmp / "none.json").err().code() == "not_found");
  write_text(tmp / "big.json", std::string(kMaxAuthFileBytes + 1, ' '));
  CHECK(load_secret(tmp / "big.json").err().code() == "too_large");
}

TEST_CASE("mask_secret shows only the ends") {
  CHECK(mask_secret(kSecret) == "0123...cdef");
  CHECK(mask_secret("short") == "****");
}
