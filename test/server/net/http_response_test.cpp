// The mapping from error categories to HTTP statuses.
#include <doctest/doctest.h>

#include "net/http_response.hpp"

TEST_CASE("error categories map to HTTP statuses in one place") {
  using opentabs::errc;
  CHECK(opentabs::net::http_status_for(errc::invalid_params) == 400);
  CHECK(opentabs::net::http_status_for(errc::not_found) == 404);
  CHECK(opentabs::net::http_status_for(errc::tool_failed) == 422);
  CHECK(opentabs::net::http_status_for(errc::rate_limited) == 429);
  CHECK(opentabs::net::http_status_for(errc::unsupported) == 426);
  CHECK(opentabs::net::http_status_for(errc::internal) == 500);
}
