// The askers of the approvals seam: how a permission question of an `ask` tool
// reaches the agent's own dialog, whatever the wire.  The transport gives the pipeline at
// most one asker with the call (call_options::dialog or call_options::round_trip); the app's
// approvals put the question to it and to the side panel, and the first answer decides.
//   - dialog_asker: the question is shown while the call waits, and the answer comes back on
//     the same call (MCP 2025-11-25 elicitation/create, or a task's inputRequests).
//   - round_trip_asker: the call ends with an input request, and the client's retry of the
//     call brings the answer (MCP 2026-07-28 InputRequiredResult and requestState).
// Both live in server/mcp; nothing here knows a wire.  Runs on the io thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "json/json.hpp"
#include "tools/tool.hpp"
#include "util/result.hpp"

namespace opentabs::tools {

// One permission question: the tool, its arguments as they will run, where it acts (for
// people), and the digest of the arguments as sent (what a round trip's answer is bound to;
// "" when no round_trip_asker asks).
struct permission_question {
  const tool_def& tool;
  const json::object& args;
  std::string where;
  std::string digest;
};

// What a person chose in the agent's dialog (unanswered: nothing usable came back).
enum class permission_answer { allow_once, always_allow, deny, unanswered };

// A digest of a call's arguments as they arrive (a retry repeats the original request's
// params, so the serialisation is the same).
std::string arguments_digest(const json::object& arguments);

class dialog_asker {
 public:
  virtual ~dialog_asker() = default;
  // Gets the answer when it comes (unanswered: the client answered with an error, or the
  // call's stream or session ended), and returns what the client is to be told when its
  // answer was not used (the question was decided elsewhere first), else "".  Called for an
  // answer that arrives after the question was withdrawn, too.
  using on_answer = std::function<std::string(permission_answer)>;
  // Shows `q` in the agent's dialog; false when it could not be sent.
  virtual bool ask(const permission_question& q, on_answer answered) = 0;
  // The questions shown and not answered need no answer any more (decided elsewhere);
  // `reason` is for the person.
  virtual void withdraw(std::string_view reason) = 0;
};

class round_trip_asker {
 public:
  // What a request brings for its question: on a retry, the question it answers (`prompt`,
  // the server's id for it, and how many rounds were asked) and the answer it carries
  // (unanswered: none; an error says what is malformed).  `prompt` is "" on a first request.
  struct brought {
    std::string prompt;
    std::int64_t round = 0;
    result<permission_answer> answer = permission_answer::unanswered;
  };

  virtual ~round_trip_asker() = default;
  // What this request brings for `q`; an errc::invalid_params error when it brings what no
  // question of this server's could have asked for (a forged or stale state, answers without
  // one).
  virtual result<brought> bring(const permission_question& q) = 0;
  // The input request that ends the call, asking `q` in round `round` of question `prompt`.
  virtual json::object input_request(const permission_question& q, const std::string& prompt, std::int64_t round) = 0;
  // How long the client has to retry: the question waits for it that long.
  virtual std::chrono::milliseconds patience() const = 0;
};

}  // namespace opentabs::tools
