#include "app/extension_capabilities.hpp"

#include "tools/browser_catalog.hpp"

namespace opentabs::app {

namespace {

constexpr std::size_t kMaxMethods = 1024;
constexpr std::size_t kMaxMethodLength = 128;

}  // namespace

const std::set<std::string, std::less<>>& original_extension_methods() {
  static const std::set<std::string, std::less<>> methods = [] {
    std::set<std::string, std::less<>> m = {"sync.full", "plugin.update", "plugin.uninstall", "tool.dispatch"};
    for (const char* name :
         {"listTabs", "openTab", "closeTab", "navigateTab", "focusTab", "getTabInfo", "listTabGroups", "createTabGroup",
          "addTabsToGroup", "removeTabsFromGroup", "updateTabGroup", "listTabsInGroup", "executeScript", "screenshotTab",
          "getTabContent", "getPageHtml", "waitForElement", "queryElements", "getConsoleLogs", "clearConsoleLogs",
          "listResources", "getResourceContent", "getStorage", "getCookies", "setCookie", "deleteCookies", "clickElement",
          "typeText", "selectOption", "pressKey", "scroll", "hoverElement", "handleDialog", "enableNetworkCapture",
          "getNetworkRequests", "getWebSocketFrames", "disableNetworkCapture", "interceptRequests", "fulfillRequest",
          "failRequest", "stopIntercepting", "throttleNetwork", "clearNetworkThrottle", "showNotification",
          "emulateDevice", "setGeolocation", "setMediaFeatures", "emulateVisionDeficiency", "clearEmulation",
          "getElementStyles", "forcePseudoState", "getCssCoverage", "listWindows", "createWindow", "updateWindow",
          "closeWindow", "downloadFile", "listDownloads", "getDownloadStatus", "searchHistory", "getVisits",
          "searchBookmarks", "createBookmark", "listBookmarkTree", "getRecentlyClosed", "restoreSession",
          "clearSiteData"})
      m.insert(std::string("browser.") + name);
    for (const char* name : {"reload", "getState", "getLogs", "getSidePanel", "checkAdapter", "forceReconnect", "getTabState"})
      m.insert(std::string("extension.") + name);
    return m;
  }();
  return methods;
}

bool extension_capabilities::supports(std::string_view method) const {
  if (!announced) return original_extension_methods().contains(method);
  return methods.contains(method);
}

result<extension_capabilities> parse_capabilities(const json::object& params) {
  const auto* list = json::get_array(params, "methods");
  if (!list) return make_error(errc::invalid_params, "extension.capabilities needs \"methods\": an array of method names");
  if (list->size() > kMaxMethods)
    return make_error(errc::invalid_params, "extension.capabilities lists " + std::to_string(list->size()) +
                                            " methods; at most " + std::to_string(kMaxMethods) + " are accepted");
  extension_capabilities caps;
  caps.announced = true;
  for (const auto& m : *list) {
    if (!m.is_string() || m.get_string().empty() || m.get_string().size() > kMaxMethodLength)
      return make_error(errc::invalid_params, "extension.capabilities: every method must be a string of 1 to " +
                                              std::to_string(kMaxMethodLength) + " characters");
    caps.methods.emplace(std::string_view(m.get_string()));
  }
  if (const auto* v = json::get_string(params, "extensionVersion")) caps.extension_version = std::string(std::string_view(*v).substr(0, 64));
  return caps;
}

std::string tool_of_method(std::string_view method) {
  for (const auto& t : tools::browser_tool_catalog())
    if (t.method == method) return t.name;
  if (method == "webmcp.callTool") return "WebMCP page tools (webmcp.callTool)";
  return std::string(method);
}

std::string unsupported_method_message(std::string_view method, std::string_view install_hint) {
  return "the connected extension does not support " + tool_of_method(method) +
         "; load the opentabs extension from " + std::string(install_hint);
}

}  // namespace opentabs::app
