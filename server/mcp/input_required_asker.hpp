// The agent's dialog as an asker of a permission question across a 2026-07-28 round trip
// (tools::round_trip_asker): the call ends with an InputRequiredResult whose inputRequests
// hold the question (permission_prompt) and whose requestState, sealed (request_state_seal),
// names the question and round; the client's retry brings both back, and its
// inputResponses the person's answer.
#pragma once

#include <memory>

#include "mcp/request_state.hpp"
#include "tools/permission_askers.hpp"
#include "tools/tool_service.hpp"

namespace opentabs::mcp {

class input_required_asker final : public tools::round_trip_asker {
 public:
  // `input`: what this request carries (the client, its requestState and inputResponses);
  // `seal`: the server's one seal, which outlives the call.
  input_required_asker(std::shared_ptr<const tools::input_round> input, request_state_seal& seal)
      : input_(std::move(input)), seal_(seal) {}

  result<brought> bring(const tools::permission_question& q) override;
  json::object input_request(const tools::permission_question& q, const std::string& prompt, std::int64_t round) override;
  std::chrono::milliseconds patience() const override { return seal_.ttl(); }

 private:
  // The answer the retry carries in inputResponses (unanswered when none).
  result<tools::permission_answer> answer_carried() const;

  std::shared_ptr<const tools::input_round> input_;
  request_state_seal& seal_;
};

}  // namespace opentabs::mcp
