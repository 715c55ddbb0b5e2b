// Every failure reaches a wire in its true category: the three wire mappings
// (net::http_status_for, jsonrpc::code_for, app::extension_error_json) and the audit table
// cover each category, and no module's finer reason falls back to `internal`.  It lives with
// the CLI's tests because the CLI is the one module that links every module declaring a
// reason enum.
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "app/extension_wire.hpp"
#include "app/npm_commands.hpp"
#include "audit/audit_code.hpp"
#include "bridge/contact_failure.hpp"
#include "cli/cli_failure.hpp"
#include "config/config_failure.hpp"
#include "jsonrpc/jsonrpc.hpp"
#include "net/http_response.hpp"
#include "net/net_failure.hpp"
#include "plugins/plugin_failure.hpp"
#include "schema/schema_failure.hpp"

using namespace opentabs;

namespace {

// Every value of a reason enum whose values run from 0 to `last`.
template <class E>
std::vector<E> every(E last) {
  std::vector<E> out;
  for (int v = 0; v <= static_cast<int>(last); ++v) out.push_back(static_cast<E>(v));
  return out;
}

// A reason keeps its code text, carries its category and compares equal only to itself.
template <class E>
void check_reasons(E last) {
  std::set<std::string> names;
  for (E reason : every(last)) {
    CAPTURE(to_string(reason));
    CHECK(kind_of(reason) != errc::internal);
    CHECK(names.insert(std::string(to_string(reason))).second);
    error e = make_error(reason, "m");
    CHECK(e.code() == to_string(reason));
    CHECK(e.kind == kind_of(reason));
    CHECK(e.message == "m");
    for (E other : every(last)) CHECK(e.is(other) == (other == reason));
  }
}

}  // namespace

TEST_CASE("every category names itself and has a wire form on each boundary") {
  std::set<std::string> names;
  for (errc e : all_errc) {
    CAPTURE(to_string(e));
    CHECK(names.insert(std::string(to_string(e))).second);
    error made = make_error(e, "why");
    CHECK(made.code() == to_string(e));
    CHECK(made.is(e));
    const int status = net::http_status_for(e);
    CHECK(status >= 400);
    CHECK(status < 600);
    // Only a real internal failure (a bug, or the operating system refusing) is HTTP 500.
    CHECK((status == 500) == (e == errc::internal || e == errc::io));
    auto wire = app::extension_error_json(made);
    CHECK(json::get_int(wire, "code") == jsonrpc::code_for(e));
    CHECK(*json::get_string(wire, "message") == "why");
  }
}

TEST_CASE("JSON-RPC codes: malformed input is never reported as an internal error") {
  for (errc e : {errc::parse_error, errc::invalid_request, errc::invalid_params, errc::not_found, errc::method_not_found})
    CHECK(jsonrpc::code_for(e) != jsonrpc::rpc_code::internal_error);
}

TEST_CASE("no finer reason of any module is an internal error") {
  check_reasons(net::net_failure::port_busy);
  check_reasons(config::config_failure::locked);
  check_reasons(schema::schema_failure::pattern_too_large);
  check_reasons(plugins::plugin_failure::unsafe_file);
  check_reasons(bridge::contact_failure::port_in_use);
  check_reasons(cli::cli_failure::already_running);
  check_reasons(app::npm::failure_kind::unreachable);
}

// Whether an error can be made from `Code`: only a category or a reason may name one, so
// no code text can reach a wire without a category (it would be reported as internal).
template <class Code>
concept makes_error = requires(Code code) { make_error(code, std::string()); };

TEST_CASE("an error cannot be made from code text, only from a category or a reason") {
  CHECK_FALSE(makes_error<std::string>);
  CHECK_FALSE(makes_error<const char*>);
  CHECK_FALSE(makes_error<std::string_view>);
  CHECK(makes_error<errc>);
  CHECK(makes_error<net::net_failure>);
  CHECK(makes_error<cli::cli_failure>);
}

TEST_CASE("reasons of different modules never compare equal, even with the same value") {
  error refused = make_error(net::net_failure::connect_failed, "refused");
  CHECK(refused.is(net::net_failure::connect_failed));
  CHECK_FALSE(refused.is(bridge::contact_failure::server_not_running));
  CHECK_FALSE(refused.is(cli::cli_failure::usage));
  error plain = make_error(errc::unavailable, "down");
  CHECK_FALSE(plain.is(net::net_failure::connect_failed));
}

TEST_CASE("context keeps the reason and the category") {
  error e = with_context("reading x: ", make_error(net::net_failure::truncated, "closed early"));
  CHECK(e.message == "reading x: closed early");
  CHECK(e.is(net::net_failure::truncated));
  CHECK(e.is(errc::unavailable));
  CHECK(e.code() == "truncated");
}

TEST_CASE("audit codes come from the category through one table") {
  using audit::audit_code;
  std::set<std::string> names;
  for (audit_code c : every(audit_code::unknown)) CHECK(names.insert(std::string(to_string(c))).second);
  CHECK(audit::audit_code_for(errc::invalid_params) == audit_code::validation_error);
  CHECK(audit::audit_code_for(errc::not_found) == audit_code::not_found);
  CHECK(audit::audit_code_for(errc::rate_limited) == audit_code::rate_limited);
  CHECK(audit::audit_code_for(errc::denied) == audit_code::permission_denied);
  CHECK(audit::audit_code_for(errc::tool_failed) == audit_code::tool_error);
  CHECK(audit::audit_code_for(errc::unavailable) == audit_code::unknown);
  CHECK(audit::audit_code_for(errc::internal) == audit_code::unknown);
  auto e = audit::make_audit_error(errc::rate_limited, "too many");
  CHECK(e.code == "RATE_LIMITED");
  CHECK(e.message == "too many");
  CHECK_FALSE(e.category);
}
