// The "ask" permission flow (spec §3.8): a call waits for the user's decision in the side
// panel.  Each waiting call has a record here; confirmation.response settles it; when the
// last extension connection goes away every waiting call is settled as "disconnected".
// There is no timeout (the original waits indefinitely), but the MCP client can cancel.
// A question put to the user through the agent's UI as well (2026-07-28 InputRequiredResult)
// has no call waiting between its rounds: it is parked here, so that a side panel answer
// given meanwhile is kept until the client's retry collects it (whichever answers first
// decides).  Parked questions expire and are bounded per client and in all: a client over its
// share is refused with a clear error, and no question is ever dropped to make room.
#pragma once

#include <chrono>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "net/asio.hpp"
#include "net/event.hpp"
#include "tools/tool_service.hpp"
#include "util/result.hpp"

namespace opentabs::app {

enum class decision { allow, allow_always, deny, disconnected, cancelled, shutdown };

class confirmations {
 public:
  explicit confirmations(asio::any_io_executor ex) : settled_(std::move(ex)) {}

  // Waits for the decision on `id` (the caller already broadcast confirmation.request).
  // A cancel reaching `cancel` (may be null) settles the wait as cancelled.
  net::awaitable<decision> wait(const std::string& id, const std::shared_ptr<tools::cancel_source>& cancel);
  // confirmation.response: false for unknown or already-settled ids.
  bool settle(const std::string& id, decision d);
  // Every waiting confirmation gets `d` (last connection gone, shutdown).
  void settle_all(decision d);
  std::size_t waiting() const { return pending_.size(); }

  // Parks the question `id` of `client` until `expires` (a later park of the same id
  // extends it).  Refused (errc::busy, the message saying why and until when) when `client`
  // has max_parked_per_client questions parked or max_parked are parked in all.
  status park(const std::string& id, const std::string& client, std::chrono::steady_clock::time_point expires);
  // The side panel's decision on parked `id`, which is then forgotten; nullopt while it
  // has not answered (or `id` is not parked).
  std::optional<decision> take_parked(const std::string& id);
  // Forgets parked `id` (the agent's UI answered first).
  void unpark(const std::string& id) { parked_.erase(id); }
  std::size_t parked() const { return parked_.size(); }
  static constexpr std::size_t max_parked = 256;
  static constexpr std::size_t max_parked_per_client = 16;

 private:
  struct record {
    std::optional<decision> outcome;
  };
  // Notified whenever a waiting record gets its outcome; each waiter loops on its own.
  net::event settled_;
  std::map<std::string, std::shared_ptr<record>> pending_;
  struct parked_question {
    std::string client;
    std::chrono::steady_clock::time_point expires;
    std::optional<decision> outcome;
  };
  std::map<std::string, parked_question> parked_;
};

}  // namespace opentabs::app
