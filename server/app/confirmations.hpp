// The "ask" permission questions (spec §3.8) and the one decision each gets.  A question is
// put to the side panel and, when the client can show a form, to the agent's own dialog; the
// first answer decides, and every later one loses: answer() says so (with what had been
// decided, and by whom, for the loser to be told) and records the lost answer in the audit
// log.  Decided questions are remembered for a while (remember_decided_for, at most
// max_remembered) so that a late answer — a "Deny" in the agent's dialog clicked after the
// side panel allowed — is told, not silently dropped.
//
// A call waiting for the decision opens its question (open) and waits (wait); when the last
// extension connection goes away every waiting call is settled as "disconnected".  There is
// no timeout (the original waits indefinitely), but the caller can cancel.  A question put
// through the agent's UI as a 2026-07-28 InputRequiredResult has no call waiting between its
// rounds: it is parked until the client's retry collects the decision.
//
// Open questions (waiting and parked) are bounded per caller — the identity the transport
// vouches for (its credential and name, or its session), never a name a client picks alone —
// and in all: a caller over its share is refused with a clear error, and no question is
// ever dropped to make room.  Runs on the io thread.
#pragma once

#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "audit/audit_log.hpp"
#include "audit/decided_by.hpp"
#include "net/asio.hpp"
#include "net/event.hpp"
#include "tools/tool_service.hpp"
#include "util/result.hpp"

namespace opentabs::app {

enum class decision { allow, allow_always, deny, disconnected, cancelled, shutdown };

// A decision and who made it.
struct verdict {
  decision what = decision::cancelled;
  audit::decided_by by = audit::decided_by::cancelled;
};

// What a question is about: whose budget it spends, and the tool a lost answer is audited for.
struct question_about {
  std::string caller;  // the caller's identity (tools::call_options::caller)
  std::string tool;
  std::string plugin;
};

// What became of one answer.
struct answer_outcome {
  enum class kind { decided, lost, unknown } what = kind::unknown;
  std::optional<verdict> winner;  // lost: what had been decided before
  std::string notice;             // lost: what the loser is told (also the audit message)
  bool decided() const { return what == kind::decided; }
  bool lost() const { return what == kind::lost; }
};

// The answers people give, as the agent's form names them: "allow_once", "always_allow", "deny".
std::string_view answer_name(decision d);
// "allowed once", "denied", "ended: the extension disconnected", … for people.
std::string decision_words(decision d);
// "the OpenTabs side panel", "the agent's dialog", …
std::string_view asker_words(audit::decided_by by);

class confirmations {
 public:
  confirmations(asio::any_io_executor ex, audit::audit_log& audit) : settled_(std::move(ex)), audit_(audit) {}

  // Opens question `id` for a call that will wait(); refused (errc::busy, saying why) when
  // the caller has max_open_per_caller questions open or max_open are open in all.
  status open(const std::string& id, question_about about);
  // Waits for the verdict on opened `id`; a cancel reaching `cancel` (may be null) settles
  // it as cancelled.  The question is then closed and remembered as decided.
  net::awaitable<verdict> wait(const std::string& id, const std::shared_ptr<tools::cancel_source>& cancel);
  // Parks question `id` until `expires` (a later park of the same id extends it); refused
  // as open() is.
  status park(const std::string& id, question_about about, std::chrono::steady_clock::time_point expires);

  // An answer to `id` from `by`.  The first answer to an open question decides it; an answer
  // to a question already decided (open or remembered) loses, and is audited as such.
  answer_outcome answer(const std::string& id, decision d, audit::decided_by by);
  // The verdict on parked `id` once it has one (the question is then closed and remembered);
  // nullopt while it has none, or when `id` is not parked.
  std::optional<verdict> take_parked(const std::string& id);
  // Closes `id` without a verdict (it went unanswered, or was never put to anyone).
  void forget(const std::string& id) { open_.erase(id); }
  // Every waiting call gets `v` (last connection gone, shutdown).
  void settle_all(verdict v);

  std::size_t waiting() const;
  std::size_t parked() const { return open_.size() - waiting(); }
  // The ids of the open questions, oldest first by id order (for tests and diagnostics).
  std::vector<std::string> open_ids() const;

  static constexpr std::size_t max_open = 256;
  static constexpr std::size_t max_open_per_caller = 16;
  static constexpr std::size_t max_remembered = 1024;
  static constexpr std::chrono::minutes remember_decided_for{10};

 private:
  struct question {
    question_about about;
    bool parked = false;
    std::chrono::steady_clock::time_point expires = std::chrono::steady_clock::time_point::max();
    std::optional<verdict> outcome;
  };
  struct decided_question {
    std::string id;
    question_about about;
    verdict outcome;
    std::chrono::steady_clock::time_point until;
  };
  status admit(const question_about& about, std::chrono::steady_clock::time_point now,
               std::chrono::steady_clock::time_point expires);
  void remember(const std::string& id, question q);
  answer_outcome lose(const std::string& id, const question_about& about, verdict winner, decision d, audit::decided_by by);

  // Notified whenever a waiting question gets its outcome; each waiter loops on its own.
  net::event settled_;
  audit::audit_log& audit_;
  std::map<std::string, question> open_;
  std::deque<decided_question> decided_;  // oldest first
};

}  // namespace opentabs::app
