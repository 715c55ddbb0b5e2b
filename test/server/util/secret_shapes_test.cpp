// Secrets recognised by their shape wherever they stand in a text.
#include "util/secret_shapes.hpp"

#include <doctest/doctest.h>

#include <string>

using opentabs::redact_secret_shapes;

TEST_CASE("secret shapes: published token formats are redacted inside ordinary text") {
  const std::string ghp = "ghp_" + std::string(36, 'A');
  bool found = false;
  auto out = redact_secret_shapes("please post " + ghp + ". thanks", &found);
  CHECK(found);
  CHECK(out == "please post [redacted GitHub token]. thanks");
  for (const std::string secret : {"github_pat_11ABCDEFG0123456789abcdefghij", "sk-proj-abcdefghijklmnopqrstuvwxyz012345",
                                   "sk_live_0123456789abcdefABCDEF", "xoxb-123456789012-abcdefghij", "AKIAIOSFODNN7EXAMPLE",
                                   "AIzaSyA-abcdefghijklmnopqrstuvwxyz01234", "glpat-abcdefghijklmnopqrst",
                                   "npm_abcdefghijklmnopqrstuvwxyz0123456789",
                                   "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"}) {
    CAPTURE(secret);
    auto r = redact_secret_shapes("x=" + secret + "&y=1", &found);
    CHECK(found);
    CHECK(r.find(secret) == std::string::npos);
    CHECK(r.starts_with("x=[redacted "));
    CHECK(r.ends_with("]&y=1"));
  }
}

TEST_CASE("secret shapes: a PEM private key goes from BEGIN to END") {
  auto out = redact_secret_shapes("key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nabc\n-----END RSA PRIVATE KEY-----\nafter");
  CHECK(out == "key:\n[redacted private key]\nafter");
  CHECK(redact_secret_shapes("-----BEGIN CERTIFICATE-----") == "-----BEGIN CERTIFICATE-----");
}

TEST_CASE("secret shapes: ordinary words and short look-alikes stay") {
  bool found = true;
  for (const std::string text : {"task-runner sk-short ghp_tiny", "AKIA is not enough", "a.b.c eyJ", "monkey_business desk-lamp",
                                 "AKIAIOSFODNN7EXAMPLEX"}) {
    CAPTURE(text);
    CHECK(redact_secret_shapes(text, &found) == text);
    CHECK_FALSE(found);
  }
}
