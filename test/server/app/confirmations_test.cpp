// Permission questions and their one decision: the first answer decides, a later one loses
// (told what won and by whom, and audited); a side panel answer given between two rounds of
// a 2026-07-28 prompt is kept for the client's retry; open questions are bounded per caller
// identity and in all, and expire when parked.
#include <doctest/doctest.h>

#include "app/confirmations.hpp"
#include "drive_io.hpp"

using namespace opentabs;
using namespace opentabs::app;
using audit::decided_by;

namespace {

auto later() { return std::chrono::steady_clock::now() + std::chrono::minutes(10); }
question_about about(std::string caller) { return question_about{std::move(caller), "demo_echo", "demo"}; }

struct fixture {
  asio::io_context io;
  audit::audit_log log{audit::audit_log_options{}};
  confirmations c{io.get_executor(), log};
  std::vector<audit::audit_entry> audits() const { return log.query(audit::audit_query{}); }
};

}  // namespace

TEST_CASE("a side panel answer to a parked question waits for the retry, once") {
  fixture f;
  REQUIRE(f.c.park("q1", about("client"), later()));
  CHECK_FALSE(f.c.take_parked("q1"));  // nobody answered yet; still parked
  CHECK(f.c.answer("q1", decision::deny, decided_by::side_panel).decided());
  auto d = f.c.take_parked("q1");
  REQUIRE(d);
  CHECK(d->what == decision::deny);
  CHECK(d->by == decided_by::side_panel);
  CHECK_FALSE(f.c.take_parked("q1"));
  CHECK(f.c.parked() == 0);
}

TEST_CASE("one decision per question: a later answer loses, is told what won and by whom, and is audited as not used") {
  fixture f;
  REQUIRE(f.c.park("q1", about("client"), later()));
  REQUIRE(f.c.answer("q1", decision::allow, decided_by::side_panel).decided());
  // Still parked (the retry has not collected it): the agent's "deny" loses.
  auto lost = f.c.answer("q1", decision::deny, decided_by::elicitation);
  REQUIRE(lost.lost());
  CHECK(lost.winner->what == decision::allow);
  CHECK(lost.winner->by == decided_by::side_panel);
  CHECK(lost.notice ==
        "Your answer in the agent's dialog (deny) was not used: the OpenTabs side panel had already decided (allowed once), and that "
        "decision took effect.");
  // Collected by the retry, it is still remembered: an answer after that loses too.
  REQUIRE(f.c.take_parked("q1"));
  auto later_still = f.c.answer("q1", decision::allow_always, decided_by::elicitation);
  REQUIRE(later_still.lost());
  auto entries = f.audits();
  REQUIRE(entries.size() == 2);
  CHECK(entries[0].decided_by == decided_by::side_panel);
  REQUIRE(entries[0].lost);
  CHECK(entries[0].lost->by == decided_by::elicitation);
  CHECK(entries[0].lost->decision == "always_allow");
  CHECK(entries[0].error->code == "ANSWER_NOT_USED");
  CHECK(entries[1].lost->decision == "deny");
  CHECK(f.log.summary(0).all.total == 0);  // answers that lost are not invocations
  // A cancel after the decision is no news to anyone and writes nothing.
  CHECK(f.c.answer("q1", decision::cancelled, decided_by::cancelled).lost());
  CHECK(f.audits().size() == 2);
  // A question nobody opened is unknown.
  CHECK(f.c.answer("never", decision::allow, decided_by::side_panel).what == answer_outcome::kind::unknown);
}

TEST_CASE("a waiting call gets the first answer; the agent's late answer after the call ended is told it was not used") {
  fixture f;
  REQUIRE(f.c.open("w1", about("session a")));
  std::optional<verdict> got;
  const std::string id = "w1";  // wait() holds it by reference
  testing::spawn_into(f.io, f.c.wait(id, nullptr), got);
  CHECK(f.c.waiting() == 1);
  CHECK(f.c.answer("w1", decision::allow, decided_by::side_panel).decided());
  testing::run_until(f.io, [&] { return got.has_value(); });
  CHECK(got->by == decided_by::side_panel);
  CHECK(f.c.waiting() == 0);
  auto late = f.c.answer("w1", decision::deny, decided_by::elicitation);
  REQUIRE(late.lost());
  CHECK(late.notice.find("the OpenTabs side panel had already decided (allowed once)") != std::string::npos);
}

