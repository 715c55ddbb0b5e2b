// What the extension hub can still learn from a message too large to parse (over 10 MiB):
// the id of the request it answers, read from the message's first bytes only, so the call
// it belongs to fails at once with "reply too large" instead of waiting for its timeout.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace opentabs::app {

// How far into the message the top-level "id" member is looked for.  Replies put it before
// their result ({"jsonrpc":"2.0","id":"…","result":…}); one placed after a large result is
// not found, and that call still ends at its timeout.
inline constexpr std::size_t oversize_reply_scan_bytes = 4096;

// The string value of the top-level "id" member when it appears within the scanned prefix,
// outside any nested object or array; nullopt otherwise (including non-string ids, which
// the server never uses for its own requests).
std::optional<std::string> leading_reply_id(std::string_view message);

}  // namespace opentabs::app
