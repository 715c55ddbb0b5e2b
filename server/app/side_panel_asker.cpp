#include "app/side_panel_asker.hpp"

#include "jsonrpc/jsonrpc.hpp"
#include "tools/shown_arguments.hpp"

namespace opentabs::app {

bool side_panel_asker::available() const { return hub_.connected(); }

void side_panel_asker::ask(const std::string& id, const tools::tool_def& tool, const json::object& args, const std::string& where) {
  if (!available()) return;
  // The agent's dialog shows the same: arguments whole, secrets redacted, where it acts.
  hub_.broadcast(jsonrpc::notification_object("confirmation.request", json::object{{"id", json::str(id)},
                                                                                   {"tool", json::str(tool.base_name)},
                                                                                   {"plugin", json::str(tool.plugin)},
                                                                                   {"where", json::str(where)},
                                                                                   {"params", tools::redact_arguments(args)}}));
}

void side_panel_asker::settled(const std::string& id, audit::decided_by by) {
  if (!available()) return;
  hub_.broadcast(jsonrpc::notification_object("confirmation.settled",
                                              json::object{{"id", json::str(id)}, {"decidedBy", json::str(audit::to_string(by))}}));
}

void side_panel_asker::not_used(const std::string& id, const answer_outcome& lost) {
  if (!available() || !lost.lost() || !lost.winner) return;
  hub_.broadcast(jsonrpc::notification_object(
      "confirmation.settled", json::object{{"id", json::str(id)},
                                           {"decidedBy", json::str(audit::to_string(lost.winner->by))},
                                           {"notUsed", json::str(lost.notice)}}));
}

void side_panel_asker::always_allowed(const tools::tool_def& tool) {
  if (!available()) return;
  const std::string undo = "Set it back to Ask in its card in the OpenTabs side panel, or run `opentabs config set tool-permission." +
                           tool.plugin + "." + tool.base_name + " ask`.";
  hub_.broadcast(jsonrpc::notification_object(
      "confirmation.alwaysAllowed",
      json::object{{"tool", json::str(tool.base_name)},
                   {"plugin", json::str(tool.plugin)},
                   {"permission", "auto"},
                   {"decidedBy", json::str(audit::to_string(audit::decided_by::elicitation))},
                   {"message", json::str("\"Always allow\" in the agent's dialog set " + tool.name + " to auto: it now runs without asking. " + undo)}}));
}

}  // namespace opentabs::app
