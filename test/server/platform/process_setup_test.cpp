// Tests for the process-wide settings, the per-OS signal table, and naming the listener of
// a port.
#include "platform/process_setup.hpp"

#include <doctest/doctest.h>

#include "test/support/test_os.hpp"

#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>

#include "platform/port_owner.hpp"
#include "platform/process_identity.hpp"
#include "platform/signals.hpp"

using namespace opentabs::platform;

TEST_CASE("the open-file limit can be raised to what the server wants, and twice is harmless") {
  CHECK(raise_open_file_limit(1024));
  CHECK(raise_open_file_limit(1024));
  ignore_broken_pipes();
  release_free_memory();
}

TEST_CASE("every server signal has a name and a meaning, and the stop signals are among them") {
  REQUIRE_FALSE(server_signals().empty());
  for (const auto& s : server_signals()) {
    CHECK_FALSE(s.name.empty());
    CHECK(find_server_signal(s.number) == &s);
  }
  REQUIRE(stop_signals().size() == 2);
  for (const auto& s : stop_signals()) CHECK(s.meaning == signal_meaning::stop);
  CHECK(find_server_signal(-1) == nullptr);
}

// Skipped on Windows: under Wine, GetExtendedTcpTable gives pid 0 as every listener's owner.
TEST_CASE("the listener of a port is this process, named as the OS names it" * doctest::skip(opentabs::testing::under_wine())) {
  asio::io_context io;
  asio::ip::tcp::acceptor acceptor(io, {asio::ip::address_v4::loopback(), 0});
  auto port = acceptor.local_endpoint().port();
  auto pid = listening_process(port);
  REQUIRE(pid);
  CHECK(*pid == current_process_id());
  auto name = process_name(*pid);
  REQUIRE(name);
  CHECK(name->find("test_platfor") == 0);  // Linux's comm keeps 15 characters
  acceptor.close();
  CHECK_FALSE(listening_process(port));
}
