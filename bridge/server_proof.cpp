#include "bridge/server_proof.hpp"

#include "json/json.hpp"
#include "bridge/contact_failure.hpp"
#include "net/http_client.hpp"
#include "net/net_failure.hpp"
#include "platform/port_owner.hpp"
#include "util/peer_proof.hpp"

namespace opentabs::bridge {

namespace {

constexpr std::string_view kWrongSecret =
    "it could not prove it knows the secret in auth.json (or it is an opentabs server of another config folder)";

error impostor(std::uint16_t port, std::string_view why) {
  std::string owner = describe_port_owner(port);
  return make_error(contact_failure::not_opentabs,
                    "the program listening on port " + std::to_string(port) + (owner.empty() ? "" : " (" + owner + ")") +
                        " is not this opentabs server: " + std::string(why) +
                        "; nothing was sent to it. Stop it, then run `opentabs start`");
}

}  // namespace

std::string describe_port_owner(std::uint16_t port) {
  auto pid = platform::listening_process(port);
  if (!pid) return {};
  auto name = platform::process_name(*pid);
  return "pid " + std::to_string(*pid) + (name ? " (" + name->substr(0, 64) + ")" : "");
}

net::awaitable<result<std::string>> prove_server(std::uint16_t port, std::string_view secret,
                                                 std::chrono::milliseconds timeout) {
  net::http_client_options opts;
  opts.connect_timeout = timeout;
  opts.idle_timeout = timeout;
  opts.total_timeout = timeout;
  net::http_client client(co_await asio::this_coro::executor, "127.0.0.1", port, opts);
  const std::string client_nonce = peer_proof::new_nonce();
  net::http_client_request req{"GET", std::string(peer_proof::kChallengePath) + "?clientNonce=" + client_nonce,
                               {{std::string(peer_proof::kChallengeTagHeader), peer_proof::challenge_tag(secret, client_nonce)}}, ""};
  auto r = co_await client.send(req);
  if (!r) {
    if (r.err().is(net::net_failure::connect_failed)) co_return r.err();
    co_return impostor(port, "it did not answer the opentabs challenge (" + r.err().message + ")");
  }
  // An opentabs server refuses a tag made with another secret: the same outcome as a wrong
  // server proof, since the two cannot be told apart.
  if (r->status() == 401) co_return impostor(port, kWrongSecret);
  if (r->status() != 200) co_return impostor(port, "it answered the challenge with HTTP " + std::to_string(r->status()));
  auto body = json::parse_object(r->body);
  const auto* server_nonce = body ? json::get_string(*body, "serverNonce") : nullptr;
  const auto* server_proof = body ? json::get_string(*body, "serverProof") : nullptr;
  if (!server_nonce || !server_proof || !peer_proof::is_nonce(*server_nonce))
    co_return impostor(port, "its answer to the challenge is not an opentabs proof");
  if (!peer_proof::proof_matches(*server_proof, peer_proof::server_proof(secret, client_nonce, *server_nonce)))
    co_return impostor(port, kWrongSecret);
  co_return std::string(peer_proof::kAuthorizationScheme) + " " +
      peer_proof::credential_token(*server_nonce, peer_proof::client_proof(secret, client_nonce, *server_nonce));
}

result<std::string> prove_server_now(std::uint16_t port, std::string_view secret, std::chrono::milliseconds timeout) {
  asio::io_context io;
  result<std::string> out = make_error(errc::internal, "the proof did not run");
  asio::co_spawn(io, [&]() -> net::awaitable<void> { out = co_await prove_server(port, secret, timeout); }, asio::detached);
  io.run();
  return out;
}

}  // namespace opentabs::bridge
