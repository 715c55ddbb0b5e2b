// The tasks extension's store: hidden until published, states and their payloads, input
// requests answered by key, the ttl and the per-client bound.
#include <doctest/doctest.h>

#include "mcp/task_store.hpp"

using namespace opentabs;
using namespace opentabs::mcp;

namespace {

constexpr std::int64_t kNow = 1'800'000'000'000;

task_limits small_limits() {
  task_limits l;
  l.ttl = std::chrono::milliseconds(60'000);
  l.max_per_client = 2;
  l.poll_interval = std::chrono::milliseconds(250);
  return l;
}

}  // namespace

TEST_CASE("a record is invisible until published, then carries the CreateTaskResult fields") {
  task_store store(small_limits());
  auto id = store.open("claude-code", kNow);
  CHECK(id.size() == 32);
  CHECK(store.find(id, "claude-code", kNow) == nullptr);
  CHECK(store.publish(id, kNow + 10)->empty());
  const auto* t = store.find(id, "claude-code", kNow + 20);
  REQUIRE(t);
  auto created = store.create_result(*t);
  CHECK(*json::get_string(created, "resultType") == "task");
  CHECK(*json::get_string(created, "taskId") == id);
  CHECK(*json::get_string(created, "status") == "working");
  CHECK(*json::get_string(created, "createdAt") == "2027-01-15T08:00:00.010Z");
  CHECK(created.at("ttlMs").as_int64() == 60'000);
  CHECK(created.at("pollIntervalMs").as_int64() == 250);
  CHECK_FALSE(created.contains("result"));
  CHECK_FALSE(created.contains("requestState"));
}

TEST_CASE("another client's task id is answered like an unknown one") {
  task_store store(small_limits());
  auto id = store.open("alice", kNow);
  store.publish(id, kNow);
  CHECK(store.find(id, "mallory", kNow) == nullptr);
  CHECK(store.find("no-such-task", "alice", kNow) == nullptr);
  CHECK(store.find(id, "alice", kNow) != nullptr);
}

TEST_CASE("completed and failed tasks inline their result or error; terminal states do not change") {
  task_store store(small_limits());
  auto done = store.open("c", kNow);
  store.publish(done, kNow);
  CHECK(store.complete(done, json::object{{"content", json::array{}}, {"isError", true}}, kNow + 5));
  CHECK_FALSE(store.cancel(done, kNow + 6));
  auto d = store.detailed(*store.find(done, "c", kNow + 7));
  CHECK(*json::get_string(d, "resultType") == "complete");
  CHECK(*json::get_string(d, "status") == "completed");
  CHECK(d.at("result").as_object().at("isError").as_bool());
  CHECK_FALSE(d.contains("error"));

  auto bad = store.open("c", kNow);
  store.publish(bad, kNow);
  CHECK(store.fail(bad, json::object{{"code", -32603}, {"message", "boom"}}, kNow + 5));
  CHECK_FALSE(store.complete(bad, json::object{}, kNow + 6));
  auto f = store.detailed(*store.find(bad, "c", kNow + 7));
  CHECK(*json::get_string(f, "status") == "failed");
  CHECK(f.at("error").as_object().at("code").as_int64() == -32603);
  CHECK(*json::get_string(f, "statusMessage") == "boom");
  CHECK_FALSE(f.contains("result"));
}

TEST_CASE("a cancelled task stays cancelled whatever the call still returns") {
  task_store store(small_limits());
  auto id = store.open("c", kNow);
  store.publish(id, kNow);
  CHECK(store.cancel(id, kNow + 1));
  CHECK_FALSE(store.cancel(id, kNow + 2));
  CHECK_FALSE(store.complete(id, json::object{}, kNow + 3));
  CHECK(store.find(id, "c", kNow + 4)->status == task_status::cancelled);
}

TEST_CASE("input requests: asked before publishing, answered by key, partial answers keep input_required") {
  task_store store(small_limits());
  auto id = store.open("c", kNow);
  auto first = store.ask(id, json::object{{"method", "elicitation/create"}}, kNow);
  auto second = store.ask(id, json::object{{"method", "elicitation/create"}}, kNow);
  REQUIRE(first);
  REQUIRE(second);
  CHECK(*first != *second);
  store.publish(id, kNow + 1);
  auto d = store.detailed(*store.find(id, "c", kNow + 2));
  CHECK(*json::get_string(d, "status") == "input_required");
  CHECK(d.at("inputRequests").as_object().size() == 2);

  auto got = store.answer(id, json::object{{*first, json::object{{"action", "accept"}}}, {"never-asked", 1}}, kNow + 3);
  REQUIRE(got.size() == 1);
  CHECK(got[0].first == *first);
  CHECK(store.find(id, "c", kNow + 4)->status == task_status::input_required);
  CHECK(store.answer(id, json::object{{*first, json::object{}}}, kNow + 5).empty());  // already answered
  CHECK(store.answer(id, json::object{{*second, json::object{}}}, kNow + 6).size() == 1);
  const auto* t = store.find(id, "c", kNow + 7);
  CHECK(t->status == task_status::working);
  CHECK(t->input_requests.empty());
  // Keys are never reused within a task.
  auto third = store.ask(id, json::object{}, kNow + 8);
  CHECK(*third != *first);
  CHECK(*third != *second);
}

TEST_CASE("tasks expire after their ttl; hidden records do not") {
  task_store store(small_limits());
  auto published = store.open("c", kNow);
  store.publish(published, kNow);
  auto hidden = store.open("c", kNow);
  CHECK(store.find(published, "c", kNow + 59'999) != nullptr);
  auto gone = store.expire(kNow + 60'000);
  REQUIRE(gone.size() == 1);
  CHECK(gone[0] == published);
  CHECK(store.find(published, "c", kNow + 60'000) == nullptr);
  CHECK(store.record(hidden) != nullptr);
  auto late = store.open("c", kNow);
  store.publish(late, kNow + 100);
  CHECK(store.find(late, "c", kNow + 60'100) == nullptr);  // found expired on access
}

TEST_CASE("each client keeps at most max_per_client tasks: a finished one gives way, a running one never does") {
  task_store store(small_limits());
  auto a = store.open("c", kNow);
  store.publish(a, kNow);
  auto b = store.open("c", kNow);
  store.publish(b, kNow + 1);
  auto other = store.open("d", kNow);
  store.publish(other, kNow + 2);
  // Another client calling itself "c" cannot end c's running tasks: its call is not made a
  // task (the caller answers it when it ends).
  auto c = store.open("c", kNow);
  CHECK_FALSE(store.publish(c, kNow + 3));
  CHECK(store.find(a, "c", kNow + 4) != nullptr);
  CHECK(store.find(b, "c", kNow + 4) != nullptr);
  CHECK(store.find(c, "c", kNow + 4) == nullptr);
  // Once one has finished, it is the one that gives way.
  CHECK(store.complete(b, json::object{{"content", json::array{}}}, kNow + 5));
  auto evicted = store.publish(c, kNow + 6);
  REQUIRE(evicted);
  REQUIRE(evicted->size() == 1);
  CHECK((*evicted)[0] == b);
  CHECK(store.find(a, "c", kNow + 7) != nullptr);
  CHECK(store.find(b, "c", kNow + 7) == nullptr);
  CHECK(store.find(c, "c", kNow + 7) != nullptr);
  CHECK(store.find(other, "d", kNow + 7) != nullptr);
}

TEST_CASE("a discarded record is gone") {
  task_store store(small_limits());
  auto id = store.open("c", kNow);
  store.discard(id);
  CHECK(store.record(id) == nullptr);
  CHECK(store.size() == 0);
}
