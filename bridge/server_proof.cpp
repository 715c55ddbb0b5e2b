#include "bridge/server_proof.hpp"

#include <dirent.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <vector>

#include "json/json.hpp"
#include "bridge/contact_failure.hpp"
#include "net/http_client.hpp"
#include "net/net_failure.hpp"
#include "util/peer_proof.hpp"

namespace opentabs::bridge {

namespace {

error impostor(std::uint16_t port, std::string_view why) {
  std::string owner = describe_port_owner(port);
  return make_error(contact_failure::not_opentabs,
                    "the program listening on port " + std::to_string(port) + (owner.empty() ? "" : " (" + owner + ")") +
                        " is not this opentabs server: " + std::string(why) +
                        "; nothing was sent to it. Stop it, then run `opentabs start`");
}

// Socket inodes of listeners on `port` in /proc/net/tcp or tcp6 (state 0A = LISTEN).
std::vector<std::string> listening_inodes(std::uint16_t port) {
  std::vector<std::string> out;
  char want[8];
  std::snprintf(want, sizeof want, ":%04X", port);
  for (const char* table : {"/proc/net/tcp", "/proc/net/tcp6"}) {
    std::ifstream in(table);
    std::string line;
    std::getline(in, line);  // header
    while (std::getline(in, line)) {
      std::istringstream fields(line);
      std::string slot, local, remote, state, queues, timer, retransmits, uid, timeout, inode;
      fields >> slot >> local >> remote >> state >> queues >> timer >> retransmits >> uid >> timeout >> inode;
      if (state == "0A" && local.size() > 5 && local.ends_with(want)) out.push_back(inode);
    }
  }
  return out;
}

}  // namespace

std::string describe_port_owner(std::uint16_t port) {
  auto inodes = listening_inodes(port);
  if (inodes.empty()) return {};
  DIR* proc = ::opendir("/proc");
  if (!proc) return {};
  std::string found;
  while (dirent* pid_entry = ::readdir(proc)) {
    std::string pid = pid_entry->d_name;
    if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string fd_dir = "/proc/" + pid + "/fd";
    DIR* fds = ::opendir(fd_dir.c_str());
    if (!fds) continue;
    while (dirent* fd = ::readdir(fds)) {
      char target[64];
      ssize_t n = ::readlink((fd_dir + "/" + fd->d_name).c_str(), target, sizeof target - 1);
      if (n <= 0) continue;
      target[n] = '\0';
      for (const auto& inode : inodes)
        if (std::string_view(target) == "socket:[" + inode + "]") found = pid;
      if (!found.empty()) break;
    }
    ::closedir(fds);
    if (!found.empty()) break;
  }
  ::closedir(proc);
  if (found.empty()) return {};
  std::ifstream comm("/proc/" + found + "/comm");
  std::string name;
  std::getline(comm, name);
  return "pid " + found + (name.empty() ? "" : " (" + name.substr(0, 64) + ")");
}

net::awaitable<result<std::string>> prove_server(std::uint16_t port, std::string_view secret,
                                                 std::chrono::milliseconds timeout) {
  net::http_client_options opts;
  opts.connect_timeout = timeout;
  opts.idle_timeout = timeout;
  opts.total_timeout = timeout;
  net::http_client client(co_await asio::this_coro::executor, "127.0.0.1", port, opts);
  const std::string client_nonce = peer_proof::new_nonce();
  net::http_client_request req{"GET", std::string(peer_proof::kChallengePath) + "?clientNonce=" + client_nonce, {}, ""};
  auto r = co_await client.send(req);
  if (!r) {
    if (r.err().is(net::net_failure::connect_failed)) co_return r.err();
    co_return impostor(port, "it did not answer the opentabs challenge (" + r.err().message + ")");
  }
  if (r->status() != 200) co_return impostor(port, "it answered the challenge with HTTP " + std::to_string(r->status()));
  auto body = json::parse_object(r->body);
  const auto* server_nonce = body ? json::get_string(*body, "serverNonce") : nullptr;
  const auto* server_proof = body ? json::get_string(*body, "serverProof") : nullptr;
  if (!server_nonce || !server_proof || !peer_proof::is_nonce(*server_nonce))
    co_return impostor(port, "its answer to the challenge is not an opentabs proof");
  if (!peer_proof::proof_matches(*server_proof, peer_proof::server_proof(secret, client_nonce, *server_nonce)))
    co_return impostor(port, "it could not prove it knows the secret in auth.json (or it is an opentabs server of another config folder)");
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
