#include "util/clock.hpp"

#include <cstdio>
#include <ctime>

namespace opentabs {

std::int64_t now_epoch_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

std::string iso8601_utc(std::chrono::system_clock::time_point t) {
  using namespace std::chrono;
  auto ms = duration_cast<milliseconds>(t.time_since_epoch()).count();
  std::time_t secs = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[96];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms % 1000));
  return buf;
}

std::string iso8601_now() { return iso8601_utc(std::chrono::system_clock::now()); }

std::int64_t parse_iso8601_ms(const std::string& s) {
  int y, mo, d, h, mi, sec, ms = 0;
  if (std::sscanf(s.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d", &y, &mo, &d, &h, &mi, &sec) != 6) return -1;
  auto dot = s.find('.');
  if (dot != std::string::npos) std::sscanf(s.c_str() + dot + 1, "%3d", &ms);
  std::tm tm{};
  tm.tm_year = y - 1900;
  tm.tm_mon = mo - 1;
  tm.tm_mday = d;
  tm.tm_hour = h;
  tm.tm_min = mi;
  tm.tm_sec = sec;
  std::time_t t = timegm(&tm);
  if (t == static_cast<std::time_t>(-1)) return -1;
  return static_cast<std::int64_t>(t) * 1000 + ms;
}

}  // namespace opentabs
