// The permission question across a 2026-07-28 round trip (see input_required_asker.hpp).
#include "mcp/input_required_asker.hpp"

#include "mcp/permission_prompt.hpp"
#include "util/clock.hpp"

namespace opentabs::mcp {

result<input_required_asker::brought> input_required_asker::bring(const tools::permission_question& q) {
  if (!input_->request_state) {
    if (input_->responses)
      return make_error(errc::invalid_params,
                        "params.inputResponses answers no question: this server asks with a requestState, and the request carries "
                        "none; call the tool without inputResponses to be asked");
    return brought{};
  }
  auto redeemed = seal_.redeem(*input_->request_state, request_binding{q.tool.name, q.digest, input_->client, "", 1}, now_epoch_ms());
  if (!redeemed) return redeemed.err();
  return brought{redeemed->prompt, redeemed->round, answer_carried()};
}

json::object input_required_asker::input_request(const tools::permission_question& q, const std::string& prompt, std::int64_t round) {
  const permission_question shown{q.tool.name, q.tool.plugin, q.where, &q.args};
  const request_binding question{q.tool.name, q.digest, input_->client, prompt, round};
  return json::object{{"inputRequests", json::object{{permission_input_key, permission_input_request(shown)}}},
                      {"requestState", json::str(seal_.seal(question, now_epoch_ms()))}};
}

result<tools::permission_answer> input_required_asker::answer_carried() const {
  const json::value* answer = nullptr;
  if (input_->responses) {
    const auto* responses = input_->responses->if_object();
    if (!responses)
      return make_error(errc::invalid_params, "params.inputResponses must be an object mapping inputRequests keys to results, got " +
                                                  std::string(json::type_name(*input_->responses)));
    answer = responses->if_contains(permission_input_key);
  }
  return read_permission_answer(answer, "params.inputResponses." + std::string(permission_input_key));
}

}  // namespace opentabs::mcp
