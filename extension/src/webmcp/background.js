// WebMCP in the service worker: keeps, per tab and frame, the tools that page's relay reported
// (page-relay.js), reports them to the server (webmcp.frameTools, webmcp.syncAll after every
// connect, webmcp.tabRemoved when a tab closes) and serves the server's `webmcp.callTool` by
// forwarding the call to exactly that frame and document.  Protocol: extension/PROTOCOL-WEBMCP.md.
//
// Identity comes from Chrome, never from the page: tab id, frame id, document id and URL are
// those of the message sender.  State lives in chrome.storage.session so a suspended worker
// that wakes up for a call still knows where the tool lives.  Imported once by background.js;
// its listeners are registered at the top level so any of these events wakes the worker.
//
// Pages feed this state, so it is bounded and throttled: a relay sends a list only once the
// worker granted it (webmcp:offer; grants are paced over all tabs, admission.js ReportPacer),
// each frame is stored under its own key (a write carries only the frame that changed), a
// tab's reports are applied at most every FLUSH_GAP_MS (the latest list of a frame replaces
// one still waiting), and frames, origins, tabs, sites and everything together have caps
// (admission.js admit: one tab or site cannot take the room another site's tools need).  The
// session area (10 MB) therefore always has room for the side panel's state and approval
// prompts, and the worker stays free to answer the server.

import { ProtocolError, ERR_INVALID_PARAMS, ERR_TAB_CLOSED } from '../shared/constants.js';
import { registerCommands } from '../browser-commands/index.js';
import { notifyServer, requestServer } from '../background/server-link.js';
import { store } from '../background/store.js';
import { admit, CAPS, REFUSED_RETRY_MS, ReportPacer } from './admission.js';

const FRAME_KEY_PREFIX = 'webmcpFrame:';
const MAX_TOOLS_PER_REPORT = 100;
const FLUSH_GAP_MS = 500;
const MAX_ARGUMENT_CHARS = 1024 * 1024;
// A grant to send a list is used within this time or lapses.
const GRANT_MS = 10_000;
const CALL_TIMEOUT_MS = 28_000;          // inside the server's 30 s dispatch deadline
const OFFSCREEN_PAGE = chrome.runtime.getURL('offscreen/offscreen.html');

// "tabId:frameId" -> {tabId, frameId, documentId, url, tools, origin, site, chars, at}
const frames = new Map();
// Lists reach the worker only when granted (admission.js): "tabId:frameId" -> {chars, until}.
const pacer = new ReportPacer();
const grants = new Map();
const storageKey = (key) => `${FRAME_KEY_PREFIX}${key}`;
const ready = (async () => {
  const saved = await chrome.storage.session.get(null);
  for (const [name, f] of Object.entries(saved)) {
    if (name.startsWith(FRAME_KEY_PREFIX) && f && typeof f === 'object') frames.set(`${f.tabId}:${f.frameId}`, { site: f.origin, ...f });
  }
})();

function forget(key) {
  if (!frames.delete(key)) return Promise.resolve(false);
  return chrome.storage.session.remove(storageKey(key)).then(() => true);
}
function remember(key, frame) {
  frames.set(key, frame);
  return chrome.storage.session.set({ [storageKey(key)]: frame });
}
const frameParams = (f) => ({ tabId: f.tabId, frameId: f.frameId, documentId: f.documentId, url: f.url, tools: f.tools });
const isConnected = () => store.connection?.state === 'connected';

// Keeps only the descriptor fields the protocol carries; the server validates them fully.
function cleanTools(list) {
  const out = [];
  for (const t of list.slice(0, MAX_TOOLS_PER_REPORT)) {
    if (!t || typeof t !== 'object') { out.push(null); continue; }
    const entry = { name: t.name, description: t.description };
    if (t.title !== undefined) entry.title = t.title;
    if (t.inputSchema !== undefined) entry.inputSchema = t.inputSchema;
    if (t.annotations !== undefined) entry.annotations = t.annotations;
    out.push(entry);
  }
  return out;
}

