// The inbound allow-list (protocol §3.10): the only server→extension methods the socket owner
// forwards to the background.  Anything else that carries a `method` is dropped silently;
// responses (an `id` without `method`) always pass.

// The `browser.*` methods behind the browser tools of protocol §5, and our additions.
export const BROWSER_METHODS = [
  'listTabs', 'openTab', 'closeTab', 'navigateTab', 'focusTab', 'getTabInfo',
  'listTabGroups', 'createTabGroup', 'addTabsToGroup', 'removeTabsFromGroup', 'updateTabGroup',
  'listTabsInGroup',
  'executeScript', 'screenshotTab', 'getTabContent', 'getPageHtml', 'waitForElement',
  'queryElements', 'getConsoleLogs', 'clearConsoleLogs', 'listResources', 'getResourceContent',
  'getStorage', 'getCookies', 'setCookie', 'deleteCookies',
  'clickElement', 'typeText', 'selectOption', 'pressKey', 'scroll', 'hoverElement', 'handleDialog',
  'enableNetworkCapture', 'getNetworkRequests', 'getWebSocketFrames', 'disableNetworkCapture',
  'interceptRequests', 'fulfillRequest', 'failRequest', 'stopIntercepting', 'throttleNetwork',
  'clearNetworkThrottle',
  'showNotification',
  'emulateDevice', 'setGeolocation', 'setMediaFeatures', 'emulateVisionDeficiency', 'clearEmulation',
  'getElementStyles', 'forcePseudoState', 'getCssCoverage',
  'listWindows', 'createWindow', 'updateWindow', 'closeWindow', 'downloadFile', 'listDownloads',
  'getDownloadStatus', 'searchHistory', 'getVisits', 'searchBookmarks', 'createBookmark',
  'listBookmarkTree', 'getRecentlyClosed', 'restoreSession', 'clearSiteData',
  'snapshot', // opentabs addition: browser_snapshot
  // opentabs additions (issue 15): page actions and the request detail.
  'goBack', 'goForward', 'reloadTab', 'waitForText', 'dragElement', 'uploadFile', 'fillForm',
  'getNetworkRequest',
  // opentabs additions: timed wait, coordinate input, snapshot search, PDF, CPU
  // throttling, extra request headers.
  'wait', 'mouse', 'findText', 'savePdf', 'throttleCpu', 'setExtraHeaders',
  // opentabs addition (issue 37): an MCP client's last session ended (a notification).
  'clientEnded',
].map((m) => `browser.${m}`);

export const EXTENSION_METHODS = [
  'extension.reload', 'extension.getState', 'extension.getLogs', 'extension.getSidePanel',
  'extension.checkAdapter', 'extension.forceReconnect', 'extension.getTabState',
];

// WebMCP page tools (extension/PROTOCOL-WEBMCP.md).
export const WEBMCP_METHODS = ['webmcp.callTool'];

export const DISPATCH_METHODS = [
  'sync.full', 'plugin.update', 'plugin.uninstall', 'tool.dispatch', ...WEBMCP_METHODS,
  ...BROWSER_METHODS, ...EXTENSION_METHODS,
];

export const ALLOWED_INBOUND_METHODS = new Set([
  ...DISPATCH_METHODS,
  'pong', 'tool.invocationStart', 'tool.invocationEnd', 'confirmation.request', 'confirmation.settled', 'confirmation.alwaysAllowed',
  'plugins.changed',
]);

// True when a parsed inbound message may be forwarded.
export function isAllowedInbound(message) {
  if (!message || typeof message !== 'object' || Array.isArray(message)) return false;
  if (typeof message.method === 'string') return ALLOWED_INBOUND_METHODS.has(message.method);
  return message.id !== undefined && message.id !== null;
}
