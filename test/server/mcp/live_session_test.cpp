// A live session's rules without sockets: notifications/initialized and
// notifications/cancelled, progress that must increase, and ending a session.
#include <doctest/doctest.h>

#include "mcp/live_session.hpp"

using namespace opentabs;
using namespace opentabs::mcp;

namespace {

struct fixture {
  asio::io_context io;
  session_table table{std::chrono::minutes(30), 5};
  live_session session{io.get_executor(), table.create("2025-06-18")};

  // The message views `params`, which a temporary argument keeps alive for the call
  // it is passed to.
  static jsonrpc::message note(std::string method, const json::object& params = {}) {
    jsonrpc::message m;
    m.kind = jsonrpc::message_kind::notification;
    m.method = std::move(method);
    m.params_view = &params;
    return m;
  }

  std::shared_ptr<in_flight_call> add_call(const json::value& id) {
    auto c = std::make_shared<in_flight_call>();
    session.calls.emplace(jsonrpc::id_key(id), c);
    return c;
  }
};

}  // namespace

TEST_CASE("notifications/initialized marks the session initialized") {
  fixture f;
  CHECK_FALSE(f.session.rec->initialized);
  f.session.handle_notification(fixture::note("notifications/initialized"));
  CHECK(f.session.rec->initialized);
}

TEST_CASE("notifications/cancelled cancels only the named call; malformed ones are ignored") {
  fixture f;
  auto seven = f.add_call(json::value(7));
  auto text = f.add_call(json::value("7"));
  bool hook_ran = false;
  seven->cancel->on_cancel([&] { hook_ran = true; });

  f.session.handle_notification(fixture::note("notifications/cancelled", json::object{{"requestId", "nope"}}));
  f.session.handle_notification(fixture::note("notifications/cancelled", json::object{{"reason", "no id"}}));
  CHECK_FALSE(seven->cancelled);
  CHECK_FALSE(text->cancelled);

  f.session.handle_notification(fixture::note("notifications/cancelled", json::object{{"requestId", 7}}));
  CHECK(seven->cancelled);
  CHECK(hook_ran);
  CHECK_FALSE(text->cancelled);  // "7" and 7 are different ids
}

TEST_CASE("ending a session cancels every call in flight, once") {
  fixture f;
  auto a = f.add_call(json::value(1));
  auto b = f.add_call(json::value(2));
  int hooks = 0;
  a->cancel->on_cancel([&] { ++hooks; });
  b->cancel->on_cancel([&] { ++hooks; });
  f.session.end();
  f.session.end();
  CHECK(f.session.ended);
  CHECK(a->cancelled);
  CHECK(b->cancelled);
  CHECK(hooks == 2);
}

TEST_CASE("progress is forwarded only while it increases") {
  in_flight_call c;
  c.progress_token = "tok";
  c.sink = std::make_shared<stream_sink>();  // no exchange: sends fail, the rule still applies
  c.forward_progress({1, std::nullopt, ""});
  CHECK(c.last_progress == 1);
  c.forward_progress({0.5, std::nullopt, ""});
  CHECK(c.last_progress == 1);
  c.forward_progress({2, 10.0, "half"});
  CHECK(c.last_progress == 2);
  c.cancel_now();
  c.forward_progress({3, std::nullopt, ""});
  CHECK(c.last_progress == 2);
}

TEST_CASE("with no open stream an unsolicited message is not delivered") {
  fixture f;
  f.session.standalone = std::make_shared<stream_sink>();
  f.add_call(json::value(1))->sink = std::make_shared<stream_sink>();
  CHECK_FALSE(f.session.deliver_unsolicited(R"({"jsonrpc":"2.0","method":"notifications/tools/list_changed"})", ""));
}

TEST_CASE("an answer to a withdrawn request still reaches its asker, whose notice is what the client is told") {
  fixture f;
  int answered = 0;
  const auto key = jsonrpc::id_key(json::str("opentabs-1"));
  f.session.awaiting_answers.emplace(key, [&answered](const json::value* result) {
    ++answered;
    return result ? std::string("not used: decided elsewhere") : std::string();
  });
  stream_sink closed;  // the call's stream already ended: the withdrawal is not sent, the rule still applies
  f.session.withdraw_request(closed, "opentabs-1", "Already decided in the OpenTabs side panel: allowed once");
  CHECK(f.session.awaiting_answers.empty());
  const json::value response = json::parse(R"({"jsonrpc":"2.0","id":"opentabs-1","result":{"action":"accept"}})").value();
  jsonrpc::message m;
  m.kind = jsonrpc::message_kind::response;
  m.id = json::str("opentabs-1");
  CHECK(f.session.handle_response(m, response) == "not used: decided elsewhere");
  CHECK(answered == 1);
  // Once: a second copy of the answer reaches nobody.
  CHECK(f.session.handle_response(m, response).empty());
  CHECK(answered == 1);
}

TEST_CASE("withdrawn requests are remembered in a bounded set, the oldest forgotten first") {
  fixture f;
  stream_sink closed;
  for (std::size_t i = 0; i <= live_session::max_withdrawn_answers; ++i) {
    auto id = "opentabs-" + std::to_string(i);
    f.session.awaiting_answers.emplace(jsonrpc::id_key(json::str(id)), [](const json::value*) { return std::string("late"); });
    f.session.withdraw_request(closed, id, "decided");
  }
  CHECK(f.session.withdrawn_answers.size() == live_session::max_withdrawn_answers);
  jsonrpc::message m;
  m.kind = jsonrpc::message_kind::response;
  m.id = json::str("opentabs-0");
  const json::value response = json::parse(R"({"jsonrpc":"2.0","id":"opentabs-0","result":{}})").value();
  CHECK(f.session.handle_response(m, response).empty());
  m.id = json::str("opentabs-1");
  CHECK(f.session.handle_response(m, response) == "late");
}
