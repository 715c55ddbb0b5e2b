// The npm side of plugin management (spec §3.5 plugin.*, §1.2 plugin-management.ts and
// version-check.ts, §1.3 install shorthand), without any I/O: which names may reach npm,
// the argv of every npm command we run, and what npm's output means (search JSON, `npm
// view` JSON, the reason and code of a failure).  plugin_manager runs the commands.
//
// Every argv ends its options with "--" and only carries names that passed the npm name
// rules, so nothing a caller sends can become an npm option or a shell word.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "json/json.hpp"
#include "util/failure_reason.hpp"
#include "util/result.hpp"

namespace opentabs::app::npm {

inline constexpr std::string_view official_scope = "@opentabs-dev";
inline constexpr std::size_t max_package_name_length = 214;
inline constexpr std::size_t max_search_query_length = 200;
inline constexpr std::size_t max_search_results = 20;
inline constexpr std::size_t max_icon_svg_bytes = 64 * 1024;

// The npm rules for a new package name: ≤214 characters, lowercase, `[a-z0-9-._~]`, not
// starting with '.', '_' or '-' (so never an option), optionally `@scope/` with the same
// rules for the scope; "node_modules" and "favicon.ico" are refused.
bool is_valid_package_name(std::string_view name) noexcept;

// A valid package name of the form `opentabs-plugin-<x>` or `@<scope>/opentabs-plugin-<x>`
// whose plugin name (spec §4.1) is valid and not reserved.
bool is_plugin_package_name(std::string_view name) noexcept;

// What `plugin install <name>` may mean (spec §1.3): a full package name as given; a
// shorthand `slack` → `@opentabs-dev/opentabs-plugin-slack`, then `opentabs-plugin-slack`.
// Error code "invalid_params" naming the input and the rule it breaks.
result<std::vector<std::string>> plugin_package_candidates(std::string_view input);

// argv (argv[0] = "npm") of each command.  `package` must have passed is_valid_package_name.
std::vector<std::string> install_argv(const std::string& package);
std::vector<std::string> update_argv(const std::string& package);
std::vector<std::string> uninstall_argv(const std::string& package);
std::vector<std::string> view_version_argv(const std::string& package);
// The `opentabs` field of one published version (displayName, icons) for search results.
std::vector<std::string> view_manifest_argv(const std::string& package, const std::string& version);
// `npm search --json` over packages with the keyword opentabs-plugin, narrowed by `query`.
std::vector<std::string> search_argv(const std::string& query);

// The `query` of plugin.search: absent/empty → "", else a string of ≤200 characters
// without control characters.  Error code "invalid_params".
result<std::string> search_query_from(const json::value* query);

struct search_hit {
  std::string name;
  std::string description;
  std::string version;
  std::string author;
  // From the package's `opentabs` field when it could be read; name otherwise.
  std::string display_name;
  std::string icon_svg;
  std::string icon_dark_svg;
};

// `npm search --json` output: a JSON array of {name, version, description?, author?,
// publisher?}.  Entries that are not plugin packages are dropped; at most
// max_search_results are kept.  Error code "bad_output" when it is not such an array.
result<std::vector<search_hit>> parse_search_output(std::string_view stdout_text);

// `npm view <pkg>@<v> opentabs --json`: fills display name and icons (bounded) of `hit`;
// leaves it alone when the output is not an object.
void apply_manifest_output(search_hit& hit, std::string_view stdout_text);

json::object search_hit_json(const search_hit& hit);

// `npm view <pkg> version --json` prints a JSON string (older npm: the bare version).
// nullopt unless it is a plausible version (digits, letters, '.', '-', '+', ≤64 chars).
std::optional<std::string> parse_view_version(std::string_view stdout_text);

// major.minor.patch comparison with prerelease suffixes and a leading 'v' ignored, as the
// real version-check.ts does: true when `latest` is strictly newer.
bool is_newer(std::string_view current, std::string_view latest);

// What went wrong in a failed npm run, from its stderr ("npm error code E404", "npm ERR!
// 404 Not Found - GET …", "npm error request to … failed, reason: …").
// `kind` is what callers branch on (and the reason of the error failure_error makes);
// `code` is npm's own text, shown to people and carried on the extension channel as
// npmErrorCode.
enum class failure_kind {
  other,
  package_not_found,  // E404: the registry has no such package
  no_permission,      // EACCES / EPERM: npm cannot write its global directory
  unreachable,        // a network-level code: the registry could not be reached at all
};

constexpr std::string_view to_string(failure_kind k) {
  switch (k) {
    case failure_kind::other: return "npm_failed";
    case failure_kind::package_not_found: return "package_not_found";
    case failure_kind::no_permission: return "no_permission";
    case failure_kind::unreachable: return "registry_unreachable";
  }
  return "npm_failed";
}

constexpr errc kind_of(failure_kind k) { return k == failure_kind::unreachable ? errc::unavailable : errc::io; }

inline std::error_code make_error_code(failure_kind k) { return reason_code(k); }

struct failure {
  std::string code;    // "E404", "ECONNREFUSED", … or empty
  std::string reason;  // the most telling line, credentials redacted, ≤300 chars
  failure_kind kind = failure_kind::other;
};
failure describe_failure(std::string_view stderr_text, int exit_code);

// Network-level codes: the registry could not be reached at all.
bool is_network_code(std::string_view code) noexcept;
// The kind of an npm error code: the one place npm's code text is read.
failure_kind kind_of_code(std::string_view code) noexcept;

// The error for a failed npm run: its reason the failure's kind (category io, or unavailable
// when the registry could not be reached) and npm's code in npm_code (extension_error_json
// shows it as npmErrorCode).
error failure_error(const failure& f, std::string message);

// One sentence for people: "npm install opentabs-plugin-x failed: the npm registry could not
// be reached (ECONNREFUSED: request to … failed)".
std::string failure_message(std::string_view action, std::string_view package, const failure& f);

// Removes credentials from text that may contain registry URLs or npm config lines:
// `//user:pass@host` → `//***@host`, `_authToken=…`/`_auth=…`/`_password=…` → `=***`.
std::string redact_credentials(std::string_view text);

}  // namespace opentabs::app::npm

template <>
struct std::is_error_code_enum<opentabs::app::npm::failure_kind> : std::true_type {};
