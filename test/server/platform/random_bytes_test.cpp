// Tests for the OS random source: it fills what it is asked to, and two draws differ.
#include "platform/random_bytes.hpp"

#include <doctest/doctest.h>

#include <array>
#include <vector>

#include "platform/temp_name.hpp"

using namespace opentabs::platform;

TEST_CASE("fill_random fills small and large requests, and two draws differ") {
  std::array<unsigned char, 32> a{}, b{};
  fill_random(a.data(), a.size());
  fill_random(b.data(), b.size());
  CHECK(a != b);  // equal with probability 2^-256
  std::vector<unsigned char> big(1 << 20, 0);
  fill_random(big.data(), big.size());
  std::size_t zeros = 0;
  for (auto x : big) zeros += x == 0;
  CHECK(zeros < big.size() / 128);  // about 1/256 of the bytes are zero
  fill_random(nullptr, 0);
}

TEST_CASE("temp names sit beside their target and differ per call") {
  auto t1 = temp_name_beside("/d/config.json");
  auto t2 = temp_name_beside("/d/config.json");
  CHECK(t1.parent_path() == std::filesystem::path("/d"));
  CHECK(t1.filename().string().find("config.json.tmp.") == 0);
  CHECK(t1 != t2);
}
