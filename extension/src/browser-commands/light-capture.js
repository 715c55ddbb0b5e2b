// Always-on light capture: what a tab requested and what its page logged, recorded from the
// moment the page starts, without the debugger (so no infobar and nothing held).
//
// * Requests: chrome.webRequest summaries per tab (method, url, type, status, size from
//   Content-Length, headers with secrets redacted, timing, errors), a ring of
//   MAX_REQUESTS_PER_TAB.  No bodies: those need browser_enable_network_capture.  Headers
//   are not kept across a worker restart (see below).
// * Console: src/capture/console-hook.js runs in every top page's MAIN world at
//   document_start and keeps a ring of console calls and uncaught errors in the page; it is
//   read here on demand with chrome.scripting.
//
// The listeners are registered when the module loads, i.e. synchronously at service-worker
// start, as MV3 requires for events that wake the worker.  Chrome stops an idle worker
// after 30 s, and its memory with it, so the newest PERSISTED_PER_TAB summaries of each tab
// (without headers, to stay small next to the store's own chrome.storage.session data) are
// mirrored in chrome.storage.session under "lightRequests:<tabId>" a second after they
// change, and read back when the worker starts again.

export const MAX_REQUESTS_PER_TAB = 200;
const CONSOLE_RING = 'opentabs.consoleRing';
const SENSITIVE_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'x-auth-token', 'x-csrf-token']);

// webRequest resource types in the CDP names the rest of the tools use.
const TYPES = {
  main_frame: 'Document', sub_frame: 'Document', stylesheet: 'Stylesheet', script: 'Script', image: 'Image',
  font: 'Font', object: 'Other', xmlhttprequest: 'XHR', ping: 'Ping', csp_report: 'CSPViolationReport',
  media: 'Media', websocket: 'WebSocket', webbundle: 'Other', other: 'Other',
};

const rings = new Map(); // tabId -> Map(requestId -> entry), oldest first
const PERSISTED_PER_TAB = 100;
const PERSISTED_TABS = 50;
const STORAGE_PREFIX = 'lightRequests:';
const session = globalThis.chrome?.storage?.session;
const dirty = new Set();
let saveTimer = null;

function scheduleSave(tabId) {
  if (!session) return;
  dirty.add(tabId);
  if (saveTimer) return;
  saveTimer = setTimeout(() => {
    saveTimer = null;
    const set = {};
    const remove = [];
    for (const id of dirty) {
      const ring = rings.get(id);
      if (!ring || !ring.size) { remove.push(`${STORAGE_PREFIX}${id}`); continue; }
      set[`${STORAGE_PREFIX}${id}`] = [...ring.values()].slice(-PERSISTED_PER_TAB).map(({ requestHeaders, responseHeaders, ...summary }) => summary);
    }
    dirty.clear();
    // Only the PERSISTED_TABS tabs that started recording last are kept across restarts.
    const keep = new Set([...rings.keys()].slice(-PERSISTED_TABS).map((id) => `${STORAGE_PREFIX}${id}`));
    for (const key of Object.keys(set)) if (!keep.has(key)) { delete set[key]; remove.push(key); }
    if (Object.keys(set).length) session.set(set).catch(() => {});
    if (remove.length) session.remove(remove).catch(() => {});
  }, 1_000);
}

// Summaries saved before the worker last stopped go in front of anything recorded since.
const restored = (async () => {
  if (!session) return;
  try {
    const saved = await session.get(null);
    for (const [key, entries] of Object.entries(saved)) {
      if (!key.startsWith(STORAGE_PREFIX) || !Array.isArray(entries)) continue;
      const tabId = Number(key.slice(STORAGE_PREFIX.length));
      const merged = new Map(entries.map((e) => [e.requestId, e]));
      for (const [id, e] of rings.get(tabId) ?? []) merged.set(id, e);
      while (merged.size > MAX_REQUESTS_PER_TAB) merged.delete(merged.keys().next().value);
      rings.set(tabId, merged);
    }
  } catch { /* nothing saved */ }
})();

const headerObject = (list) => {
  const out = {};
  for (const h of list ?? []) out[h.name] = SENSITIVE_HEADERS.has(h.name.toLowerCase()) ? '[redacted]' : String(h.value ?? '');
  return out;
};
const headerValue = (list, name) => list?.find((h) => h.name.toLowerCase() === name)?.value;

function entryFor(d) {
  if (d.tabId < 0) return null;
  return rings.get(d.tabId)?.get(`w${d.requestId}`) ?? null;
}

