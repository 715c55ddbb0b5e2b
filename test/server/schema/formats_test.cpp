// Tests for the hand-written JSON Schema format checks.
#include "schema/formats.hpp"

#include <doctest/doctest.h>

using opentabs::schema::check_format;
using opentabs::schema::is_checked_format;

TEST_CASE("format names") {
  CHECK(is_checked_format("email"));
  CHECK(is_checked_format("date-time"));
  CHECK_FALSE(is_checked_format("emoji"));
  CHECK(check_format("emoji", "not checked"));
}

TEST_CASE("email") {
  CHECK(check_format("email", "a@b.co"));
  CHECK(check_format("email", "first.last+tag@sub.example.org"));
  CHECK_FALSE(check_format("email", "a@b"));
  CHECK_FALSE(check_format("email", "@b.co"));
  CHECK_FALSE(check_format("email", "a..b@b.co"));
  CHECK_FALSE(check_format("email", ".a@b.co"));
  CHECK_FALSE(check_format("email", "a b@b.co"));
  CHECK_FALSE(check_format("email", "a@-b.co"));
}

TEST_CASE("uri") {
  CHECK(check_format("uri", "https://example.com/a?b=c#d"));
  CHECK(check_format("uri", "mailto:someone@example.com"));
  CHECK(check_format("uri", "file:///tmp/x"));
  CHECK_FALSE(check_format("uri", "example.com"));
  CHECK_FALSE(check_format("uri", "https://"));
  CHECK_FALSE(check_format("uri", "http://a b"));
  CHECK_FALSE(check_format("uri", "http://x/%zz"));
  CHECK_FALSE(check_format("uri", "1http://x"));
}

TEST_CASE("uuid") {
  CHECK(check_format("uuid", "123e4567-e89b-12d3-a456-426614174000"));
  CHECK(check_format("uuid", "urn:uuid:123E4567-E89B-12D3-A456-426614174000"));
  CHECK_FALSE(check_format("uuid", "123e4567e89b12d3a456426614174000"));
  CHECK_FALSE(check_format("uuid", "123e4567-e89b-12d3-a456-42661417400g"));
}

TEST_CASE("date, time, date-time") {
  CHECK(check_format("date", "2024-02-29"));
  CHECK_FALSE(check_format("date", "2023-02-29"));
  CHECK_FALSE(check_format("date", "1900-02-29"));
  CHECK(check_format("date", "2000-02-29"));
  CHECK_FALSE(check_format("date", "2024-04-31"));
  CHECK_FALSE(check_format("date", "2024-4-01"));
  CHECK(check_format("time", "23:59:60"));
  CHECK(check_format("time", "10:20"));
  CHECK_FALSE(check_format("time", "24:00:00"));
  CHECK(check_format("date-time", "2024-01-02T03:04:05.678Z"));
  CHECK(check_format("date-time", "2024-01-02t03:04:05-07:30"));
  CHECK_FALSE(check_format("date-time", "2024-01-02"));
  CHECK_FALSE(check_format("date-time", "2024-01-02T03:04:05+24:00"));
  CHECK_FALSE(check_format("date-time", "2024-01-02T03:04:05Zjunk"));
}

TEST_CASE("ip addresses and host names") {
  CHECK(check_format("ipv4", "0.0.0.0"));
  CHECK(check_format("ipv4", "255.255.255.255"));
  CHECK_FALSE(check_format("ipv4", "256.0.0.1"));
  CHECK_FALSE(check_format("ipv4", "01.2.3.4"));
  CHECK_FALSE(check_format("ipv4", "1.2.3"));
  CHECK_FALSE(check_format("ipv4", "1.2.3.4.5"));
  CHECK(check_format("ipv6", "::1"));
  CHECK(check_format("ipv6", "2001:db8::ff00:42:8329"));
  CHECK_FALSE(check_format("ipv6", "2001:db8:::1"));
  CHECK(check_format("hostname", "a-b.example"));
  CHECK_FALSE(check_format("hostname", "-a.example"));
  CHECK_FALSE(check_format("hostname", "a..b"));
}
