// The permission question as an elicitation: the form put through the call's elicitation
// channel, the ElicitResult read back as the person's choice, and the withdrawal passed on.
#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <vector>

#include "mcp/elicitation_asker.hpp"

using namespace opentabs;
using namespace opentabs::mcp;

namespace {

struct channel {
  std::optional<json::object> params;
  tools::call_options::answer_fn answer;
  std::vector<std::string> withdrawn;
  bool open = true;

  elicitation_asker asker(bool can_withdraw) {
    return elicitation_asker(
        [this](json::object p, tools::call_options::answer_fn a) {
          params = std::move(p);
          answer = std::move(a);
          return open;
        },
        can_withdraw ? elicitation_asker::withdraw_fn([this](std::string_view reason) { withdrawn.emplace_back(reason); }) : nullptr);
  }
};

tools::tool_def notes_tool() {
  tools::tool_def t;
  t.plugin = "notes";
  t.base_name = "create";
  t.name = "notes_create";
  return t;
}

}  // namespace

TEST_CASE("the question goes out as a form naming the tool and where it acts; the person's choice comes back") {
  channel ch;
  auto asker = ch.asker(true);
  const auto tool = notes_tool();
  const json::object args{{"title", "Groceries"}};
  std::vector<tools::permission_answer> got;
  REQUIRE(asker.ask(tools::permission_question{tool, args, "tab 3 (notes.example)", ""}, [&](tools::permission_answer a) {
    got.push_back(a);
    return std::string("told");
  }));
  REQUIRE(ch.params);
  CHECK(*json::get_string(*ch.params, "mode") == "form");
  const std::string message(*json::get_string(*ch.params, "message"));
  CHECK(message.find("notes_create") != std::string::npos);
  CHECK(message.find("tab 3 (notes.example)") != std::string::npos);
  CHECK(message.find("Groceries") != std::string::npos);

  const json::value allow = json::object{{"action", "accept"}, {"content", json::object{{"decision", "always_allow"}}}};
  CHECK(ch.answer(&allow) == "told");  // what the asker's caller says goes back to the client
  const json::value declined = json::object{{"action", "decline"}};
  ch.answer(&declined);
  const json::value junk = json::object{{"action", "accept"}, {"content", json::object{{"decision", "maybe"}}}};
  ch.answer(&junk);
  ch.answer(nullptr);  // the client answered with an error, or the stream ended
  CHECK(got == std::vector<tools::permission_answer>{tools::permission_answer::always_allow, tools::permission_answer::deny,
                                                     tools::permission_answer::unanswered, tools::permission_answer::unanswered});
}

TEST_CASE("a question that could not be sent says so; a withdrawal reaches the channel when it has one") {
  channel ch;
  ch.open = false;
  const auto tool = notes_tool();
  const json::object args;
  auto asker = ch.asker(true);
  CHECK_FALSE(asker.ask(tools::permission_question{tool, args, "", ""}, [](tools::permission_answer) { return std::string(); }));
  asker.withdraw("Already decided in the OpenTabs side panel: denied");
  CHECK(ch.withdrawn == std::vector<std::string>{"Already decided in the OpenTabs side panel: denied"});
  auto task_asker = ch.asker(false);  // a task's channel: nothing to withdraw with
  task_asker.withdraw("ignored");
  CHECK(ch.withdrawn.size() == 1);
}
