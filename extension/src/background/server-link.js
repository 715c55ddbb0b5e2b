// The background's side of the connection: makes sure the offscreen document (which owns the
// WebSocket) exists, sends JSON-RPC messages to the server through it, and correlates the
// extension's own requests (integer ids from 1, 30 s timeout) with their responses.

import { DEFAULT_SERVER_PORT, EXTENSION_REQUEST_TIMEOUT_MS, ProtocolError, ERR_INTERNAL } from '../shared/constants.js';

const OFFSCREEN_URL = 'offscreen/offscreen.html';
let creating = null;
let nextRequestId = 1;
const pending = new Map(); // id -> {resolve, reject, timer}

export async function ensureOffscreen() {
  const contexts = await chrome.runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT'] });
  if (contexts.length > 0) return;
  if (!creating) {
    creating = chrome.offscreen.createDocument({
      url: OFFSCREEN_URL,
      reasons: ['WORKERS'],
      justification: 'Holds the WebSocket to the local opentabs server while the service worker sleeps.',
    }).catch((err) => {
      if (!String(err?.message).includes('single offscreen')) throw err;
    }).finally(() => { creating = null; });
  }
  await creating;
}

export async function hasOffscreen() {
  const contexts = await chrome.runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT'] });
  return contexts.length > 0;
}

// Sends one JSON-RPC object; resolves true when the socket was open.
export async function sendToServer(message) {
  await ensureOffscreen();
  try {
    const reply = await chrome.runtime.sendMessage({ target: 'offscreen', type: 'ws:send', message });
    return Boolean(reply?.ok);
  } catch {
    return false;
  }
}

export function notifyServer(method, params) {
  return sendToServer(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
}

export function replyResult(id, result) {
  return sendToServer({ jsonrpc: '2.0', result, id });
}

export function replyError(id, code, message, data) {
  const error = data === undefined ? { code, message } : { code, message, data };
  return sendToServer({ jsonrpc: '2.0', error, id });
}

// An extension→server request; resolves with `result` or rejects with a ProtocolError.
export async function requestServer(method, params) {
  const id = nextRequestId++;
  const promise = new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      pending.delete(id);
      reject(new ProtocolError(ERR_INTERNAL, `Request ${method} timed out`));
    }, EXTENSION_REQUEST_TIMEOUT_MS);
    pending.set(id, { resolve, reject, timer });
  });
  const sent = await sendToServer(params === undefined ? { jsonrpc: '2.0', method, id } : { jsonrpc: '2.0', method, params, id });
  if (!sent) {
    const entry = pending.get(id);
    if (entry) { clearTimeout(entry.timer); pending.delete(id); }
    throw new ProtocolError(ERR_INTERNAL, 'Not connected to the opentabs server');
  }
  return promise;
}

// Routes a response (id, no method).  Responses to ids this worker did not issue — the server
// broadcasts responses to every connection, and a restarted worker forgets old ids — are ignored.
export function handleServerResponse(message) {
  const entry = pending.get(message.id);
  if (!entry) return;
  clearTimeout(entry.timer);
  pending.delete(message.id);
  if (message.error) {
    entry.reject(new ProtocolError(message.error.code ?? ERR_INTERNAL, String(message.error.message ?? 'Server error'), message.error.data));
  } else {
    entry.resolve(message.result);
  }
}

export function failPendingRequests(reason) {
  for (const [id, entry] of pending) {
    clearTimeout(entry.timer);
    entry.reject(new ProtocolError(ERR_INTERNAL, reason));
    pending.delete(id);
  }
}

// Port precedence: the side panel's `serverPort` in chrome.storage.local, then `server.json`
// in the extension folder (written by the server or a test), then 9515.
export async function resolveServerPort() {
  const { serverPort } = await chrome.storage.local.get('serverPort');
  if (Number.isInteger(serverPort) && serverPort > 0 && serverPort < 65536) return serverPort;
  try {
    const res = await fetch(chrome.runtime.getURL(`server.json?_t=${Date.now()}`), { cache: 'no-store' });
    if (res.ok) {
      const { port } = await res.json();
      if (Number.isInteger(port) && port > 0 && port < 65536) return port;
    }
  } catch {
    // No server.json: fall through to the default.
  }
  return DEFAULT_SERVER_PORT;
}

// The persistent connectionId (a UUID kept in chrome.storage.local across browser restarts).
let connectionIdPromise = null;
export function connectionId() {
  connectionIdPromise ??= (async () => {
    const { connectionId: saved } = await chrome.storage.local.get('connectionId');
    if (typeof saved === 'string' && saved) return saved;
    const fresh = crypto.randomUUID();
    await chrome.storage.local.set({ connectionId: fresh });
    return fresh;
  })();
  return connectionIdPromise;
}

// Tears down the offscreen document (and with it the socket) and starts a fresh one, which
// re-reads auth.json and reconnects.  Used for `extension.reload`: chrome.runtime.reload() would
// also do it, but in current Chromium it leaves an extension that was loaded with
// --load-extension disabled (observed with Chromium 156), so a server-triggered reload must not
// depend on it.
export async function restartConnection() {
  failPendingRequests('Connection restarting');
  if (await hasOffscreen()) await chrome.offscreen.closeDocument().catch(() => {});
  await ensureOffscreen();
}

export async function forceReconnect() {
  await ensureOffscreen();
  await chrome.runtime.sendMessage({ target: 'offscreen', type: 'ws:reconnect' }).catch(() => {});
}
