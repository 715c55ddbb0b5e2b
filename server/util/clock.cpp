#include "util/clock.hpp"

namespace opentabs {
namespace {

// Days since 1970-01-01 of a proleptic Gregorian date, and back (H. Hinnant's algorithms:
// eras of 400 years, March-based years so the leap day is last).
constexpr std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

struct civil_date {
  std::int64_t year;
  unsigned month, day;
};

constexpr civil_date civil_from_days(std::int64_t z) {
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const auto doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  const unsigned d = doy - (153 * mp + 2) / 5 + 1;
  const unsigned m = mp < 10 ? mp + 3 : mp - 9;
  return {static_cast<std::int64_t>(yoe) + era * 400 + (m <= 2), m, d};
}

static_assert(days_from_civil(1970, 1, 1) == 0);
static_assert(days_from_civil(2000, 3, 1) == 11017);
static_assert(civil_from_days(-1).year == 1969 && civil_from_days(-1).month == 12 && civil_from_days(-1).day == 31);

constexpr std::int64_t kDayMs = 86'400'000;

char* put_digits(char* out, std::int64_t value, int width) {
  for (int i = width - 1; i >= 0; --i) {
    out[i] = static_cast<char>('0' + value % 10);
    value /= 10;
  }
  return out + width;
}

// Reads exactly `width` digits at s[pos]; -1 when one is not a digit.
int read_digits(std::string_view s, std::size_t pos, std::size_t width) {
  if (pos + width > s.size()) return -1;
  int v = 0;
  for (std::size_t i = pos; i < pos + width; ++i) {
    if (s[i] < '0' || s[i] > '9') return -1;
    v = v * 10 + (s[i] - '0');
  }
  return v;
}

}  // namespace

std::int64_t now_epoch_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

std::string iso8601_from_epoch_ms(std::int64_t epoch_ms) {
  std::int64_t days = epoch_ms / kDayMs;
  std::int64_t in_day = epoch_ms % kDayMs;
  if (in_day < 0) {
    in_day += kDayMs;
    days -= 1;
  }
  const auto date = civil_from_days(days);
  // Years outside 0000–9999 are not ISO-8601 basic form; clamp rather than print garbage.
  const std::int64_t year = date.year < 0 ? 0 : date.year > 9999 ? 9999 : date.year;
  char buf[24];
  char* p = put_digits(buf, year, 4);
  *p++ = '-';
  p = put_digits(p, date.month, 2);
  *p++ = '-';
  p = put_digits(p, date.day, 2);
  *p++ = 'T';
  p = put_digits(p, in_day / 3'600'000, 2);
  *p++ = ':';
  p = put_digits(p, in_day / 60'000 % 60, 2);
  *p++ = ':';
  p = put_digits(p, in_day / 1000 % 60, 2);
  *p++ = '.';
  p = put_digits(p, in_day % 1000, 3);
  *p++ = 'Z';
  return std::string(buf, p);
}

std::string iso8601_utc(std::chrono::system_clock::time_point t) {
  using namespace std::chrono;
  return iso8601_from_epoch_ms(duration_cast<milliseconds>(t.time_since_epoch()).count());
}

std::string iso8601_now() { return iso8601_utc(std::chrono::system_clock::now()); }

std::int64_t parse_iso8601_ms(std::string_view s) {
  const int y = read_digits(s, 0, 4), mo = read_digits(s, 5, 2), d = read_digits(s, 8, 2);
  const int h = read_digits(s, 11, 2), mi = read_digits(s, 14, 2), sec = read_digits(s, 17, 2);
  if (y < 0 || mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 60)
    return -1;
  if (s[4] != '-' || s[7] != '-' || (s[10] != 'T' && s[10] != 't' && s[10] != ' ') || s[13] != ':' || s[16] != ':')
    return -1;
  std::size_t pos = 19;
  int ms = 0;
  if (pos < s.size() && s[pos] == '.') {
    std::size_t digits = 0;
    while (pos + 1 + digits < s.size() && s[pos + 1 + digits] >= '0' && s[pos + 1 + digits] <= '9') ++digits;
    if (digits == 0) return -1;
    // Milliseconds are the first three digits; "5" is 500 ms, further digits are dropped.
    for (std::size_t i = 0; i < 3; ++i) ms = ms * 10 + (i < digits ? s[pos + 1 + i] - '0' : 0);
    pos += 1 + digits;
  }
  std::int64_t offset_ms = 0;
  if (pos < s.size() && (s[pos] == 'Z' || s[pos] == 'z')) {
    ++pos;
  } else if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
    // "+HH:MM" / "-HH:MM": local time that far from UTC.
    const int oh = read_digits(s, pos + 1, 2), om = read_digits(s, pos + 4, 2);
    if (oh < 0 || oh > 23 || om < 0 || om > 59 || s[pos + 3] != ':') return -1;
    offset_ms = (oh * 60LL + om) * 60'000 * (s[pos] == '+' ? 1 : -1);
    pos += 6;
  }
  if (pos != s.size()) return -1;
  return days_from_civil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d)) * kDayMs +
         ((h * 60LL + mi) * 60 + sec) * 1000 + ms - offset_ms;
}

}  // namespace opentabs
