// MCP 2026-07-28 per-request rules: era selection, _meta, header checks and the revision's errors.
#include <doctest/doctest.h>

#include <map>

#include "mcp/modern_request.hpp"

using namespace opentabs;
using namespace opentabs::mcp;

namespace {

constexpr std::string_view kMeta =
    R"({"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"claude-code","version":"2.1.332"},)"
    R"("io.modelcontextprotocol/clientCapabilities":{"roots":{"listChanged":true},"elicitation":{"form":{},"url":{}}}})";

json::value body_of(std::string_view text) { return *json::parse(text); }

std::string request(std::string_view method, std::string_view params) {
  return R"({"jsonrpc":"2.0","id":"r1","method":")" + std::string(method) + R"(","params":)" + std::string(params) + "}";
}

modern_headers headers(std::string_view method, std::optional<std::string_view> name = std::nullopt,
                       std::string_view version = "2026-07-28") {
  return modern_headers{true, version, method, name};
}

// Admits `text` with `h`; the body stays alive for the message's params view.
struct admitted_request {
  json::value body;
  admission result;
};
admitted_request admit(const std::string& text, const modern_headers& h) {
  admitted_request out{body_of(text), {}};
  auto c = jsonrpc::classify(out.body);
  REQUIRE(c);
  out.result = admit_modern(*c.msg, h);
  return out;
}

}  // namespace

TEST_CASE("era selection: _meta with a protocol version, or a non-2025 header outside a session, is modern") {
  auto modern = body_of(request("server/discover", "{\"_meta\":" + std::string(kMeta) + "}"));
  auto legacy = body_of(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}})");
  CHECK(speaks_modern("2026-07-28", modern, false));
  CHECK(speaks_modern("", modern, true));  // a stale session id is ignored
  CHECK_FALSE(speaks_modern("", legacy, false));
  CHECK_FALSE(speaks_modern("2025-11-25", legacy, false));
  CHECK(speaks_modern("2026-07-28", legacy, false));
  CHECK(speaks_modern("v999.0.0", legacy, false));
  CHECK_FALSE(speaks_modern("1999-01-01", legacy, true));  // session traffic keeps its 2025 error
}

TEST_CASE("Claude Code's discover probe is admitted with its capabilities") {
  auto a = admit(request("server/discover", "{\"_meta\":" + std::string(kMeta) + "}"), headers("server/discover"));
  REQUIRE(a.result);
  CHECK(a.result.client->protocol_version == "2026-07-28");
  CHECK(a.result.client->client_name == "claude-code");
  CHECK(a.result.client->declares("elicitation"));
  CHECK_FALSE(a.result.client->declares("sampling"));
  CHECK_FALSE(a.result.client->declares_extension("io.modelcontextprotocol/tasks"));
  CHECK_FALSE(a.result.client->min_log_level);
}

TEST_CASE("missing or malformed _meta fields are -32602 with HTTP 400; clientInfo is optional") {
  auto no_meta = admit(request("server/discover", "{}"), headers("server/discover"));
  REQUIRE_FALSE(no_meta.result);
  CHECK(no_meta.result.refused.http_status == 400);
  CHECK(no_meta.result.refused.error.code == -32602);
  CHECK(no_meta.result.refused.error.message.find("params._meta") != std::string::npos);

  auto no_version = admit(request("server/discover", R"({"_meta":{"io.modelcontextprotocol/clientCapabilities":{}}})"), headers("server/discover"));
  REQUIRE_FALSE(no_version.result);
  CHECK(no_version.result.refused.error.code == -32602);
  CHECK(no_version.result.refused.error.message.find("protocolVersion") != std::string::npos);

  auto no_caps = admit(request("server/discover", R"({"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}})"), headers("server/discover"));
  REQUIRE_FALSE(no_caps.result);
  CHECK(no_caps.result.refused.error.code == -32602);
  CHECK(no_caps.result.refused.error.message.find("clientCapabilities") != std::string::npos);

  auto no_info = admit(request("server/discover", R"({"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}})"),
                       headers("server/discover"));
  CHECK(no_info.result);

  auto bad_level = admit(request("tools/list", R"({"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"loud"}})"),
                         headers("tools/list"));
  REQUIRE_FALSE(bad_level.result);
  CHECK(bad_level.result.refused.error.code == -32602);
  auto level = admit(request("tools/list", R"({"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"warning"}})"),
                     headers("tools/list"));
  REQUIRE(level.result);
  CHECK(level.result.client->min_log_level == log_level::warning);

  std::string huge = R"({"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"x":")" +
                     std::string(max_meta_bytes, 'a') + "\"}}";
  auto oversized = admit(request("tools/list", huge), headers("tools/list"));
  REQUIRE_FALSE(oversized.result);
  CHECK(oversized.result.refused.error.code == -32602);
  CHECK(oversized.result.refused.error.message.find("larger than") != std::string::npos);
}

