// The "ask" permission flow (spec §3.8): a call waits for the user's decision in the side
// panel.  Each waiting call has a record here; confirmation.response settles it; when the
// last extension connection goes away every waiting call is settled as "disconnected".
// There is no timeout (the original waits indefinitely), but the MCP client can cancel.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "net/asio.hpp"

namespace opentabs::app {

enum class decision { allow, allow_always, deny, disconnected, cancelled, shutdown };

class confirmations {
 public:
  explicit confirmations(asio::any_io_executor ex) : ex_(ex) {}

  // Waits for the decision on `id` (the caller already broadcast confirmation.request).
  // `cancel_hook`, when given, is set to a function that settles the wait as cancelled.
  net::awaitable<decision> wait(const std::string& id, std::function<void()>* cancel_hook);
  // confirmation.response: false for unknown or already-settled ids.
  bool settle(const std::string& id, decision d);
  // Every waiting confirmation gets `d` (last connection gone, shutdown).
  void settle_all(decision d);
  std::size_t waiting() const { return pending_.size(); }

 private:
  struct record {
    explicit record(asio::any_io_executor ex) : timer(ex) {}
    asio::steady_timer timer;
    std::optional<decision> outcome;
  };
  asio::any_io_executor ex_;
  std::map<std::string, std::shared_ptr<record>> pending_;
};

}  // namespace opentabs::app
