// A browser extension as the hub sees one, without a socket: attached to an
// extension_hub, it keeps every frame the hub sends it, answers requests when the test
// says so, and records how the hub closed it.  For tests of the hub and of what sits on it.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/extension_hub.hpp"
#include "json/json.hpp"

namespace opentabs::app::testing {

// The hub's connection_listener in tests: the ids of the connections opened and closed, in
// order.  Declared before the hub it is given to.
struct connection_log final : connection_listener {
  std::vector<std::string> opened, closed;
  void connection_opened(ext_connection& c) override { opened.push_back(c.id); }
  void connection_closed(const std::string& id) override { closed.push_back(id); }
};

class fake_extension {
 public:
  fake_extension(extension_hub& hub, std::string connection_id) : hub_(hub) {
    connection_ = hub_.attach(
        std::move(connection_id),
        [this](std::string_view text) {
          frames.emplace_back(text);
          return true;
        },
        [this](std::uint16_t code, std::string_view) { close_code = code; });
  }
  ~fake_extension() { detach(); }
  fake_extension(const fake_extension&) = delete;
  fake_extension& operator=(const fake_extension&) = delete;

  // Ends the connection as a closed socket would.
  void detach() {
    if (connection_) hub_.detach(connection_);
    connection_.reset();
  }
  ext_connection* connection() const { return connection_.get(); }

  // The frames received with a "method" (requests and notifications), parsed.
  std::vector<json::object> calls(std::string_view method) const {
    std::vector<json::object> out;
    for (const auto& f : frames) {
      auto parsed = json::parse_object(f);
      REQUIRE(parsed);
      if (const auto* m = json::get_string(*parsed, "method"); m && *m == method) out.push_back(std::move(*parsed));
    }
    return out;
  }
  // Answers request `request` with `result`, as the extension would.
  bool reply(const json::object& request, json::value result) {
    json::object answer{{"jsonrpc", "2.0"}, {"id", request.at("id")}, {"result", std::move(result)}};
    return hub_.receive(*connection_, json::dump(answer));
  }
  bool reply_error(const json::object& request, std::int64_t code, std::string message) {
    json::object error{{"code", code}, {"message", json::str(message)}};
    json::object answer{{"jsonrpc", "2.0"}, {"id", request.at("id")}, {"error", std::move(error)}};
    return hub_.receive(*connection_, json::dump(answer));
  }

  std::vector<std::string> frames;
  std::optional<std::uint16_t> close_code;

 private:
  extension_hub& hub_;
  std::shared_ptr<ext_connection> connection_;
};

}  // namespace opentabs::app::testing