async function report(frame) {
  if (!isConnected()) return { queued: true };
  try {
    return await requestServer('webmcp.frameTools', frameParams(frame));
  } catch (err) {
    return { error: `OpenTabs could not forward the tools: ${err?.message ?? err}` };
  }
}

// Reports waiting per tab: tabId -> {timer, lastFlushAt, entries: Map(frameKey -> {frame, resolve})}.
const waiting = new Map();

async function dropTab(tabId, reason) {
  await ready;
  // Reports still waiting for this tab would bring its frames back.
  const tab = waiting.get(tabId);
  if (reason !== 'navigated') {
    pacer.cancelTab(tabId);
    for (const key of [...grants.keys()]) if (key.startsWith(`${tabId}:`)) grants.delete(key);
  }
  if (tab && reason !== 'navigated') {
    clearTimeout(tab.timer);
    waiting.delete(tabId);
    for (const { resolve } of tab.entries.values()) resolve({ ok: true, superseded: true });
    tab.entries.clear();
  }
  let had = false;
  for (const [key, f] of [...frames]) if (f.tabId === tabId) had = (await forget(key)) || had;
  if (!had) return;
  if (isConnected()) await notifyServer('webmcp.tabRemoved', { tabId, reason });
}

async function dropFrame(frame) {
  await forget(`${frame.tabId}:${frame.frameId}`);
  if (isConnected()) await report({ ...frame, tools: [] });
}

// Applies admission.js's decision: forgets (and retracts) the frames that give way, or
// returns the reason `frame` is refused.
async function makeRoom(key, frame) {
  const { refused, drop } = admit(frames, frame);
  if (refused) return refused;
  for (const f of drop) await dropFrame(f);
  return null;
}

// Applies one frame's latest list: stores or removes it and reports it to the server.
async function apply(frame) {
  const key = `${frame.tabId}:${frame.frameId}`;
  // A new top-level document replaces every frame of the old one (their pagehide may not
  // have got through).
  const previousTop = frames.get(`${frame.tabId}:0`);
  if (frame.frameId === 0 && previousTop && previousTop.documentId !== frame.documentId) await dropTab(frame.tabId, 'navigated');
  if (frame.tools.length === 0) {
    const had = await forget(key);
    return had || isConnected() ? report(frame) : { ok: true };
  }
  const refused = await makeRoom(key, frame);
  if (refused) {
    if (await forget(key)) await report({ ...frame, tools: [] });
    return { error: refused };
  }
  await remember(key, frame);
  return report(frame);
}


function enqueue(frame) {
  const key = `${frame.tabId}:${frame.frameId}`;
  let tab = waiting.get(frame.tabId);
  if (!tab) { tab = { timer: null, lastFlushAt: 0, entries: new Map() }; waiting.set(frame.tabId, tab); }
  const superseded = tab.entries.get(key);
  const reply = new Promise((resolve) => {
    tab.entries.set(key, { frame, resolve });
  });
  superseded?.resolve({ ok: true, superseded: true });
  if (!tab.timer) {
    const wait = Math.max(0, tab.lastFlushAt + FLUSH_GAP_MS - Date.now());
    tab.timer = setTimeout(() => flush(frame.tabId).catch(() => {}), wait);
  }
  return reply;
}

async function flush(tabId) {
  const tab = waiting.get(tabId);
  if (!tab) return;
  const entries = [...tab.entries.values()].sort((a, b) => a.frame.frameId - b.frame.frameId);
  tab.entries.clear();
  for (const { frame, resolve } of entries) {
    if (waiting.get(tabId) !== tab) { resolve({ ok: true, superseded: true }); continue; }
    try {
      resolve(await apply(frame));
    } catch (err) {
      resolve({ error: String(err?.message ?? err) });
    }
  }
  tab.lastFlushAt = Date.now();
  tab.timer = null;
  // The tab closed while its reports were applied: what they stored goes too.
  if (waiting.get(tabId) !== tab) { await dropTab(tabId, 'closed'); return; }
  if (tab.entries.size > 0) {
    tab.timer = setTimeout(() => flush(tabId).catch(() => {}), FLUSH_GAP_MS);
  } else {
    waiting.delete(tabId);
  }
}

