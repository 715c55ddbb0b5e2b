#include <doctest/doctest.h>

#include "test/support/test_os.hpp"

#include <cstdio>
#include <chrono>
#include <filesystem>

#include "util/clock.hpp"
#include "util/files.hpp"
#include "util/random.hpp"
#include "util/strings.hpp"

using namespace opentabs;

TEST_CASE("uuid_v4 and random_hex have the right shape") {
  auto u = uuid_v4();
  CHECK(u.size() == 36);
  CHECK(u[14] == '4');
  CHECK(random_hex(32).size() == 64);
  CHECK(uuid_v4() != uuid_v4());
  // 8-4-4-4-12 lowercase hex, version 4, RFC 4122 variant.
  for (int n = 0; n < 100; ++n) {
    auto id = uuid_v4();
    REQUIRE(id.size() == 36);
    for (std::size_t i = 0; i < id.size(); ++i) {
      if (i == 8 || i == 13 || i == 18 || i == 23) CHECK(id[i] == '-');
      else CHECK(std::string_view("0123456789abcdef").find(id[i]) != std::string_view::npos);
    }
    CHECK(id[14] == '4');
    CHECK(std::string_view("89ab").find(id[19]) != std::string_view::npos);
  }
}

TEST_CASE("constant_time_equals") {
  CHECK(constant_time_equals("abc", "abc"));
  CHECK_FALSE(constant_time_equals("abc", "abd"));
  CHECK_FALSE(constant_time_equals("abc", "abcd"));
  CHECK(constant_time_equals("", ""));
  CHECK_FALSE(constant_time_equals("", "a"));
  CHECK_FALSE(constant_time_equals("abcd", "abc"));
  // A difference at any position of a 64-byte token (the equal-length path).
  const std::string token(64, 'k');
  CHECK(constant_time_equals(token, std::string(64, 'k')));
  for (std::size_t at = 0; at < token.size(); ++at) {
    auto other = token;
    other[at] = 'j';
    CHECK_FALSE(constant_time_equals(token, other));
  }
}

TEST_CASE("closest_match suggests within distance") {
  CHECK(closest_match("localPlugin", {"localPlugins", "permissions"}) == "localPlugins");
  CHECK(closest_match("zzzzzzzz", {"localPlugins"}).empty());
}

TEST_CASE("iso8601 round trip") {
  auto ms = now_epoch_ms();
  auto s = iso8601_utc(std::chrono::system_clock::time_point(std::chrono::milliseconds(ms)));
  CHECK(parse_iso8601_ms(s) == ms);
  CHECK(parse_iso8601_ms("garbage") == -1);
}

TEST_CASE("iso8601 formatting is exact across eras, leap days and times before 1970") {
  CHECK(iso8601_from_epoch_ms(0) == "1970-01-01T00:00:00.000Z");
  CHECK(iso8601_from_epoch_ms(-1) == "1969-12-31T23:59:59.999Z");
  CHECK(iso8601_from_epoch_ms(1700000000123) == "2023-11-14T22:13:20.123Z");
  CHECK(iso8601_from_epoch_ms(951782400000) == "2000-02-29T00:00:00.000Z");  // 400-year leap day
  CHECK(iso8601_from_epoch_ms(4107542399999) == "2100-02-28T23:59:59.999Z");  // 2100 is no leap year
  CHECK(iso8601_from_epoch_ms(4107542400000) == "2100-03-01T00:00:00.000Z");
  CHECK(iso8601_from_epoch_ms(-62135596800000) == "0001-01-01T00:00:00.000Z");
  // Every 7th day over 1,200 years against the standard library's calendar (<chrono>: the
  // C library's gmtime cannot go before 1970 on Windows).
  for (std::int64_t day = -365LL * 400; day < 365LL * 800; day += 7) {
    const std::int64_t ms = day * 86'400'000 + 45'296'789;  // 12:34:56.789
    const std::chrono::year_month_day date{std::chrono::sys_days{std::chrono::days{day}}};
    char want[64];
    std::snprintf(want, sizeof want, "%04d-%02d-%02dT12:34:56.789Z", static_cast<int>(date.year()),
                  static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()));
    REQUIRE(iso8601_from_epoch_ms(ms) == want);
    REQUIRE(parse_iso8601_ms(want) == ms);
  }
}

