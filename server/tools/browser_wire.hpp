// The browser.* / extension.* wire contract (extension/PROTOCOL.md): the params the
// OpenTabs 0.0.115 extension understands.  The MCP-facing schemas of the browser tool
// catalog accept both the OpenTabs shapes and some friendlier ones of ours (an array of
// modifier names, position "top"/"bottom", numeric history times, bare pseudo-class names,
// the "fast-3g" preset, level/source "all"); this is the one place where an accepted
// argument becomes its wire shape, so the real extension and ours receive the same params.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "json/json.hpp"

namespace opentabs::tools {

// The scroll offset sent for position "bottom": beyond any page, so the browser clamps it
// to the end of the scroll range.
inline constexpr std::int64_t scroll_bottom_offset = 1'000'000'000;

// The longest browser.waitForElement timeout put on the wire: the extension must answer
// before the server's 30 s dispatch timeout, so longer waits are cut to this.
inline constexpr std::int64_t max_wire_wait_timeout_ms = 25'000;

// The params of the request for `tool_name`, from its validated arguments (after schema
// defaults were filled).  Arguments already in wire shape pass through unchanged; tools
// without translations get their arguments back as they are.
json::object to_wire_params(std::string_view tool_name, json::object arguments);


}  // namespace opentabs::tools
