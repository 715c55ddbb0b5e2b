// The Asio names the networking code uses, spelled once (standalone Asio 1.22: every
// initiating call takes an explicit token; as_tuple lives in experimental).
//
// GCC 12 coroutine workarounds, the one place they are explained; code sites carry a
// one-line "GCC 12: net/asio.hpp" pointer.  GCC 13 fixed each of them.
//  1. No co_return inside a loop of a coroutine: leave the loop with break and co_return
//     after it.  Some such co_returns are mis-compiled (the frame resumes after completion).
//  2. No co_await inside a condition, negated or not: await into a named variable first
//     (`bool more = co_await read_more(); if (!more) break;`).
//  3. No temporaries inside a co_await expression whose destruction matters (braced
//     arguments, std::function or shared_ptr temporaries, string literals bound to
//     const std::string&): GCC 12 destroys some of them twice or rejects them; name them
//     before the co_await.
//  4. No `||` race (awaitable_operators) between a stream write and
//     http_exchange::wait_peer_closed: it crashes under GCC 12, so a held SSE stream
//     notices a vanished peer through its keep-alive writes instead.
//  5. CMakeLists.txt: -Wno-mismatched-new-delete, for Asio's awaitable frame allocator
//     (GCC PR 109224); the string-concatenation false positives the precompiled header
//     exposes are silenced where CMakeLists.txt says.
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
