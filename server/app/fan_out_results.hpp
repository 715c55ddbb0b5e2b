// How the answers of every connected browser profile to a ★ (fan-out) browser tool become
// one result (spec §5).  Lists (browser_list_tabs, ...) are concatenated with a connectionId
// on each entry.  The two diagnostics keep the original server's shapes:
//   extension_get_state → {connections:[{connectionId, ...state}]}
//   extension_get_logs  → {entries:[... each with connectionId, newest first],
//                          stats:{totalBackground, totalOffscreen, bufferSize}}
// with per-connection detail as an addition: a profile that failed appears as
// {connectionId, error} (the original leaves it out silently), and extension_get_logs adds
// connections:[{connectionId, stats} | {connectionId, error}].
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "app/dispatch_table.hpp"
#include "json/json.hpp"

namespace opentabs::app {

struct profile_answer {
  std::string connection_id;
  ext_reply reply;
};

// The merged value (callers handle "every profile failed" before calling).
json::value merge_fan_out(std::string_view tool_name, const std::vector<profile_answer>& answers);

}  // namespace opentabs::app
