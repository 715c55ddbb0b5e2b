// The OpenTabs side panel as one of the askers of a permission question (spec §3.8): the
// extension's confirmation.* frames, built here and nowhere else.  The question goes to every
// extension connection (each profile's side panel shows it); its answer comes back as
// confirmation.response and goes to confirmations::answer.  The side panel is told when a
// question needs no answer any more, when its own click came too late, and when the agent's
// dialog turned a tool to auto.  Frames this extension added (confirmation.settled,
// confirmation.alwaysAllowed) are dropped by the original extension's allow-list, so they
// are safe to send to it.  Nothing is sent while no extension is connected.
#pragma once

#include <string>

#include "app/confirmations.hpp"
#include "app/extension_hub.hpp"
#include "audit/decided_by.hpp"
#include "json/json.hpp"
#include "tools/tool.hpp"

namespace opentabs::app {

class side_panel_asker {
 public:
  explicit side_panel_asker(extension_hub& hub) : hub_(hub) {}

  // Whether a side panel can be asked (an extension is connected).
  bool available() const;
  // confirmation.request: the tool, where it acts and its arguments rendered as in the
  // agent's dialog (whole, secrets redacted).
  void ask(const std::string& id, const tools::tool_def& tool, const json::object& args, const std::string& where);
  // confirmation.settled: question `id` was decided (or ended) by `by`; the entry goes.
  void settled(const std::string& id, audit::decided_by by);
  // confirmation.settled for a side panel click that lost to an earlier answer: who decided,
  // and the notice ("notUsed") saying the click was not used.
  void not_used(const std::string& id, const answer_outcome& lost);
  // confirmation.alwaysAllowed: "always allow" in the agent's dialog set `tool` to auto; the
  // side panel shows a notice naming it and how to undo it.
  void always_allowed(const tools::tool_def& tool);

 private:
  extension_hub& hub_;
};

}  // namespace opentabs::app
