#include "bridge/modern_relay.hpp"

#include "json/json.hpp"
#include "util/base64.hpp"

namespace opentabs::bridge {

namespace {

constexpr std::string_view kVersionKey = "io.modelcontextprotocol/protocolVersion";

bool plain_header_value(std::string_view v) {
  if (v.empty()) return true;
  if (v.front() == ' ' || v.back() == ' ') return false;
  if (v.size() >= 11 && v.substr(0, 9) == "=?base64?" && v.substr(v.size() - 2) == "?=") return false;
  for (unsigned char c : v)
    if (c < 0x20 || c > 0x7e) return false;
  return true;
}

}  // namespace

std::string header_safe_value(std::string_view value) {
  if (plain_header_value(value)) return std::string(value);
  return "=?base64?" + encode_base64(value) + "?=";
}

std::optional<header_pairs> modern_request_headers(std::string_view line) {
  if (line.find(kVersionKey) == std::string_view::npos) return std::nullopt;
  auto parsed = json::parse_object(line);
  if (!parsed) return std::nullopt;
  const auto* method = json::get_string(*parsed, "method");
  const auto* id = json::find(*parsed, "id");
  const auto* params = json::get_object(*parsed, "params");
  const auto* meta = params ? json::get_object(*params, "_meta") : nullptr;
  const auto* version = meta ? json::get_string(*meta, kVersionKey) : nullptr;
  if (!method || !id || !version) return std::nullopt;
  header_pairs out{{"MCP-Protocol-Version", header_safe_value(*version)}, {"Mcp-Method", header_safe_value(*method)}};
  const bool names_resource = *method == "resources/read";
  if (*method == "tools/call" || *method == "prompts/get" || names_resource)
    if (const auto* name = json::get_string(*params, names_resource ? "uri" : "name")) out.emplace_back("Mcp-Name", header_safe_value(*name));
  return out;
}

std::optional<json::value> cancelled_request_id(std::string_view line) {
  if (line.find("notifications/cancelled") == std::string_view::npos) return std::nullopt;
  auto parsed = json::parse_object(line);
  if (!parsed) return std::nullopt;
  const auto* method = json::get_string(*parsed, "method");
  const auto* params = json::get_object(*parsed, "params");
  if (!method || *method != "notifications/cancelled" || !params || json::find(*parsed, "id")) return std::nullopt;
  const auto* id = json::find(*params, "requestId");
  if (!id || !(id->is_string() || id->is_int64() || id->is_uint64())) return std::nullopt;
  return json::copy_out(*id);
}

}  // namespace opentabs::bridge
