// Shared by the fuzz targets: whether a parsed JSON value holds a number beyond the double
// range.  json::parse turns such numbers into ±infinity and json::dump then writes
// `Infinity`, which is not JSON — a known defect reported to the json module's owner
// (reproducers in test/fuzz/regressions/json and regressions/config).  Targets skip their
// round-trip checks for these inputs, so the fuzzer keeps looking for other failures.
#pragma once
#include <cmath>

#include "json/json.hpp"

namespace opentabs::fuzz {

inline bool has_non_finite(const json::value& v) {
  if (v.is_double()) return !std::isfinite(v.get_double());
  if (const auto* a = v.if_array()) {
    for (const auto& e : *a)
      if (has_non_finite(e)) return true;
  }
  if (const auto* o = v.if_object()) {
    for (const auto& kv : *o)
      if (has_non_finite(kv.value())) return true;
  }
  return false;
}

}  // namespace opentabs::fuzz
