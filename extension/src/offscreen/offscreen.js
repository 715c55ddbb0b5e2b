// The socket owner (protocol §3.1–§3.3).  Runs in the offscreen document, which Chrome keeps
// alive while the service worker is suspended, so the WebSocket to the server survives the
// worker's 30 s idle shutdown.  It bootstraps the secret from the extension's own `auth.json`,
// asks the background for port + connectionId, calls `GET /ws-info`, opens the socket with the
// subprotocols ['opentabs', <proof credential>, connectionId], pings every 15 s (5 s pong deadline), and
// reconnects with 1–2–3 s back-off.  Inbound messages pass the allow-list and are relayed to the
// background with chrome.runtime messages; the background sends replies back through `ws:send`.
//
// The secret never leaves this document.  Before anything else the program on the port must
// prove it knows it (peer proof, server/util/peer_proof.hpp): this side sends a random nonce
// to /auth/challenge and checks the HMAC that comes back.  Only then does it authenticate,
// with a credential bound to that server's nonce (OpenTabs-Proof), never with the secret; a
// program that cannot prove the secret gets nothing and its port is reported as an impostor.

import {
  PING_INTERVAL_MS, PONG_DEADLINE_MS, RECONNECT_BACKOFF_MS, AUTH_FETCH_TIMEOUT_MS, WS_INFO_TIMEOUT_MS,
} from '../shared/constants.js';
import { isAllowedInbound, DISPATCH_METHODS } from '../shared/allowed-methods.js';
import { outboundText } from '../shared/outbound-size.js';

const MAX_INBOUND_CHARS = 20 * 1024 * 1024;
// manifest.json's version, read once at load (announced with the capabilities).
let EXTENSION_VERSION = null;
fetch(chrome.runtime.getURL('manifest.json')).then((r) => r.json()).then((m) => {
  if (typeof m?.version === 'string') EXTENSION_VERSION = m.version.slice(0, 64);
}).catch(() => {});

let socket = null;
let generation = 0;            // bumps on every (re)connect so stale callbacks are ignored
let failures = 0;              // consecutive failed attempts, indexes the back-off table
let reconnectTimer = null;
let pingTimer = null;
let pongTimer = null;
let status = { state: 'connecting', detail: '', port: null };

function setStatus(state, detail = '', port = status.port) {
  status = { state, detail, port, since: Date.now() };
  chrome.runtime.sendMessage({ target: 'background', type: 'ws:state', ...status }).catch(() => {});
}

async function fetchWithTimeout(url, options, timeoutMs) {
  return fetch(url, { ...options, cache: 'no-store', signal: AbortSignal.timeout(timeoutMs) });
}

// The shared secret from auth.json in this extension's own folder, re-read on every call.
async function readSecret() {
  try {
    const res = await fetchWithTimeout(chrome.runtime.getURL(`auth.json?_t=${Date.now()}`), {}, AUTH_FETCH_TIMEOUT_MS);
    if (!res.ok) return null;
    const body = await res.json();
    return typeof body?.secret === 'string' && /^[0-9a-f]{16,256}$/i.test(body.secret) ? body.secret : null;
  } catch {
    return null;
  }
}

