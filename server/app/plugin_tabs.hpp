// Which open tabs belong to which plugin and instance, across every extension connection:
// the plugin_list_tabs tool's answer, and the tab a call addressed by `instance` goes to
// (spec §3.7 step 5: the instance's URL pattern matched by host, 127.0.0.1 and [::1]
// counting as localhost, a ready tab preferred).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "app/extension_hub.hpp"
#include "json/json.hpp"
#include "plugins/plugin.hpp"

namespace opentabs::app {

// "*://host[:port]/*" → "host[:port]"; empty when it has no scheme.
std::string host_of_pattern(std::string_view pattern);
// The host[:port] of a URL as Chrome opens it (the WHATWG parser: a backslash ends the host
// of an http(s) URL), lowercase, without credentials; empty when it has no scheme.
std::string host_of_url(std::string_view url);
// 127.0.0.1 and [::1] (with any port) read as localhost.
std::string normalize_host(std::string host);

// Where a tab is for people: "tab 7 (bank.example)" when a connection reported the tab,
// else "tab 7".
std::string describe_tab(const extension_hub& hub, std::int64_t tab_id);
// The hosts of `plugin`'s open tabs on every connection, each once, for people
// ("app.example, localhost:3000"); empty when none is open.
std::string plugin_tab_hosts(const extension_hub& hub, const std::string& plugin);

// The tab of `plugin` whose host matches `host_pattern`: the first ready one, else the first.
std::optional<std::int64_t> tab_for_host_pattern(const extension_hub& hub, const std::string& plugin,
                                                 std::string_view host_pattern);

// plugin_list_tabs: each plugin (or just `plugin`) with its best tab state and its tabs on
// every connection; {"error": ...} naming the loaded plugins when `plugin` is unknown.
json::value list_plugin_tabs(const std::vector<plugins::plugin>& loaded, const extension_hub& hub,
                             const std::string& plugin);

}  // namespace opentabs::app
