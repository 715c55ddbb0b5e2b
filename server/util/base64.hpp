// Base64 (RFC 4648, standard alphabet): decoding for screenshots the extension sends and for
// the public key in an extension manifest; encoding for MCP header values that are not plain
// ASCII (the =?base64?...?= form of MCP 2026-07-28).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace opentabs {

// Decodes standard base64.  Padding is optional and ends the data (what follows '=' is not
// read); line breaks are skipped; any other character outside the alphabet gives nullopt.
std::optional<std::string> decode_base64(std::string_view text);

// Encodes as standard base64 with padding.
std::string encode_base64(std::string_view bytes);

}  // namespace opentabs
