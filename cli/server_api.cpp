// Synchronous REST calls to the local server (see server_api.hpp).
#include "cli/server_api.hpp"

#include "bridge/contact_failure.hpp"
#include "bridge/server_proof.hpp"
#include "config/auth_secret.hpp"
#include "net/http_client.hpp"
#include "util/strings.hpp"

namespace opentabs::cli {

server_api::server_api(std::uint16_t port, config::config_paths paths) : port_(port), paths_(std::move(paths)) {}

result<std::string> server_api::secret() const {
  auto s = config::load_secret(paths_.auth_json());
  if (s) return s;
  if (s.err().is(errc::not_found))
    return make_error(cli_failure::no_secret, "no secret file at " + paths_.auth_json().string() +
                                       "; run `opentabs start` once to create it (or set OPENTABS_CONFIG_DIR to the "
                                       "server's config directory)");
  return make_error(cli_failure::bad_secret, s.err().message + " (fix: `opentabs config rotate-secret --confirm`)");
}

result<api_reply> server_api::call(const std::string& method, const std::string& target, const std::string& body,
                                   bool authenticated, std::chrono::milliseconds timeout) const {
  std::optional<std::string> token;
  if (authenticated) {
    auto s = secret();
    if (!s) {
      // Without a secret, "the server is not running" is the more useful thing to say.
      auto probe = call_with_secret("GET", "/health", "", std::nullopt, std::chrono::seconds(5));
      if (!probe && probe.err().is(bridge::contact_failure::server_not_running)) return probe.err();
      return s.err();
    }
    token = *s;
  }
  return call_with_secret(method, target, body, token, timeout);
}

result<std::string> server_api::proof_header(const std::string& secret) const {
  if (proven_ && proven_->secret == secret) return proven_->header;
  auto proof = bridge::prove_server_now(port_, secret);
  if (!proof) {
    if (proof.err().is(net::net_failure::connect_failed)) return not_running();
    if (proof.err().is(bridge::contact_failure::not_opentabs))
      return make_error(bridge::contact_failure::not_opentabs, proof.err().message + " (secret file: " + paths_.auth_json().string() +
                                            "; a server of another config directory is named the same way: check "
                                            "OPENTABS_CONFIG_DIR)");
    return proof.err();
  }
  proven_ = proven_server{secret, *proof};
  return *proof;
}

error server_api::not_running() const {
  return make_error(bridge::contact_failure::server_not_running, "no opentabs server is running on port " + std::to_string(port_) +
                                              ". Start one with `opentabs start` (or `opentabs start --background`)");
}

result<api_reply> server_api::call_with_secret(const std::string& method, const std::string& target,
                                               const std::string& body, const std::optional<std::string>& secret,
                                               std::chrono::milliseconds timeout) const {
  if (!secret) return send(method, target, body, std::nullopt, timeout);
  // The secret never leaves this process: the server proves it knows it first, and requests
  // carry the credential bound to that proof.
  const bool reused = proven_ && proven_->secret == *secret;
  auto header = proof_header(*secret);
  if (!header) return header.err();
  auto reply = send(method, target, body, *header, timeout);
  if (reused && !reply && reply.err().is(cli_failure::bad_secret)) {
    // A server restarted since the proof forgets it: prove the new one once.
    proven_.reset();
    header = proof_header(*secret);
    if (!header) return header.err();
    reply = send(method, target, body, *header, timeout);
  }
  return reply;
}

result<api_reply> server_api::send(const std::string& method, const std::string& target, const std::string& body,
                                   const std::optional<std::string>& authorization,
                                   std::chrono::milliseconds timeout) const {
  asio::io_context io{1};
  net::http_client_options opts;
  opts.connect_timeout = std::chrono::seconds(3);
  opts.idle_timeout = timeout;
  opts.total_timeout = timeout;
  net::http_client client(io.get_executor(), "127.0.0.1", port_, opts);
  net::http_client_request req;
  req.method = method;
  req.target = target;
  req.body = body;
  req.headers.emplace_back("Accept", "application/json");
  if (!body.empty()) req.headers.emplace_back("Content-Type", "application/json");
  if (authorization) req.headers.emplace_back("Authorization", *authorization);
  std::optional<result<net::http_client_response>> got;
  asio::co_spawn(
      io, [&]() -> net::awaitable<void> { got = co_await client.send(req); }, asio::detached);
  io.run();
  if (!got) return make_error(errc::io, "request to the server did not complete");
  if (!got->ok()) {
    const auto& e = got->err();
    if (e.is(net::net_failure::connect_failed)) return not_running();
    if (e.is(errc::timeout))
      return make_error(errc::timeout, "the server on port " + std::to_string(port_) + " did not answer " + method + " " +
                                       target.substr(0, target.find('?')) + " in time (" + e.message + ")");
    return with_context("talking to the server on port " + std::to_string(port_) + " failed: ", e);
  }
  api_reply reply;
  reply.status = (*got)->status();
  reply.body = std::move((*got)->body);
  reply.server_version = std::string((*got)->header("x-opentabs-version"));
  if (auto v = json::parse(reply.body); v) reply.json = std::move(*v);
  if (reply.status == 401)
    return make_error(cli_failure::bad_secret, "the server on port " + std::to_string(port_) + " rejected the credential made from " +
                                        paths_.auth_json().string() +
                                        "; is it running with another config directory (OPENTABS_CONFIG_DIR)?");
  if (reply.status == 403)
    return make_error(cli_failure::forbidden, "the server on port " + std::to_string(port_) + " refused the request: " +
                                       server_error_text(reply));
  return reply;
}

result<std::string> server_api::probe() const {
  auto r = call_with_secret("GET", "/health", "", std::nullopt, std::chrono::seconds(5));
  if (!r) return r.err();
  return r->server_version;
}

result<json::value> server_api::get_json(const std::string& target) const {
  auto r = call("GET", target);
  if (!r) return r.err();
  if (r->status == 429) return make_error(errc::rate_limited, "the server is rate limiting this request; retry in a minute");
  if (r->status < 200 || r->status >= 300)
    return make_error(cli_failure::server_error, "GET " + target + " failed with HTTP " + std::to_string(r->status) + ": " +
                                          server_error_text(*r));
  if (!r->json) return make_error(net::net_failure::bad_response, "GET " + target + " did not return JSON");
  return std::move(*r->json);
}

std::string server_api::notify_reload() const {
  auto r = call("POST", "/reload", "", true, std::chrono::seconds(30));
  if (!r) {
    if (r.err().is(bridge::contact_failure::server_not_running)) return "server not running; the change applies when it starts";
    return "could not reload the server: " + r.err().message;
  }
  if (r->status == 200 && r->json && r->json->is_object()) {
    auto plugins = json::get_int(r->json->as_object(), "plugins");
    return "server reloaded" + (plugins ? " (" + std::to_string(*plugins) + " plugins)" : std::string());
  }
  return "server reload failed (HTTP " + std::to_string(r->status) + "): " + server_error_text(*r);
}

std::string server_error_text(const api_reply& reply) {
  if (reply.json && reply.json->is_object()) {
    const auto& o = reply.json->as_object();
    if (auto d = json::get_string(o, "error_description")) return std::string(*d);
    if (auto e = json::get_string(o, "error")) return std::string(*e);
    if (auto eo = json::get_object(o, "error"))
      if (auto m = json::get_string(*eo, "message")) return std::string(*m);
    if (auto m = json::get_string(o, "message")) return std::string(*m);
  }
  std::string s = reply.body.substr(0, 300);
  for (auto& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s.empty() ? "(empty body)" : s;
}

}  // namespace opentabs::cli
