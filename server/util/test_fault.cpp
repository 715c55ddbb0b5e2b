#include "util/test_fault.hpp"

#include <cstdlib>
#include <stdexcept>

namespace opentabs::test_fault {

namespace {

const fault_list& from_env() {
  static const fault_list faults = [] {
    const char* v = std::getenv("OPENTABS_TEST_FAULT");
    return v ? parse(v) : fault_list{};
  }();
  return faults;
}

}  // namespace

fault_list parse(std::string_view spec) {
  fault_list out;
  while (!spec.empty()) {
    auto comma = spec.find(',');
    std::string_view item = spec.substr(0, comma);
    spec = comma == std::string_view::npos ? std::string_view{} : spec.substr(comma + 1);
    auto colon = item.find(':');
    if (colon == std::string_view::npos || colon == 0 || colon + 1 == item.size()) continue;
    out.emplace_back(std::string(item.substr(0, colon)), std::string(item.substr(colon + 1)));
  }
  return out;
}

bool armed(std::string_view kind, std::string_view target) {
  for (const auto& [k, t] : from_env())
    if (k == kind && t == target) return true;
  return false;
}

void throw_if_armed(std::string_view kind, std::string_view target) {
  if (armed(kind, target))
    throw std::runtime_error("injected test fault " + std::string(kind) + ":" + std::string(target));
}

}  // namespace opentabs::test_fault
