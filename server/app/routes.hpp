// The HTTP routing table of the server (spec §6.5): global Host/Origin checks, bearer
// auth, per-endpoint rate limits, then one handler per route (REST, /ws, /mcp,
// /mcp/gateway).  Handlers translate; the work happens in the pipeline, the hub and the
// state.  Status codes and error bodies for every refusal are produced here and only here.
#pragma once

#include <functional>

#include "app/extension_hub.hpp"
#include "app/peer_auth.hpp"
#include "app/rate_limiter.hpp"
#include "app/plugin_settings.hpp"
#include "app/reload_pipeline.hpp"
#include "app/server_state.hpp"
#include "app/tool_pipeline.hpp"
#include "mcp/endpoint.hpp"
#include "net/http_exchange.hpp"
#include "net/http_server.hpp"

namespace opentabs::app {

struct route_options {
  bool conformance_mode = false;  // /mcp without auth (test mode; loopback only)
};

// The server's http_service: net::http_server hands it every request head, then every
// admitted request.
class router final : public net::http_service {
 public:
  // `reload` serves POST /reload (coalesced), `settings` POST /plugin-settings.
  router(const server_state& state, extension_hub& hub, tool_pipeline& pipeline, reload_pipeline& reload,
         plugin_settings& settings, mcp::endpoint& mcp, mcp::endpoint& gateway, route_options options);

  // Decides on a request head alone, before its body is read (Host, Origin, the secret,
  // the route): a refusal to send now, or admission and whether the secret was shown.
  // Every refusal of an unauthenticated request is made here.
  net::head_verdict screen(const codec::http_request& head) const override;
  net::awaitable<void> handle(net::http_exchange& ex) override;
  // The bound port, known after listen(): the MCP endpoint accepts the server's own origin.
  void set_port(std::uint16_t port) { port_ = port; }

 private:
  friend struct route_table;  // the paths and their handlers (routes.cpp)
  net::awaitable<void> route(net::http_exchange& ex, bool authenticated);
  net::awaitable<void> call_tool(net::http_exchange& ex, std::string name);
  void list_tools(net::http_exchange& ex);
  void audit(net::http_exchange& ex);
  void health(net::http_exchange& ex, bool authenticated);
  bool rate_limited(net::http_exchange& ex, rate_limiter& limiter);
  // "Bearer <secret>" or a peer-proof credential this process accepted.
  bool authorization_matches(std::string_view header) const;
  std::function<bool(std::string_view)> proof_check() const;
  void answer_challenge(net::http_exchange& ex);

  const server_state& state_;  // the secret, the audit log and /health, which reports every piece
  extension_hub& hub_;
  tool_pipeline& pipeline_;
  reload_pipeline& reload_;
  plugin_settings& settings_;
  mcp::endpoint& mcp_;
  mcp::endpoint& gateway_;
  route_options options_;
  std::uint16_t port_ = 0;
  rate_limiter tool_calls_{30, std::chrono::seconds(60)};
  rate_limiter extension_reloads_{10, std::chrono::seconds(60)};
  rate_limiter plugin_settings_{10, std::chrono::seconds(60)};
  rate_limiter reloads_{10, std::chrono::seconds(60)};
  // Credentials are checked in the const head screen; the table is the server's memory of
  // answered challenges, not routing state.
  mutable peer_auth peer_auth_;
};

}  // namespace opentabs::app