function respond(d) {
  const e = entryFor(d);
  if (!e) return;
  e.status = d.statusCode;
  if (d.statusLine) e.statusText = d.statusLine.replace(/^HTTP\/\S+\s+\d+\s*/, '');
  if (d.responseHeaders) {
    e.responseHeaders = headerObject(d.responseHeaders);
    const type = headerValue(d.responseHeaders, 'content-type');
    if (type) e.mimeType = type.split(';')[0].trim();
    const length = Number(headerValue(d.responseHeaders, 'content-length'));
    if (Number.isFinite(length) && length >= 0) e.size = length;
  }
  if (d.ip) e.remoteAddress = d.ip;
  if (d.fromCache) e.fromCache = true;
}

// Request summaries need the webRequest permission, which manifest.json does not ask for now:
// with these listeners registered, a tab loading while the worker first starts (a plainly
// launched Chromium opening its start URL) was seen never to finish loading.  Without the
// permission chrome.webRequest is undefined and this block does nothing.
if (globalThis.chrome?.webRequest?.onBeforeRequest) {
  const filter = { urls: ['http://*/*', 'https://*/*', 'ws://*/*', 'wss://*/*'] };
  chrome.webRequest.onBeforeRequest.addListener((d) => {
    if (d.tabId < 0) return;
    let ring = rings.get(d.tabId);
    if (!ring) rings.set(d.tabId, (ring = new Map()));
    const id = `w${d.requestId}`;
    const prior = ring.get(id);
    if (prior) {
      // A redirect reuses the request id: keep the hop as its own line.
      ring.delete(id);
      ring.set(`${id}.${prior.hops ?? 0}`, { ...prior, requestId: `${id}.${prior.hops ?? 0}`, redirectURL: d.url });
    }
    ring.set(id, {
      requestId: id, method: d.method, url: d.url, type: TYPES[d.type] ?? 'Other', timestamp: Math.round(d.timeStamp),
      hops: prior ? (prior.hops ?? 0) + 1 : undefined,
    });
    while (ring.size > MAX_REQUESTS_PER_TAB) ring.delete(ring.keys().next().value);
    scheduleSave(d.tabId);
  }, filter);
  chrome.webRequest.onSendHeaders.addListener((d) => {
    const e = entryFor(d);
    if (e) e.requestHeaders = headerObject(d.requestHeaders);
  }, filter, ['requestHeaders']);
  chrome.webRequest.onResponseStarted.addListener(respond, filter, ['responseHeaders']);
  chrome.webRequest.onBeforeRedirect.addListener(respond, filter, ['responseHeaders']);
  chrome.webRequest.onCompleted.addListener((d) => {
    respond(d);
    const e = entryFor(d);
    if (e) e.durationMs = Math.max(0, Math.round(d.timeStamp - e.timestamp));
    if (e) scheduleSave(d.tabId);
  }, filter, ['responseHeaders']);
  chrome.webRequest.onErrorOccurred.addListener((d) => {
    const e = entryFor(d);
    if (!e) return;
    e.failed = true;
    e.errorText = d.error;
    e.durationMs = Math.max(0, Math.round(d.timeStamp - e.timestamp));
    scheduleSave(d.tabId);
  }, filter);
  chrome.tabs?.onRemoved?.addListener((tabId) => {
    rings.delete(tabId);
    scheduleSave(tabId);
  });
}

const publicEntry = ({ hops, ...rest }) => rest;

export async function lightRequests(tabId, { clear = false } = {}) {
  await restored;
  const ring = rings.get(tabId);
  const list = ring ? [...ring.values()].map(publicEntry) : [];
  if (clear && ring) {
    ring.clear();
    scheduleSave(tabId);
  }
  return list;
}

export async function lightRequest(tabId, requestId) {
  await restored;
  const e = rings.get(tabId)?.get(requestId);
  return e ? publicEntry(e) : null;
}

// MAIN world: reads (and optionally empties) the page's console ring.
function readConsoleRing(key, clear) {
  const ring = globalThis[Symbol.for(key)];
  if (!ring) return null;
  return ring.read(clear);
}

// The page's console messages since it started, or null when the hook is not in the page
// (a page that was open before the extension loaded, or not http(s)).
export async function lightConsole(tabId, { clear = false } = {}) {
  try {
    const [first] = await chrome.scripting.executeScript({ target: { tabId }, world: 'MAIN', func: readConsoleRing, args: [CONSOLE_RING, clear] });
    return first?.result ?? null;
  } catch {
    return null;
  }
}
