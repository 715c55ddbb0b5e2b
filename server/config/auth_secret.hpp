// The shared secret in extension/auth.json (spec §2.3): the bearer token for HTTP and the
// WebSocket subprotocol credential.  We write {"secret":"<64 lowercase hex>"} plus a newline,
// mode 0600; like the original we accept any other secret a person or a tool wrote there,
// as long as it can travel as a token (is_valid_secret).  No function here ever puts the secret (or any part of the
// file) into an error message; callers may log every error they get.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "util/result.hpp"

namespace opentabs::config {

namespace fs = std::filesystem;

// auth.json is tiny; anything bigger is not ours.
inline constexpr std::size_t kMaxAuthFileBytes = 4096;

// A secret we accept: 1 to kMaxSecretLength HTTP token characters (letters, digits,
// !#$%&'*+-.^_`|~), which can be sent as a bearer token and inside Sec-WebSocket-Protocol.
// The ones we generate are 64 lowercase hex characters (32 random bytes).
inline constexpr std::size_t kMaxSecretLength = 512;
bool is_valid_secret(std::string_view secret) noexcept;

// A new secret from the OS CSPRNG.
std::string generate_secret();

// {"secret":"..."} + "\n", the exact bytes written to auth.json.
std::string format_auth_json(std::string_view secret);

// Extracts the secret from auth.json text.  Errors: "invalid_auth" (not JSON, not an object,
// no/invalid secret).  `path` only labels the message.
result<std::string> parse_auth_json(std::string_view text, const fs::path& path);

// Reads and validates auth.json.  Errors: "not_found", "invalid_auth", "io", "too_large".
result<std::string> load_secret(const fs::path& auth_json);

struct secret_outcome {
  std::string secret;
  bool generated = false;             // true when a new secret was written
  std::vector<std::string> warnings;  // for the caller's log; never contain the secret
};

// Loads the secret, or generates and writes a new one when the file is missing or invalid.
// Creates the parent directory (0700) when missing and tightens a file readable by others
// back to 0600.  Errors only when the new secret cannot be written ("io").
result<secret_outcome> ensure_secret(const fs::path& auth_json);

// Writes a fresh secret (atomically, 0600) and returns it.
result<std::string> rotate_secret(const fs::path& auth_json);

// "abcd...wxyz" for display (`config show`); "****" for anything of 8 characters or less.
std::string mask_secret(std::string_view secret);

}  // namespace opentabs::config