TEST_CASE("headers must be present and agree with the body: -32020 HeaderMismatch") {
  const std::string meta = "\"_meta\":" + std::string(kMeta);
  auto missing_method = admit(request("tools/list", "{" + meta + "}"), modern_headers{true, "2026-07-28", std::nullopt, std::nullopt});
  REQUIRE_FALSE(missing_method.result);
  CHECK(missing_method.result.refused.error.code == -32020);
  CHECK(missing_method.result.refused.http_status == 400);

  auto wrong_method = admit(request("tools/list", "{" + meta + "}"), headers("prompts/list"));
  REQUIRE_FALSE(wrong_method.result);
  CHECK(wrong_method.result.refused.error.code == -32020);
  CHECK(wrong_method.result.refused.error.message.find("prompts/list") != std::string::npos);
  auto case_differs = admit(request("tools/list", "{" + meta + "}"), headers("TOOLS/LIST"));
  CHECK_FALSE(case_differs.result);
  CHECK(admit(request("tools/list", "{" + meta + "}"), headers("  tools/list\t")).result);

  auto no_version_header = admit(request("tools/list", "{" + meta + "}"), modern_headers{true, std::nullopt, "tools/list", std::nullopt});
  REQUIRE_FALSE(no_version_header.result);
  CHECK(no_version_header.result.refused.error.code == -32020);
  auto version_differs = admit(request("tools/list", "{" + meta + "}"), headers("tools/list", std::nullopt, "2025-11-25"));
  REQUIRE_FALSE(version_differs.result);
  CHECK(version_differs.result.refused.error.code == -32020);

  const std::string call = "{\"name\":\"browser_list_tabs\",\"arguments\":{}," + meta + "}";
  CHECK(admit(request("tools/call", call), headers("tools/call", " browser_list_tabs ")).result);
  CHECK(admit(request("tools/call", call), headers("tools/call", "=?base64?YnJvd3Nlcl9saXN0X3RhYnM=?=")).result);
  auto no_name = admit(request("tools/call", call), headers("tools/call"));
  REQUIRE_FALSE(no_name.result);
  CHECK(no_name.result.refused.error.code == -32020);
  auto other_name = admit(request("tools/call", call), headers("tools/call", "wrong_tool_name"));
  REQUIRE_FALSE(other_name.result);
  CHECK(other_name.result.refused.error.message.find("wrong_tool_name") != std::string::npos);
  CHECK_FALSE(admit(request("tools/call", call), headers("tools/call", "=?base64?!!!?=")).result);

  // stdio has no headers to check.
  CHECK(admit(request("tools/call", call), modern_headers{false, std::nullopt, std::nullopt, std::nullopt}).result);
}

TEST_CASE("an unserved version is -32022 with the supported list and the requested version") {
  const std::string params = R"({"_meta":{"io.modelcontextprotocol/protocolVersion":"v999.0.0","io.modelcontextprotocol/clientCapabilities":{}}})";
  auto a = admit(request("server/discover", params), headers("server/discover", std::nullopt, "v999.0.0"));
  REQUIRE_FALSE(a.result);
  CHECK(a.result.refused.http_status == 400);
  CHECK(a.result.refused.error.code == -32022);
  const auto& data = a.result.refused.error.data.as_object();
  CHECK(data.at("requested").as_string() == "v999.0.0");
  CHECK(json::dump(data.at("supported")) == R"(["2026-07-28","2025-11-25","2025-06-18","2025-03-26"])");
  // A 2025 revision in _meta: served only through initialize.
  auto legacy = unsupported_version_error("2025-11-25");
  CHECK(legacy.message.find("initialize") != std::string::npos);
}

