// WebMCP in the service worker: keeps, per tab and frame, the tools that page's relay reported
// (page-relay.js), reports them to the server (webmcp.frameTools, webmcp.syncAll after every
// connect, webmcp.tabRemoved when a tab closes) and serves the server's `webmcp.callTool` by
// forwarding the call to exactly that frame and document.  Protocol: extension/PROTOCOL-WEBMCP.md.
//
// Identity comes from Chrome, never from the page: tab id, frame id, document id and URL are
// those of the message sender.  State lives in chrome.storage.session so a suspended worker
// that wakes up for a call still knows where the tool lives.  Imported once by background.js;
// its listeners are registered at the top level so any of these events wakes the worker.

import { ProtocolError, ERR_INVALID_PARAMS, ERR_TAB_CLOSED } from '../shared/constants.js';
import { registerCommands } from '../browser-commands/index.js';
import { notifyServer, requestServer } from '../background/server-link.js';
import { store } from '../background/store.js';

const STORAGE_KEY = 'webmcpFrames';
const MAX_FRAMES = 200;
const MAX_TOOLS_PER_REPORT = 100;
const MAX_REPORT_CHARS = 1024 * 1024;
const MAX_ARGUMENT_CHARS = 1024 * 1024;
const CALL_TIMEOUT_MS = 28_000;          // inside the server's 30 s dispatch deadline
const OFFSCREEN_PAGE = chrome.runtime.getURL('offscreen/offscreen.html');

const frames = new Map();  // "tabId:frameId" -> {tabId, frameId, documentId, url, tools}
const ready = (async () => {
  const saved = (await chrome.storage.session.get(STORAGE_KEY))[STORAGE_KEY];
  for (const f of Array.isArray(saved) ? saved : []) frames.set(`${f.tabId}:${f.frameId}`, f);
})();

const save = () => chrome.storage.session.set({ [STORAGE_KEY]: [...frames.values()] });
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

async function dropTab(tabId, reason) {
  await ready;
  let had = false;
  for (const [key, f] of frames) if (f.tabId === tabId) { frames.delete(key); had = true; }
  if (!had) return;
  await save();
  if (isConnected()) await notifyServer('webmcp.tabRemoved', { tabId, reason });
}

async function dropFrame(frame) {
  frames.delete(`${frame.tabId}:${frame.frameId}`);
  await save();
  if (isConnected()) await report({ ...frame, tools: [] });
}

// A relay's tool list (possibly empty: the page unregistered everything or is going away).
async function onFrameTools(msg, sender) {
  await ready;
  const tabId = sender.tab?.id;
  const frameId = sender.frameId;
  const url = sender.url;
  if (!Number.isInteger(tabId) || tabId < 0 || !Number.isInteger(frameId) || typeof url !== 'string' || !/^https?:/i.test(url)) {
    return { error: 'WebMCP tools are only forwarded from http(s) pages' };
  }
  if (!Array.isArray(msg.tools)) return { error: 'malformed tool list' };
  let size = 0;
  try { size = JSON.stringify(msg.tools).length; } catch { return { error: 'tool list is not JSON' }; }
  if (size > MAX_REPORT_CHARS) return { error: `tool list larger than ${MAX_REPORT_CHARS} characters; nothing forwarded` };
  const key = `${tabId}:${frameId}`;
  const documentId = typeof sender.documentId === 'string' ? sender.documentId : '';
  // A new top-level document replaces every frame of the old one (their pagehide may not
  // have got through).
  const previousTop = frames.get(`${tabId}:0`);
  if (frameId === 0 && previousTop && previousTop.documentId !== documentId) await dropTab(tabId, 'navigated');
  const frame = { tabId, frameId, documentId, url, tools: cleanTools(msg.tools) };
  if (frame.tools.length === 0) {
    const had = frames.delete(key);
    await save();
    return had || isConnected() ? report(frame) : { ok: true };
  }
  if (!frames.has(key) && frames.size >= MAX_FRAMES) return { error: `more than ${MAX_FRAMES} frames publish WebMCP tools; nothing forwarded` };
  frames.set(key, frame);
  await save();
  return report(frame);
}

// webmcp.syncAll after every (re)connect: the server forgets a connection's tools when it closes.
async function syncAll() {
  await ready;
  // Drop frames whose document is gone (navigated while the worker slept, closed tabs).
  for (const f of [...frames.values()]) {
    const alive = await chrome.tabs.sendMessage(f.tabId, { target: 'webmcp-frame', type: 'webmcp:ping' },
      { frameId: f.frameId, ...(f.documentId ? { documentId: f.documentId } : {}) }).catch(() => null);
    if (!alive) frames.delete(`${f.tabId}:${f.frameId}`);
  }
  await save();
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
  if (msg.type === 'webmcp:tools' && sender.tab && !sender.url?.startsWith(chrome.runtime.getURL(''))) {
    onFrameTools(msg, sender).then(sendResponse, (err) => sendResponse({ error: String(err?.message ?? err) }));
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
