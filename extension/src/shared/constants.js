// Protocol constants shared by the offscreen socket owner, the background service worker and
// the side panel: timings from the OpenTabs protocol (§3.3), JSON-RPC error codes (§3.7) and
// the plugin-name rules (§3.6).  One place, so every part agrees on the same numbers.

export const DEFAULT_SERVER_PORT = 9515;

// §3.3 keep-alive and timing constants.
export const PING_INTERVAL_MS = 15_000;
export const PONG_DEADLINE_MS = 5_000;
export const RECONNECT_BACKOFF_MS = [1_000, 2_000, 3_000];
export const AUTH_FETCH_TIMEOUT_MS = 1_000;
export const WS_INFO_TIMEOUT_MS = 3_000;
export const EXTENSION_REQUEST_TIMEOUT_MS = 30_000;
export const READINESS_POLL_MS = 30_000;
export const READINESS_PROBE_TIMEOUT_MS = 5_000;
export const SCRIPT_TIMEOUT_MS = 25_000;
export const SCRIPT_TIMEOUT_CAP_MS = 295_000;
export const SYNC_REQUEST_DEBOUNCE_MS = 5_000;
export const HASH_RETRY_DELAY_MS = 200;
export const MAX_DISPATCH_INPUT_BYTES = 10 * 1024 * 1024;
export const MAX_ERROR_MESSAGE_CHARS = 2_000;

// JSON-RPC error codes used on the extension side of tool.dispatch (§3.7).
export const ERR_TAB_CLOSED = -32001;
export const ERR_NOT_READY = -32002;
export const ERR_URL_MISMATCH = -32003;
export const ERR_METHOD_NOT_FOUND = -32601;
export const ERR_INVALID_PARAMS = -32602;
export const ERR_INTERNAL = -32603;

export const PLUGIN_NAME_REGEX = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const RESERVED_PLUGIN_NAMES = new Set([
  'system', 'browser', 'opentabs', 'extension', 'config', 'plugin', 'tool', 'mcp',
]);

export const PERMISSIONS = ['off', 'ask', 'auto'];

// An error that carries a JSON-RPC code (and optional data) to the wire.
export class ProtocolError extends Error {
  constructor(code, message, data) {
    super(message);
    this.code = code;
    if (data !== undefined) this.data = data;
  }
}

// A plugin name the extension will store and inject: valid kebab-case and not reserved.
export function isSafePluginName(name) {
  return typeof name === 'string' && name.length <= 100 && PLUGIN_NAME_REGEX.test(name) &&
    !RESERVED_PLUGIN_NAMES.has(name);
}
