// Native messaging to the local `opentabs` binary (host `com.opentabs.server`, installed with
// `opentabs native-host install`).  Before each connection attempt the socket owner asks the
// background for connection parameters; this module adds the server's port and secret as the
// host reports them — so nothing has to be copied into the extension folder — and asks the host
// to start the server when none is running.  Without an installed host (or when the user set a
// port in the side panel) it contributes nothing and the files (auth.json, server.json) are used.
//
// Every sendNativeMessage starts a host process, so answers are cached briefly and failures
// back off: a missing host is retried after 60 s, a failed start after 10 s.

export const NATIVE_HOST = 'com.opentabs.server';
const ANSWER_TTL_MS = 30_000;
const HOST_MISSING_RETRY_MS = 60_000;
const START_FAILED_RETRY_MS = 10_000;
const HOST_TIMEOUT_MS = 25_000;

const MIN_ASK_GAP_MS = 5_000;

let cached = null;          // {port, secret, at}
let lastAskAt = 0;
let retryAfter = 0;
let lastError = '';
let inFlight = null;

const validPort = (p) => Number.isInteger(p) && p > 0 && p < 65536;
const validSecret = (s) => typeof s === 'string' && /^[0-9a-f]{16,256}$/i.test(s);

function ask(message) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer from the native host within ${HOST_TIMEOUT_MS / 1000} s`)), HOST_TIMEOUT_MS);
    chrome.runtime.sendNativeMessage(NATIVE_HOST, message).then(
      (reply) => { clearTimeout(timer); resolve(reply); },
      (err) => { clearTimeout(timer); reject(err); });
  });
}

// The last outcome, for diagnostics (no secret).
export function nativeStatus() {
  return { available: Boolean(cached), port: cached?.port ?? null, lastError, retryAfter };
}

// Forget the cached answer (the connection it described failed); the next attempt asks the
// host again (at most every 5 s), which also starts a server that has stopped.
export function invalidateNativeAnswer() { if (cached) cached.at = 0; }

// {port, secret} from the host, or {} when native messaging is not usable right now.
export async function nativeConnectionParams() {
  if (typeof chrome.runtime.sendNativeMessage !== 'function') return {};
  const { serverPort } = await chrome.storage.local.get('serverPort');
  if (validPort(serverPort)) return {};  // the user chose a server in the side panel
  const now = Date.now();
  if (cached && (now - cached.at < ANSWER_TTL_MS || now - lastAskAt < MIN_ASK_GAP_MS)) return { port: cached.port, secret: cached.secret };
  if (now < retryAfter) return {};
  lastAskAt = now;
  inFlight ??= (async () => {
    try {
      const reply = await ask({ type: 'getServer', start: true });
      if (reply?.type === 'server' && validPort(reply.port) && validSecret(reply.secret)) {
        cached = { port: reply.port, secret: reply.secret, at: Date.now() };
        lastError = '';
        return;
      }
      cached = null;
      lastError = typeof reply?.message === 'string' ? reply.message.slice(0, 500) : 'unexpected answer from the native host';
      retryAfter = Date.now() + START_FAILED_RETRY_MS;
    } catch (err) {
      cached = null;
      lastError = String(err?.message ?? err).slice(0, 500);
      retryAfter = Date.now() + HOST_MISSING_RETRY_MS;
    }
  })().finally(() => { inFlight = null; });
  await inFlight;
  return cached ? { port: cached.port, secret: cached.secret } : {};
}

// A failed or lost connection makes the cached answer stale.
const OFFSCREEN_PAGE = chrome.runtime.getURL('offscreen/offscreen.html');
chrome.runtime.onMessage.addListener((msg, sender) => {
  if (msg?.target === 'background' && msg.type === 'ws:state' && msg.state !== 'connected' &&
      msg.state !== 'connecting' && sender.url?.startsWith(OFFSCREEN_PAGE)) invalidateNativeAnswer();
  return false;
});
