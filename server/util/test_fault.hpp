// Test-only fault injection.  OPENTABS_TEST_FAULT="<kind>:<target>[,<kind>:<target>...]"
// makes the server throw at a few named points, so the integration tests can prove that an
// exception escaping one message or one call never leaves a connection or a request half
// alive.  Unset (always, outside tests) nothing is armed and every check is a lookup in an
// empty list.  Kinds:
//   ws-handler-throw:<method>  the /ws message handler throws for that extension method
//   pipeline-throw:<tool>      the tool pipeline throws when that tool is called
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace opentabs::test_fault {

using fault_list = std::vector<std::pair<std::string, std::string>>;  // (kind, target)

// "a:b,c:d" → {(a,b),(c,d)}; entries without ':' or with an empty part are skipped.
fault_list parse(std::string_view spec);

// Whether OPENTABS_TEST_FAULT (read once) names `kind` with `target`.
bool armed(std::string_view kind, std::string_view target);

// Throws std::runtime_error("injected test fault <kind>:<target>") when armed.
void throw_if_armed(std::string_view kind, std::string_view target);

}  // namespace opentabs::test_fault
