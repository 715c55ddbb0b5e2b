#include "config/auth_secret.hpp"

#include "config/config_paths.hpp"
#include "json/json.hpp"
#include "platform/file_access.hpp"
#include "util/files.hpp"
#include "util/random.hpp"

namespace opentabs::config {
namespace {

error invalid_auth(const fs::path& path, std::string_view why) {
  return make_error(errc::invalid_params, path.string() + " " + std::string(why));
}

}  // namespace

bool is_valid_secret(std::string_view secret) noexcept {
  if (secret.empty() || secret.size() > kMaxSecretLength) return false;
  // RFC 9110 token characters: the secret travels as a bearer token and as one entry of the
  // Sec-WebSocket-Protocol list, where a space, a comma or a quote would split or break it.
  constexpr std::string_view token_punctuation = "!#$%&'*+-.^_`|~";
  for (char c : secret) {
    bool alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (!alnum && token_punctuation.find(c) == std::string_view::npos) return false;
  }
  return true;
}

std::string generate_secret() { return random_hex(32); }

std::string format_auth_json(std::string_view secret) {
  json::object o;
  o["secret"] = json::str(secret);
  return json::dump(o) + "\n";
}

result<std::string> parse_auth_json(std::string_view text, const fs::path& path) {
  // The parser's message names only the position, never the content, so it is safe to pass on.
  auto parsed = json::parse_object(text, json::parse_limits{kMaxAuthFileBytes, 4});
  if (!parsed) return invalid_auth(path, "is not a JSON object: " + parsed.err().message);
  const auto* secret = json::get_string(*parsed, "secret");
  if (!secret) return invalid_auth(path, "has no \"secret\" string");
  if (!is_valid_secret(*secret))
    return invalid_auth(path, "holds a secret that is empty, longer than " + std::to_string(kMaxSecretLength) +
                                  " characters, or has a character other than letters, digits and !#$%&'*+-.^_`|~");
  return std::string(*secret);
}

result<std::string> load_secret(const fs::path& auth_json) {
  auto text = read_file(auth_json, kMaxAuthFileBytes);
  if (!text) return text.err();
  return parse_auth_json(*text, auth_json);
}

result<secret_outcome> ensure_secret(const fs::path& auth_json) {
  secret_outcome out;
  auto loaded = load_secret(auth_json);
  if (loaded) {
    out.secret = std::move(*loaded);
    std::error_code ec;
    if (unsigned mode = platform::file_mode(auth_json, ec); !ec && (mode & 077) != 0) {
      // Someone widened the mode; the secret guards the browser, so put it back.
      if (!platform::set_mode(auth_json, 0600))
        out.warnings.push_back(auth_json.string() + " was readable by other users; its mode is now 0600");
      else
        out.warnings.push_back(auth_json.string() + " is readable by other users and its mode could not be changed");
    }
    return out;
  }
  if (!loaded.err().is(errc::not_found))
    out.warnings.push_back(loaded.err().message + "; generating a new secret");
  if (auto dir = ensure_private_dir(auth_json.parent_path()); !dir) return dir.err();
  out.secret = generate_secret();
  if (auto w = write_file_atomic(auth_json, format_auth_json(out.secret), 0600); !w) return w.err();
  out.generated = true;
  return out;
}

result<std::string> rotate_secret(const fs::path& auth_json) {
  if (auto dir = ensure_private_dir(auth_json.parent_path()); !dir) return dir.err();
  auto secret = generate_secret();
  if (auto w = write_file_atomic(auth_json, format_auth_json(secret), 0600); !w) return w.err();
  return secret;
}

std::string mask_secret(std::string_view secret) {
  if (secret.size() <= 8) return "****";
  return std::string(secret.substr(0, 4)) + "..." + std::string(secret.substr(secret.size() - 4));
}

}  // namespace opentabs::config
