// The Asio names the networking code uses, spelled once (standalone Asio 1.22: every
// initiating call takes an explicit token; as_tuple lives in experimental).
#pragma once

#include <asio.hpp>
#include <asio/experimental/as_tuple.hpp>
#include <asio/experimental/awaitable_operators.hpp>
#include <asio/experimental/channel.hpp>

namespace opentabs::net {

using asio::awaitable;
using asio::use_awaitable;
using tcp = asio::ip::tcp;
using steady_clock = std::chrono::steady_clock;
// Completion token that reports errors as values: auto [ec, n] = co_await op(..., as_value).
inline constexpr auto as_value = asio::experimental::as_tuple(asio::use_awaitable);

}  // namespace opentabs::net
