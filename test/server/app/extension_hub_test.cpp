// The extension hub over fake extension connections: attach and detach, a request and its
// reply (also a JSON-RPC error), the request timeout, a cancel, a second extension (own
// routing) and a same-profile reconnect replacing the first.
#include "app/extension_hub.hpp"

#include <doctest/doctest.h>

#include <optional>
#include <string>

#include "app/extension_wire.hpp"
#include "drive_io.hpp"
#include "fake_extension.hpp"

using namespace opentabs;
using namespace opentabs::app;
using opentabs::app::testing::fake_extension;

namespace {

struct hub_fixture {
  explicit hub_fixture(dispatch_timing timing = {}) : hub(io.get_executor(), timing, connections) {
    hub.set_reconnect_wait(std::chrono::milliseconds(0));
  }

  void start(std::string method, json::object params, request_options options, std::optional<ext_reply>& out) {
    opentabs::testing::spawn_into(io, hub.request(std::move(method), std::move(params), std::move(options)), out);
  }
  template <class Done>
  void run_until(Done done) { opentabs::testing::run_until(io, done); }

  asio::io_context io;
  opentabs::app::testing::connection_log connections;
  extension_hub hub;
};

}  // namespace

TEST_CASE("attach registers a connection and tells the listener; detach forgets it and tells the listener") {
  hub_fixture f;
  CHECK_FALSE(f.hub.connected());
  {
    fake_extension ext(f.hub, "profile-1");
    REQUIRE(ext.connection() != nullptr);
    CHECK(f.hub.connected());
    CHECK(f.hub.connection_count() == 1);
    CHECK(f.hub.find("profile-1") == ext.connection());
    CHECK(f.connections.opened == std::vector<std::string>{"profile-1"});
    f.hub.broadcast(json::object{{"jsonrpc", "2.0"}, {"method", "sync.test"}});
    CHECK(ext.calls("sync.test").size() == 1);
  }
  CHECK_FALSE(f.hub.connected());
  CHECK(f.connections.closed == std::vector<std::string>{"profile-1"});
}

TEST_CASE("a request goes out as one frame with its dispatch id and comes back with the reply") {
  hub_fixture f;
  fake_extension ext(f.hub, "p");
  std::optional<ext_reply> out;
  f.start("browser.listTabs", json::object{{"all", true}}, {}, out);
  f.run_until([&] { return !ext.calls("browser.listTabs").empty(); });
  auto request = ext.calls("browser.listTabs").front();
  const auto& params = request.at("params").as_object();
  CHECK(params.at("all").as_bool());
  CHECK(params.at(kDispatchIdKey) == request.at("id"));
  CHECK_FALSE(out.has_value());

  CHECK(ext.reply(request, json::array{1, 2}));
  f.run_until([&] { return out.has_value(); });
  CHECK(out->ok());
  CHECK(json::dump(out->result) == "[1,2]");

  std::optional<ext_reply> refused;
  f.start("browser.listTabs", {}, {}, refused);
  f.run_until([&] { return ext.calls("browser.listTabs").size() == 2; });
  CHECK(ext.reply_error(ext.calls("browser.listTabs").back(), extension_code::tab_closed, "Tab 4 is closed"));
  f.run_until([&] { return refused.has_value(); });
  CHECK(refused->outcome == ext_reply::kind::error);
  CHECK(refused->code == extension_code::tab_closed);
  CHECK(refused->message == "Tab 4 is closed");
}

TEST_CASE("an unanswered request times out; a detached connection fails its requests; a cancel ends the wait") {
  hub_fixture f(dispatch_timing{std::chrono::milliseconds(20), std::chrono::milliseconds(200)});
  auto ext = std::make_unique<fake_extension>(f.hub, "p");
  std::optional<ext_reply> timed_out;
  f.start("browser.listTabs", {}, {}, timed_out);
  f.run_until([&] { return timed_out.has_value(); });
  CHECK(timed_out->outcome == ext_reply::kind::timeout);

  auto cancel = std::make_shared<tools::cancel_source>();
  request_options cancellable;
  cancellable.cancel = cancel;
  std::optional<ext_reply> cancelled;
  f.start("browser.listTabs", {}, std::move(cancellable), cancelled);
  f.run_until([&] { return ext->calls("browser.listTabs").size() == 2; });
  cancel->cancel();
  f.run_until([&] { return cancelled.has_value(); });
  CHECK(cancelled->outcome == ext_reply::kind::cancelled);

  std::optional<ext_reply> dropped;
  f.start("browser.listTabs", {}, {}, dropped);
  f.run_until([&] { return ext->calls("browser.listTabs").size() == 3; });
  ext.reset();
  f.run_until([&] { return dropped.has_value(); });
  CHECK(dropped->outcome == ext_reply::kind::disconnected);

  std::optional<ext_reply> unsent;
  f.start("browser.listTabs", {}, {}, unsent);
  f.run_until([&] { return unsent.has_value(); });
  CHECK(unsent->outcome == ext_reply::kind::not_sent);
}

TEST_CASE("a second extension gets its own requests; a same-profile reconnect replaces the first") {
  hub_fixture f;
  fake_extension a(f.hub, "A-profile");
  fake_extension b(f.hub, "B-profile");
  CHECK(f.hub.connection_count() == 2);
  request_options to_b;
  to_b.connection_id = "B-profile";
  std::optional<ext_reply> out;
  f.start("browser.listTabs", {}, std::move(to_b), out);
  f.run_until([&] { return !b.calls("browser.listTabs").empty(); });
  CHECK(a.calls("browser.listTabs").empty());
  CHECK(b.reply(b.calls("browser.listTabs").front(), json::array{}));
  f.run_until([&] { return out.has_value(); });
  CHECK(out->ok());

  fake_extension again(f.hub, "A-profile");
  CHECK(a.close_code.has_value());
  CHECK(f.hub.connection_count() == 2);
  CHECK(f.hub.find("A-profile") == again.connection());
  a.detach();  // the replaced socket ending later must not drop its successor
  CHECK(f.hub.find("A-profile") == again.connection());
}