TEST_CASE("expired parked questions free their caller's budget at the next admission; a decided one still tells a late answer") {
  fixture f;
  const auto past = std::chrono::steady_clock::now() - std::chrono::seconds(1);
  REQUIRE(f.c.park("decided", about("caller"), later()));
  REQUIRE(f.c.answer("decided", decision::allow, decided_by::side_panel).decided());
  for (std::size_t i = 1; i < confirmations::max_open_per_caller; ++i) REQUIRE(f.c.park("q" + std::to_string(i), about("caller"), past));
  // The 15 expired ones are gone at the next admission; the decided one still counts (not expired).
  REQUIRE(f.c.park("fresh", about("caller"), later()));
  CHECK(f.c.parked() == 2);
  CHECK(f.c.answer("decided", decision::deny, decided_by::elicitation).lost());
}

TEST_CASE("forget closes a question that went unanswered; an expired parked question takes no answer") {
  fixture f;
  REQUIRE(f.c.park("q1", about("client"), later()));
  f.c.forget("q1");
  CHECK(f.c.answer("q1", decision::allow, decided_by::side_panel).what == answer_outcome::kind::unknown);
  REQUIRE(f.c.park("old", about("client"), std::chrono::steady_clock::now() - std::chrono::seconds(1)));
  CHECK_FALSE(f.c.answer("old", decision::allow, decided_by::side_panel).decided());
}

TEST_CASE("open questions are bounded per caller identity: a flooding caller is refused, nobody else's question is dropped") {
  fixture f;
  auto base = later();
  REQUIRE(f.c.park("mine", about("mcp proof A\nclaude-code"), base));
  // A second client calling itself claude-code, with its own credential: its own budget.
  for (std::size_t i = 0; i < confirmations::max_open_per_caller; ++i)
    REQUIRE(f.c.park("flood" + std::to_string(i), about("mcp proof B\nclaude-code"), base + std::chrono::seconds(i)));
  auto refused = f.c.park("flood-more", about("mcp proof B\nclaude-code"), base);
  REQUIRE_FALSE(refused);
  CHECK(refused.err().is(errc::busy));
  CHECK(refused.err().message.find("permission questions of this client are waiting") != std::string::npos);
  // Waiting calls spend the same budget (the side panel's question count).
  CHECK_FALSE(f.c.open("flood-wait", about("mcp proof B\nclaude-code")));
  // A question already parked is extended, never refused.
  CHECK(f.c.park("flood0", about("mcp proof B\nclaude-code"), base + std::chrono::minutes(1)));
  // The first client still asks, and its question is there to answer.
  CHECK(f.c.open("mine-too", about("mcp proof A\nclaude-code")));
  CHECK(f.c.answer("mine", decision::allow, decided_by::side_panel).decided());
  CHECK(f.c.take_parked("mine")->what == decision::allow);
}

TEST_CASE("open questions are bounded in all: once full, new ones are refused and the open ones stay") {
  fixture f;
  auto base = later();
  for (std::size_t i = 0; i < confirmations::max_open; ++i)
    REQUIRE(f.c.park("q" + std::to_string(i), about("client" + std::to_string(i)), base + std::chrono::seconds(i)));
  auto refused = f.c.park("one-more", about("newcomer"), base);
  REQUIRE_FALSE(refused);
  CHECK(refused.err().message.find("retry once some are answered") != std::string::npos);
  CHECK(f.c.parked() == confirmations::max_open);
  CHECK(f.c.answer("q0", decision::allow, decided_by::side_panel).decided());
}
