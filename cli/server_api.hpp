// The CLI's view of a running opentabs server: authenticated REST calls (GET /health,
// /tools, /audit; POST /tools/<name>/call, /reload, /plugin-settings) made synchronously
// on a private io_context with the coroutine http_client.  The secret never leaves this
// process: before the first authenticated request the program on the port must prove it
// knows the secret (bridge/server_proof, util/peer_proof), and requests carry the
// credential bound to that proof.  Transport failures become one clear error each: nothing
// listening says how to start the server, a listener that cannot prove the secret is named
// (pid and program when /proc tells), a 401 names the secret file, a timeout says how long we
// waited.  The secret never appears in errors.  Callers branch on error reasons:
// bridge::contact_failure (no server, not opentabs), cli_failure (bad secret, HTTP error)
// and net::net_failure (a response that is not valid).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "bridge/contact_failure.hpp"
#include "cli/cli_failure.hpp"
#include "config/config_paths.hpp"
#include "json/json.hpp"
#include "net/net_failure.hpp"
#include "util/result.hpp"

namespace opentabs::cli {

struct api_reply {
  int status = 0;
  std::string body;
  std::string server_version;  // x-opentabs-version, empty when absent
  std::optional<json::value> json;  // the body parsed, when it is JSON
};

class server_api {
 public:
  server_api(std::uint16_t port, config::config_paths paths);

  std::uint16_t port() const { return port_; }
  const config::config_paths& paths() const { return paths_; }

  // Reads auth.json.  Errors "no_secret" / "bad_secret" name the file and the fix.
  result<std::string> secret() const;

  // One request.  `authenticated` proves the server and adds the proof credential (and fails
  // early without a secret).  Errors: "server_not_running", "not_opentabs" (the listener did
  // not prove the secret; nothing was sent to it), "timeout", "bad_secret" (401), "io",
  // "bad_response".
  result<api_reply> call(const std::string& method, const std::string& target, const std::string& body = "",
                         bool authenticated = true,
                         std::chrono::milliseconds timeout = std::chrono::seconds(30)) const;

  // The same with an explicit secret (rotate-secret authenticates with the old one).
  result<api_reply> call_with_secret(const std::string& method, const std::string& target, const std::string& body,
                                     const std::optional<std::string>& secret, std::chrono::milliseconds timeout) const;

  // Unauthenticated GET /health: the server's version when an opentabs server answers,
  // empty when something else answers, error "server_not_running" when nothing does.
  result<std::string> probe() const;

  // Authenticated GET of a JSON document; non-2xx statuses become errors with the
  // server's message.
  result<json::value> get_json(const std::string& target) const;

  // POST /reload after a config change.  Returns a one-line outcome for people.
  std::string notify_reload() const;

 private:
  // "OpenTabs-Proof <credential>" for a server that proved `secret`, reused for this object's
  // later calls.
  result<std::string> proof_header(const std::string& secret) const;
  result<api_reply> send(const std::string& method, const std::string& target, const std::string& body,
                         const std::optional<std::string>& authorization, std::chrono::milliseconds timeout) const;
  error not_running() const;

  struct proven_server {
    std::string secret;
    std::string header;
  };
  std::uint16_t port_;
  config::config_paths paths_;
  mutable std::optional<proven_server> proven_;
};

// The error message a server's JSON error body carries ({"error": ...} in its various
// shapes), or the raw body cut to one line.
std::string server_error_text(const api_reply& reply);

}  // namespace opentabs::cli