// The sender's identity as Chrome reports it, or null for anything but an http(s) frame.
// `site` is the tab's top-level origin: the page the person opened, whose frames share its caps.
function senderFrame(sender) {
  const tabId = sender.tab?.id;
  const frameId = sender.frameId;
  const url = sender.url;
  if (!Number.isInteger(tabId) || tabId < 0 || !Number.isInteger(frameId) || typeof url !== 'string' || !/^https?:/i.test(url)) return null;
  const origin = new URL(url).origin;
  let site = origin;
  try { if (frameId !== 0 && /^https?:/i.test(sender.tab.url ?? '')) site = new URL(sender.tab.url).origin; } catch { /* keep the frame's */ }
  return { tabId, frameId, url, origin, site, key: `${tabId}:${frameId}` };
}

// webmcp:offer {chars}: a relay asks before it sends a list of `chars` characters.  Refused at
// once when admission would refuse it anyway (so a frame over its tab's share never sends its
// list at all); otherwise answered {ok, grant} when the pacer gives it its turn.
async function onOffer(msg, sender) {
  await ready;
  const who = senderFrame(sender);
  if (!who) return { error: 'WebMCP tools are only forwarded from http(s) pages' };
  const chars = msg.chars;
  if (!Number.isInteger(chars) || chars < 0) return { error: 'malformed offer' };
  const { refused } = admit(frames, { ...who, chars, at: Date.now() });
  if (refused) return { error: refused, retryAfterMs: REFUSED_RETRY_MS };
  if (!(await pacer.request(who.tabId, who.key, chars))) return { ok: true, superseded: true };
  grants.set(who.key, { chars, until: Date.now() + GRANT_MS });
  return { ok: true, grant: true };
}

// A relay's tool list (possibly empty: the page unregistered everything or is going away).
// A non-empty list is taken only with a grant at least its size (onOffer).
async function onFrameTools(msg, sender) {
  await ready;
  const who = senderFrame(sender);
  if (!who) return { error: 'WebMCP tools are only forwarded from http(s) pages' };
  if (!Array.isArray(msg.tools)) return { error: 'malformed tool list' };
  const tools = cleanTools(msg.tools);
  let chars = 0;
  try { chars = JSON.stringify(tools).length; } catch { return { error: 'tool list is not JSON' }; }
  if (chars > CAPS.frameChars) return { error: `tool list larger than ${CAPS.frameChars} characters; nothing forwarded` };
  if (tools.length > 0) {
    const grant = grants.get(who.key);
    grants.delete(who.key);
    if (!grant || grant.until < Date.now() || grant.chars < chars) return { error: 'tool list sent without a grant; nothing forwarded' };
  }
  const documentId = typeof sender.documentId === 'string' ? sender.documentId : '';
  return enqueue({ tabId: who.tabId, frameId: who.frameId, documentId, url: who.url, tools, origin: who.origin, site: who.site, chars, at: Date.now() });
}

// webmcp.syncAll after every (re)connect: the server forgets a connection's tools when it closes.
async function syncAll() {
  await ready;
  // Drop frames whose document is gone (navigated while the worker slept, closed tabs).
  for (const f of [...frames.values()]) {
    const alive = await chrome.tabs.sendMessage(f.tabId, { target: 'webmcp-frame', type: 'webmcp:ping' },
      { frameId: f.frameId, ...(f.documentId ? { documentId: f.documentId } : {}) }).catch(() => null);
    if (!alive) await forget(`${f.tabId}:${f.frameId}`);
  }
  await notifyServer('webmcp.syncAll', { frames: [...frames.values()].map(frameParams) });
}

function withTimeout(promise, ms, message) {
  let timer;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise((_, reject) => { timer = setTimeout(() => reject(new ProtocolError(ERR_TAB_CLOSED, message)), ms); }),
  ]);
}

