#include "mcp/protocol_version.hpp"

#include "util/strings.hpp"

namespace opentabs::mcp {

bool is_supported_version(std::string_view v) {
  for (auto s : supported_protocol_versions)
    if (s == v) return true;
  return false;
}

std::string supported_versions_text() {
  std::string out;
  for (auto s : supported_protocol_versions) {
    if (!out.empty()) out += ", ";
    out += s;
  }
  return out;
}

std::string negotiate_version(std::string_view requested) {
  if (is_supported_version(requested)) return std::string(requested);
  return std::string(latest_protocol_version);
}

result<std::string> effective_version(std::string_view header, std::string_view negotiated) {
  auto h = trim(header);
  if (h.empty()) return std::string(negotiated.empty() ? default_header_version : negotiated);
  if (is_supported_version(h)) return std::string(h);
  std::string shown(h.substr(0, 40));
  return make_error(errc::unsupported, "Bad Request: Unsupported protocol version \"" + shown +
                                                        "\" in MCP-Protocol-Version (supported versions: " +
                                                        supported_versions_text() + ")");
}

bool allows_batches(std::string_view negotiated) { return negotiated == "2025-03-26"; }

}  // namespace opentabs::mcp
