#include "app/tool_backend.hpp"

#include "app/extension_hub.hpp"
#include "util/log.hpp"

namespace opentabs::app {

call_target tool_backend::take_target(json::object&) const { return {}; }

net::awaitable<void> tool_backend::await_ready(const tools::tool_def&) { co_return; }

net::awaitable<result<std::shared_ptr<const schema::validator>>> tool_backend::validator_for(const tools::tool_def& tool) {
  co_return make_error(errc::tool_failed, "Tool \"" + tool.name +
                                              "\" cannot be called: its input schema could not be compiled (see the server log).");
}

status tool_backend::check_arguments(const schema::validator& validator, const tools::tool_def&,
                                     const json::object& args) const {
  if (auto v = validator.check(args)) return make_error(errc::tool_failed, "Invalid arguments:\n  - " + v->display_path() + ": " + v->message);
  return ok_t{};
}

tool_backend& tool_backends::for_kind(tools::tool_kind kind) const {
  switch (kind) {
    case tools::tool_kind::plugin: return plugin;
    case tools::tool_kind::browser: return browser;
    case tools::tool_kind::platform: return platform;
    case tools::tool_kind::webmcp: return webmcp;
  }
  return browser;
}

std::string extension_not_connected_text(const extension_hub& hub) {
  std::string text = "Extension not connected. Please ensure the OpenTabs Chrome extension is running";
  if (!hub.install_hint().empty()) text += " (loaded unpacked from " + hub.install_hint() + ")";
  return text + ": it connects within a few seconds of the server starting; then call the tool again.";
}

net::awaitable<void> wait_for_expected_extension(extension_hub& hub, const tools::tool_def& tool, bool tabs_too) {
  if (!hub.extension_expected()) co_return;
  log::info("tool " + tool.name + ": waiting up to " + std::to_string(hub.reconnect_wait().count()) +
            " ms for the browser extension to connect");
  co_await hub.await_expected_extension(tabs_too);
}

}  // namespace opentabs::app
