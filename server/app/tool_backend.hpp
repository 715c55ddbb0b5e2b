// What serves the calls of one kind of tool (plugin, browser, platform, WebMCP) once the
// tool pipeline admitted them, and the table of the four that the pipeline is built with.
// The pipeline owns what every call shares (lookup, permission gate, validation,
// confirmation, audit); a backend owns what differs by kind: which arguments address the
// browser rather than the tool, how a validator is found when the registry holds none,
// how arguments are checked, and the dispatch itself.  Adding a kind is one backend and
// one table slot.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "audit/audit_entry.hpp"
#include "json/json.hpp"
#include "net/asio.hpp"
#include "schema/validator.hpp"
#include "tools/tool.hpp"
#include "tools/tool_service.hpp"
#include "util/result.hpp"

namespace opentabs::app {

class extension_hub;

// The platform arguments of a plugin call (spec §3.7): the server's business, taken out of
// the arguments before validation.
struct call_target {
  std::optional<std::int64_t> tab_id;  // positive when given
  std::string instance;                // empty when not given
};

// A call that passed the gate: validated arguments, where it goes, and the audit entry a
// backend may add its failure detail to (the pipeline records it).  It lives in the
// pipeline's coroutine frame for the whole dispatch; backends take it by reference and may
// move the arguments out.
struct admitted_call {
  const tools::tool_def& tool;
  json::object args;
  call_target target;
  tools::call_options& options;
  audit::audit_entry& audit;
};

class tool_backend {
 public:
  virtual ~tool_backend() = default;

  // False for tools that are how permissions get granted (platform tools): no permission
  // gate, no validation by the pipeline, no audit — the call goes straight to dispatch.
  virtual bool behind_gate() const { return true; }
  // Runs after admit and before the call is confirmed and dispatched: what the backend
  // waits for before a call can go out.  A backend whose calls go to the browser waits a
  // bounded time for an extension expected back (wait_for_expected_extension); by default
  // nothing is waited for.
  virtual net::awaitable<void> await_ready(const tools::tool_def& tool);
  // Moves the platform arguments out of `args`; by default a kind has none.
  virtual call_target take_target(json::object& args) const;
  // The validator of a tool whose registry entry has none.  Errors carry the caller's
  // text; code not_found when the tool has gone meanwhile.
  virtual net::awaitable<result<std::shared_ptr<const schema::validator>>> validator_for(const tools::tool_def& tool);
  // The arguments checked against the tool's schema; the error text is the caller's.
  virtual status check_arguments(const schema::validator& validator, const tools::tool_def& tool,
                                 const json::object& args) const;

  virtual net::awaitable<tools::call_result> dispatch(admitted_call& call) = 0;
  // The last session of MCP client `client` ended (tools::tool_service::client_ended).
  virtual void client_ended(std::string_view /*client*/) {}
};

// One backend per tool kind; they outlive the pipeline.
struct tool_backends {
  tool_backend& plugin;
  tool_backend& browser;
  tool_backend& platform;
  tool_backend& webmcp;

  tool_backend& for_kind(tools::tool_kind kind) const;
};

// Why a call that needs the browser failed when no extension is connected, and what to do.
std::string extension_not_connected_text(const extension_hub& hub);

// Right after the server starts or the extension drops, the extension is about to
// (re)connect (extension_hub::extension_expected): a call of `tool` that needs it waits up
// to the hub's reconnect_wait instead of failing at once, and says so in the log.
// `tabs_too`: within the same wait, also until a connection reported its tabs.
net::awaitable<void> wait_for_expected_extension(extension_hub& hub, const tools::tool_def& tool, bool tabs_too);

}  // namespace opentabs::app
