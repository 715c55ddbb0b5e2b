// A call's arguments as people are shown them before they approve it, in the agent's dialog
// and in the OpenTabs side panel alike: secrets redacted, everything else whole, and nothing
// cut without saying so.
#pragma once

#include <cstddef>
#include <string>

#include "json/json.hpp"

namespace opentabs::tools {

// `arguments` for showing to people: values under names that look like secrets (password,
// token, secret, key, authorization, cookie, credential, session) become "[redacted]", and
// secret-shaped text anywhere (util/secret_shapes.hpp) "[redacted <kind>]"; strings are kept
// whole, nesting deeper than eight levels is summarised.
json::object redact_arguments(const json::object& arguments);

// The redacted arguments as the question's text: whole up to max_shown_argument_bytes;
// beyond that the size, the SHA-256 of the whole and both ends, never a silent cut.
inline constexpr std::size_t max_shown_argument_bytes = 32 * 1024;
std::string shown_arguments(const json::object& arguments);

}  // namespace opentabs::tools