TEST_CASE("the revision's other errors and helpers") {
  auto missing = missing_capability_error("sampling", "the tool asks the client's model");
  CHECK(missing.code == -32021);
  CHECK(json::dump(missing.data) == R"({"requiredCapabilities":{"sampling":{}}})");
  auto nf = method_not_found("initialize");
  CHECK(nf.http_status == 404);
  CHECK(nf.error.code == -32601);

  CHECK(*decode_header_value(" plain ") == "plain");
  CHECK(*decode_header_value("=?base64?SGVsbG8sIOS4lueVjA==?=") == "Hello, 世界");
  CHECK_FALSE(decode_header_value("=?base64?***?="));

  CHECK(with_leading_fields(R"({"tools":[]})", R"("resultType":"complete")") == R"({"resultType":"complete","tools":[]})");
  CHECK(with_leading_fields("{}", R"("resultType":"complete")") == R"({"resultType":"complete"})");
  CHECK(cacheable_fields(60000, "private") == R"("resultType":"complete","ttlMs":60000,"cacheScope":"private")");
}

TEST_CASE("subscriptions/listen: filter, acknowledgement and tagged notifications") {
  auto p = parse_listen(*json::parse_object(R"({"notifications":{"toolsListChanged":true,"promptsListChanged":true}})"));
  REQUIRE(p);
  CHECK(p.value->tools_list_changed);
  CHECK(listen_acknowledgement(json::value(7), *p.value) ==
        R"({"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"notifications":{"toolsListChanged":true},"_meta":{"io.modelcontextprotocol/subscriptionId":7}}})");
  CHECK(listen_notification("notifications/tools/list_changed", json::value("s"), {}) ==
        R"({"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"s"}}})");
  CHECK_FALSE(parse_listen(*json::parse_object("{}")));
  CHECK_FALSE(parse_listen(*json::parse_object(R"({"notifications":{"toolsListChanged":"yes"}})")));
}

TEST_CASE("x-mcp-header: mirrored parameters must arrive in their Mcp-Param headers with the same value") {
  auto schema = *json::parse_object(
      R"({"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"},"limit":{"type":"integer","x-mcp-header":"Limit"},)"
      R"("query":{"type":"string"},"opts":{"type":"object","properties":{"dry":{"type":"boolean","x-mcp-header":"Dry"}}}}})");
  auto params = mirrored_params(schema);
  REQUIRE(params.size() == 3);
  std::map<std::string, std::string> sent;
  auto lookup = [&sent](std::string_view name) -> std::optional<std::string_view> {
    auto it = sent.find(std::string(name));
    if (it == sent.end()) return std::nullopt;
    return std::string_view(it->second);
  };
  auto args = *json::parse_object(R"({"region":"us-west1","limit":42,"query":"x","opts":{"dry":true}})");
  sent = {{"Mcp-Param-Region", "us-west1"}, {"Mcp-Param-Limit", "42.0"}, {"Mcp-Param-Dry", "true"}};
  CHECK_FALSE(check_mirrored_params(params, args, lookup));
  sent["Mcp-Param-Region"] = "=?base64?dXMtd2VzdDE=?=";
  CHECK_FALSE(check_mirrored_params(params, args, lookup));

  sent["Mcp-Param-Region"] = "=?base64?dXMtd2VzdDE?=";  // unpadded
  auto unpadded = check_mirrored_params(params, args, lookup);
  REQUIRE(unpadded);
  CHECK(unpadded->error.code == -32020);
  sent["Mcp-Param-Region"] = "eu-central1";
  auto differs = check_mirrored_params(params, args, lookup);
  REQUIRE(differs);
  CHECK(differs->error.message.find("Mcp-Param-Region") != std::string::npos);
  sent.erase("Mcp-Param-Region");
  auto missing = check_mirrored_params(params, args, lookup);
  REQUIRE(missing);
  CHECK(missing->http_status == 400);

  // A parameter absent from the arguments expects no header.
  sent = {};
  CHECK_FALSE(check_mirrored_params(params, *json::parse_object(R"({"query":"x"})"), lookup));
}
