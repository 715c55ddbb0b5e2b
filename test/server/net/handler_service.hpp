// An http_service made of functions, for tests whose server routes by hand: each request
// goes to `handle`; heads go to `screen` when one is given, and are otherwise admitted as
// unauthenticated.
#pragma once

#include <functional>

#include "net/http_server.hpp"

namespace opentabs::net::testing {

struct handler_service final : http_service {
  std::function<awaitable<void>(http_exchange&)> handler;
  std::function<head_verdict(const codec::http_request&)> head_screen;

  head_verdict screen(const codec::http_request& head) const override { return head_screen ? head_screen(head) : head_verdict{}; }
  awaitable<void> handle(http_exchange& ex) override { return handler(ex); }
};

}  // namespace opentabs::net::testing
