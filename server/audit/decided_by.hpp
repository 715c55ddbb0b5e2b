// Who decided a permission question (spec §3.8), in one table of names: the audit entry's
// "decidedBy" and "lostAnswer.by", and the side panel's confirmation.settled "decidedBy",
// all speak it.  The first two are the people's answers (the side panel, the agent's own
// dialog: a 2025-11-25 elicitation/create or a 2026-07-28 InputRequiredResult retry); the
// rest say why a question ended without one.
#pragma once

#include <array>
#include <optional>
#include <string_view>
#include <utility>

namespace opentabs::audit {

enum class decided_by {
  side_panel,    // the OpenTabs side panel's Allow / Always allow / Deny
  elicitation,   // the agent's own dialog (elicitation/create or inputResponses)
  cancelled,     // the caller cancelled the call
  disconnected,  // the last extension connection went away and nobody else could answer
  shutdown,      // the server is shutting down
  unanswered,    // the agent's dialog was asked its rounds and never answered
};

inline constexpr std::array<std::pair<decided_by, std::string_view>, 6> decided_by_names{{
    {decided_by::side_panel, "side_panel"},
    {decided_by::elicitation, "elicitation"},
    {decided_by::cancelled, "cancelled"},
    {decided_by::disconnected, "disconnected"},
    {decided_by::shutdown, "shutdown"},
    {decided_by::unanswered, "unanswered"},
}};

constexpr std::string_view to_string(decided_by d) {
  for (const auto& [value, name] : decided_by_names)
    if (value == d) return name;
  return "cancelled";
}

constexpr std::optional<decided_by> decided_by_from(std::string_view name) {
  for (const auto& [value, n] : decided_by_names)
    if (n == name) return value;
  return std::nullopt;
}

// Whether `d` is a person's answer (as opposed to the call ending without one).
constexpr bool is_person(decided_by d) { return d == decided_by::side_panel || d == decided_by::elicitation; }

}  // namespace opentabs::audit
