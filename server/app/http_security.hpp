// The request checks that guard the local server (spec §3.1, §6.7): the Host allow-list
// (DNS-rebinding defence), the Origin rule (no browser page may call us; only the
// extension's chrome-extension:// origin), the bearer token compared in constant time, and
// the WebSocket credential carried in Sec-WebSocket-Protocol.  Pure functions.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace opentabs::app {

// localhost, 127.0.0.1, ::1 / [::1], ::ffff:127.0.0.1, each with an optional port.
bool host_allowed(std::string_view host_header);
// No Origin at all, or a chrome-extension:// one.
bool origin_allowed(std::string_view origin_header, bool origin_present);
// The server's own loopback origin (http://127.0.0.1:<port>, http://localhost:<port>,
// http://[::1]:<port>).  MCP 2025-11-25 allows it on the MCP endpoint; a DNS-rebinding page
// can never carry it, since its origin is the attacker's host name.
bool is_own_loopback_origin(std::string_view origin_header, std::uint16_t port);
// "Bearer <secret>" (scheme case-insensitive), compared in constant time.
bool bearer_matches(std::string_view authorization_header, std::string_view secret);

struct ws_credentials {
  bool authorized = false;
  std::string connection_id;  // first offered value that is not "opentabs", the secret or a proof
  std::string caller;         // as peer_proof::caller_identity names the credential shown
};
// The WebSocket credential: the secret itself (the original extension) or a peer-proof
// credential "opentabs-proof.<token>" (ours; util/peer_proof.hpp) that `proof_accepted` takes.
ws_credentials check_ws_subprotocols(const std::vector<std::string>& offered, std::string_view secret,
                                     const std::function<bool(std::string_view token)>& proof_accepted = {});

}  // namespace opentabs::app