// webmcp.callTool {tabId, frameId, documentId?, tool, arguments} → {content, isError?}
async function callTool(params) {
  await ready;
  const { tabId, frameId, documentId, tool } = params ?? {};
  const args = params?.arguments ?? {};
  if (!Number.isInteger(tabId) || !Number.isInteger(frameId) || typeof tool !== 'string' || !tool) {
    throw new ProtocolError(ERR_INVALID_PARAMS, 'webmcp.callTool needs tabId, frameId and tool');
  }
  if (typeof args !== 'object' || Array.isArray(args) || args === null) throw new ProtocolError(ERR_INVALID_PARAMS, 'arguments must be an object');
  if (JSON.stringify(args).length > MAX_ARGUMENT_CHARS) throw new ProtocolError(ERR_INVALID_PARAMS, 'arguments too large');
  const frame = frames.get(`${tabId}:${frameId}`);
  if (!frame || (documentId && frame.documentId && frame.documentId !== documentId) || !frame.tools.some((t) => t?.name === tool)) {
    throw new ProtocolError(ERR_TAB_CLOSED, `The page no longer offers the tool "${tool}" (tab ${tabId})`);
  }
  const target = { frameId, ...(frame.documentId ? { documentId: frame.documentId } : {}) };
  let reply;
  try {
    reply = await withTimeout(
      chrome.tabs.sendMessage(tabId, { target: 'webmcp-frame', type: 'webmcp:call', tool, args }, target),
      CALL_TIMEOUT_MS, `The page did not answer the call of "${tool}" within ${CALL_TIMEOUT_MS / 1000} s`);
  } catch (err) {
    if (err instanceof ProtocolError) throw err;
    // The document is gone: forget it so the server drops the tool.
    await dropFrame(frame);
    throw new ProtocolError(ERR_TAB_CLOSED, `The page that offered "${tool}" is gone (tab closed or navigated)`);
  }
  if (!reply) throw new ProtocolError(ERR_TAB_CLOSED, `The page did not answer the call of "${tool}"`);
  if (typeof reply.error === 'string') throw new ProtocolError(ERR_TAB_CLOSED, reply.error.slice(0, 2000));
  return reply.result;
}

registerCommands({ 'webmcp.callTool': callTool });

chrome.runtime.onMessage.addListener((msg, sender, sendResponse) => {
  if (msg?.target !== 'background' || sender.id !== chrome.runtime.id) return false;
  if ((msg.type === 'webmcp:tools' || msg.type === 'webmcp:offer') && sender.tab && !sender.url?.startsWith(chrome.runtime.getURL(''))) {
    (msg.type === 'webmcp:offer' ? onOffer : onFrameTools)(msg, sender)
      .then(sendResponse, (err) => sendResponse({ error: String(err?.message ?? err) }));
    return true;
  }
  // The offscreen document announces a fresh connection: the server starts from nothing.
  if (msg.type === 'ws:state' && msg.state === 'connected' && sender.url?.startsWith(OFFSCREEN_PAGE)) {
    store.ready.then(() => setTimeout(() => syncAll().catch(() => {}), 0));
  }
  return false;
});

chrome.tabs.onRemoved.addListener((tabId) => { dropTab(tabId, 'closed').catch(() => {}); });
chrome.tabs.onReplaced.addListener((_added, removed) => { dropTab(removed, 'replaced').catch(() => {}); });
// A finished navigation: frames whose document did not survive are dropped (their pagehide
// normally did this already; this covers pages that were killed or never got to say so).
chrome.tabs.onUpdated.addListener((tabId, changeInfo) => {
  if (changeInfo.status !== 'complete') return;
  ready.then(async () => {
    const stale = [];
    for (const f of frames.values()) {
      if (f.tabId !== tabId) continue;
      const alive = await chrome.tabs.sendMessage(tabId, { target: 'webmcp-frame', type: 'webmcp:ping' },
        { frameId: f.frameId, ...(f.documentId ? { documentId: f.documentId } : {}) }).catch(() => null);
      if (!alive) stale.push(f);
    }
    for (const f of stale) await dropFrame(f);
  }).catch(() => {});
});