TEST_CASE("iso8601 parsing: fractions, offsets and what is refused") {
  CHECK(parse_iso8601_ms("2023-11-14T22:13:20Z") == 1700000000000);
  CHECK(parse_iso8601_ms("2023-11-14T22:13:20") == 1700000000000);
  CHECK(parse_iso8601_ms("2023-11-14T22:13:20.5Z") == 1700000000500);
  CHECK(parse_iso8601_ms("2023-11-14T22:13:20.123456Z") == 1700000000123);
  CHECK(parse_iso8601_ms("2023-11-14T23:13:20.123+01:00") == 1700000000123);
  CHECK(parse_iso8601_ms("2023-11-14T21:43:20.123-00:30") == 1700000000123);
  for (const char* bad : {"", "2023-11-14", "2023-13-14T22:13:20Z", "2023-11-14T24:13:20Z", "2023-11-14T22:13:20.Z",
                          "2023-11-14T22:13:20Zjunk", "2023-11-14T22:13:20+0100", "2023/11/14T22:13:20Z", "+023-11-14T22:13:20Z"})
    CHECK_MESSAGE(parse_iso8601_ms(bad) == -1, bad);
}

TEST_CASE("atomic write replaces content and read_file bounds size") {
  auto dir = std::filesystem::temp_directory_path() / ("ot-util-" + random_hex(4));
  REQUIRE(ensure_dir(dir).ok());
  auto f = dir / "x.json";
  REQUIRE(write_file_atomic(f, "one").ok());
  REQUIRE(write_file_atomic(f, "two").ok());
  CHECK(*read_file(f, 100) == "two");
  CHECK(read_file(f, 2).err().code() == "too_large");
  CHECK(read_file(dir / "nope", 10).err().code() == "not_found");
  CHECK_POSIX_MODE((std::filesystem::status(f).permissions() & std::filesystem::perms::group_read) == std::filesystem::perms::none);
  std::filesystem::remove_all(dir);
}

TEST_CASE("quote_for_error bounds the text and hides control characters") {
  CHECK(quote_for_error("left-pad") == "\"left-pad\"");
  CHECK(quote_for_error("a\nb\x1b[31m\x7f") == "\"a?b?[31m?\"");
  CHECK(quote_for_error(std::string(150, 'x')) == "\"" + std::string(100, 'x') + "…\"");
  CHECK(quote_for_error("abcdef", 3) == "\"abc…\"");
  CHECK(quote_for_error("abc", 3) == "\"abc\"");
  // A cut never splits a UTF-8 character: "é" is two bytes.
  CHECK(quote_for_error("aéé", 2) == "\"a…\"");
  CHECK(quote_for_error("aéé", 3) == "\"aé…\"");
  CHECK(excerpt_for_error("tool\tname", 80) == "tool?name");
  CHECK(excerpt_for_error(std::string(90, 'n'), 80) == std::string(80, 'n') + "…");
}

TEST_CASE("find_header_field: first field of that name, any case") {
  std::vector<std::pair<std::string, std::string>> fields{{"Content-Type", "a"}, {"X-Two", "1"}, {"x-two", "2"}};
  REQUIRE(find_header_field(fields, "content-type") != nullptr);
  CHECK(*find_header_field(fields, "content-type") == "a");
  CHECK(*find_header_field(fields, "X-TWO") == "1");
  CHECK(find_header_field(fields, "Content-Length") == nullptr);
  CHECK(find_header_field({}, "Host") == nullptr);
}

TEST_CASE("icontains: ASCII case ignored, bytes beyond ASCII compared exactly") {
  using opentabs::icontains;
  CHECK(icontains("Upgrade, Keep-Alive", "keep-alive"));
  CHECK(icontains("CLOSE", "close"));
  CHECK(icontains("close", "close"));
  CHECK(icontains("anything", ""));
  CHECK_FALSE(icontains("clos", "close"));
  CHECK_FALSE(icontains("", "close"));
  CHECK_FALSE(icontains("keep_alive", "keep-alive"));
  CHECK(icontains("x\xc3\x89y", "\xc3\x89"));
  CHECK_FALSE(icontains("x\xc3\x89y", "\xc3\xa9"));  // É is not é: only A–Z fold
}

TEST_CASE("part_reader gives the parts split() gives, without a vector") {
  auto parts = [](std::string_view s, char sep) {
    std::vector<std::string_view> out;
    opentabs::part_reader r(s, sep);
    for (std::string_view p; r.next(p);) out.push_back(p);
    return out;
  };
  for (std::string_view s : {"", ",", "a", "a,b", "a,,b", ",a,", "application/json, text/event-stream"})
    CHECK(parts(s, ',') == opentabs::split(s, ','));
  CHECK(parts("a;q=0", ';') == std::vector<std::string_view>{"a", "q=0"});
}