async function askBackground(type) {
  for (let tries = 0; tries < 3; tries += 1) {
    try {
      const reply = await chrome.runtime.sendMessage({ target: 'background', type });
      if (reply) return reply;
    } catch {
      // The worker may be restarting; try again shortly.
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return null;
}

const hex = (bytes) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');
async function hmacHex(secret, message) {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return hex(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(message)));
}
// Equal-length hex strings compared without an early exit.
function sameHex(a, b) {
  if (typeof a !== 'string' || a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i += 1) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

// The peer proof: {status: 'proved', token} once the server has shown it knows `secret`;
// {status: 'wrong_proof'} for an opentabs-shaped answer whose proof does not match (a stale
// auth.json, or a program imitating opentabs: the two cannot be told apart);
// {status: 'impostor'} when the listener answers the challenge with something else;
// {status: 'unreachable'} when nothing, or a busy server, answered.
async function proveServer(port, secret) {
  const clientNonce = hex(crypto.getRandomValues(new Uint8Array(32)));
  let body;
  try {
    // The tag shows the server that this caller holds the secret (a web page cannot make
    // it, nor send the header); it proves nothing a listener could reuse.
    const tag = await hmacHex(secret, `opentabs-proof-1 challenge ${clientNonce}`);
    const res = await fetchWithTimeout(`http://127.0.0.1:${port}/auth/challenge?clientNonce=${clientNonce}`, {
      headers: { 'X-OpenTabs-Challenge-Tag': tag },
    }, WS_INFO_TIMEOUT_MS);
    // A busy or rate-limited server is opentabs having a bad moment, not an impostor: try again later.
    if (res.status === 429 || res.status >= 500) return { status: 'unreachable' };
    // An opentabs server refuses a tag made with another secret (a stale auth.json).
    if (res.status === 401) return { status: 'wrong_proof' };
    body = res.ok ? await res.json() : null;
  } catch (err) {
    // Only an answer that is not JSON says "not opentabs"; a refused connection or a timeout
    // says nothing about who listens.
    return { status: err instanceof SyntaxError ? 'impostor' : 'unreachable' };
  }
  const serverNonce = body?.serverNonce;
  if (typeof serverNonce !== 'string' || !/^[0-9a-f]{64}$/.test(serverNonce)) return { status: 'impostor' };
  const expected = await hmacHex(secret, `opentabs-proof-1 server ${clientNonce} ${serverNonce}`);
  if (!sameHex(body.serverProof, expected)) return { status: 'wrong_proof' };
  const clientProof = await hmacHex(secret, `opentabs-proof-1 client ${clientNonce} ${serverNonce}`);
  return { status: 'proved', token: `${serverNonce}.${clientProof}` };
}

// GET /ws-info with the proof credential; returns {status, wsUrl?}.
async function fetchWsInfo(port, token) {
  try {
    const res = await fetchWithTimeout(`http://127.0.0.1:${port}/ws-info`, {
      headers: { Authorization: `OpenTabs-Proof ${token}` },
    }, WS_INFO_TIMEOUT_MS);
    if (!res.ok) return { status: res.status };
    const body = await res.json();
    return { status: res.status, wsUrl: body?.wsUrl };
  } catch {
    return { status: 0 };
  }
}

// The socket URL is accepted only if it points back at the same host:port over ws(s) at /ws.
function acceptedWsUrl(wsUrl, port) {
  try {
    const u = new URL(wsUrl);
    if ((u.protocol !== 'ws:' && u.protocol !== 'wss:') || u.pathname !== '/ws') return null;
    if (u.host !== `127.0.0.1:${port}`) return null;
    return u.toString();
  } catch {
    return null;
  }
}

function clearTimers() {
  clearTimeout(reconnectTimer); reconnectTimer = null;
  clearInterval(pingTimer); pingTimer = null;
  clearTimeout(pongTimer); pongTimer = null;
}

function scheduleReconnect() {
  clearTimers();
  const delay = RECONNECT_BACKOFF_MS[Math.min(failures, RECONNECT_BACKOFF_MS.length - 1)];
  failures += 1;
  reconnectTimer = setTimeout(connect, delay);
}

async function connect() {
  clearTimers();
  const myGeneration = ++generation;
  if (socket) {
    const old = socket;
    socket = null;
    try { old.close(1000, 'reconnecting'); } catch { /* already closed */ }
  }
  const params = await askBackground('bg:connectionParams');
  if (myGeneration !== generation) return;
  if (!params) { setStatus('disconnected', 'background unavailable'); scheduleReconnect(); return; }
  const { port, connectionId } = params;

  // The background may know the secret from the native host (extension/src/native/).
  let secret = typeof params.secret === 'string' ? params.secret : await readSecret();
  if (myGeneration !== generation) return;
  if (!secret) { setStatus('disconnected', 'auth.json missing or invalid', port); scheduleReconnect(); return; }

  let proof = await proveServer(port, secret);
  if (proof.status === 'wrong_proof' && !params.secret) {   // the secret may have been rotated: re-read once
    const reread = await readSecret();
    if (reread && reread !== secret) { secret = reread; proof = await proveServer(port, secret); }
  }
  if (myGeneration !== generation) return;
  if (proof.status === 'unreachable') { setStatus('disconnected', 'server unreachable', port); scheduleReconnect(); return; }
  if (proof.status === 'wrong_proof') {
    setStatus('auth_failed', `the program on port ${port} could not prove it knows the secret in auth.json (auth.json is out of date, or the program is not opentabs); nothing was sent to it`, port);
    scheduleReconnect();
    return;
  }
  if (proof.status !== 'proved') {
    setStatus('impostor', `the program listening on port ${port} does not answer the opentabs challenge, so it is not opentabs; nothing was sent to it`, port);
    scheduleReconnect();
    return;
  }
  const info = await fetchWsInfo(port, proof.token);
  if (myGeneration !== generation) return;
  if (info.status === 401) { setStatus('auth_failed', 'the server did not accept this extension\'s proof of the secret', port); scheduleReconnect(); return; }
  if (info.status !== 200) { setStatus('disconnected', info.status ? `ws-info returned HTTP ${info.status}` : 'server unreachable', port); scheduleReconnect(); return; }
  const url = acceptedWsUrl(info.wsUrl, port);
  if (!url) { setStatus('disconnected', 'server returned an unacceptable wsUrl', port); scheduleReconnect(); return; }

  let ws;
  try {
    ws = new WebSocket(url, ['opentabs', `opentabs-proof.${proof.token}`, connectionId]);
  } catch {
    setStatus('disconnected', 'WebSocket could not be created', port); scheduleReconnect(); return;
  }
  socket = ws;
  ws.onopen = () => {
    if (socket !== ws) return;
    failures = 0;
    // First frame: the request methods this extension handles, so the server answers a
    // method it lacks at once (the original extension announces nothing and gets its own set).
    // (An offscreen document has no chrome.runtime.getManifest; the version comes from the
    // extension's own URL space instead, so nothing here can throw before 'connected'.)
    ws.send(JSON.stringify({
      jsonrpc: '2.0', method: 'extension.capabilities',
      params: { methods: DISPATCH_METHODS, ...(EXTENSION_VERSION ? { extensionVersion: EXTENSION_VERSION } : {}) },
    }));
    setStatus('connected', '', port);
    pingTimer = setInterval(sendPing, PING_INTERVAL_MS);
  };
  ws.onmessage = (event) => { if (socket === ws) onInbound(event.data); };
  ws.onclose = (event) => {
    if (socket !== ws) return;
    socket = null;
    setStatus('disconnected', `socket closed (${event.code})`, port);
    scheduleReconnect();
  };
  ws.onerror = () => { /* onclose follows and handles the reconnect */ };
}

function sendPing() {
  if (!socket || socket.readyState !== WebSocket.OPEN) return;
  socket.send(JSON.stringify({ jsonrpc: '2.0', method: 'ping' }));
  clearTimeout(pongTimer);
  const ws = socket;
  pongTimer = setTimeout(() => { if (socket === ws) ws.close(4000, 'pong timeout'); }, PONG_DEADLINE_MS);
}

function onInbound(data) {
  if (typeof data !== 'string' || data.length > MAX_INBOUND_CHARS) return;
  let message;
  try { message = JSON.parse(data); } catch { return; }
  if (message?.method === 'pong') { clearTimeout(pongTimer); pongTimer = null; return; }
  if (!isAllowedInbound(message)) return;
  relay(message, 0);
}

function relay(message, attempt) {
  chrome.runtime.sendMessage({ target: 'background', type: 'ws:message', message }).catch(() => {
    // The worker can be between shutdown and restart; one retry covers that gap.
    if (attempt < 2) setTimeout(() => relay(message, attempt + 1), 100);
  });
}

chrome.runtime.onMessage.addListener((msg, _sender, sendResponse) => {
  if (msg?.target !== 'offscreen') return false;
  switch (msg.type) {
    case 'ws:send': {
      const open = socket && socket.readyState === WebSocket.OPEN;
      // An oversized reply fails only its own call (shared/outbound-size.js), not the socket.
      const out = open ? outboundText(msg.message) : { text: null };
      if (out.text !== null) socket.send(out.text);
      if (out.replaced || (open && out.text === null)) console.warn(`[OpenTabs] ${out.reason ?? 'an oversized reply was replaced by an error'}`);
      sendResponse(open && out.text !== null ? { ok: true } : { ok: false, ...(open ? { error: out.reason } : {}) });
      return false;
    }
    case 'ws:reconnect':
      failures = 0;
      connect();
      sendResponse({ ok: true });
      return false;
    case 'ws:getState':
      sendResponse(status);
      return false;
    default:
      return false;
  }
});

connect();
