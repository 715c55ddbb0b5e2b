// Always-on light capture: what a page requested and what it logged, recorded from the moment
// the page starts, without the debugger (so no infobar and nothing held) and without a
// permission beyond the host access the extension already has.
//
// Two content scripts run in every top-level http(s) page's MAIN world at document_start and
// keep rings inside the page; they are read here on demand with chrome.scripting:
// * src/capture/request-record.js: request summaries from the page's Resource Timing entries
//   (url, type, status, size, duration, timing breakdown; method where the initiator implies
//   it).  No headers or bodies: those need browser_enable_network_capture.  That file says
//   why not chrome.webRequest.
// * src/capture/console-hook.js: console calls and uncaught errors.
// Both live in the page, so a worker that Chrome stopped while idle loses nothing, and a
// navigation starts a new record with the new document.

const CONSOLE_RING = 'opentabs.consoleRing';
const REQUEST_RING = 'opentabs.requestRing';

// MAIN world: reads (and optionally empties) one of the page's rings; null without the hook.
function readRing(key, clear) {
  const ring = globalThis[Symbol.for(key)];
  return ring ? ring.read(clear) : null;
}

// MAIN world: one request of the page's record, or null.
function readRequest(key, requestId) {
  const ring = globalThis[Symbol.for(key)];
  return ring ? ring.get(requestId) : null;
}

async function inPage(tabId, func, args) {
  try {
    const [first] = await chrome.scripting.executeScript({ target: { tabId }, world: 'MAIN', func, args });
    return first?.result ?? null;
  } catch {
    return null; // not http(s), not reachable, or closed: the caller reports "no record"
  }
}

// The page's request summaries since it started ({requests, dropped}), or null when the
// record is not in the page (a page open since before the extension loaded, or not http(s)).
export async function lightRequests(tabId, { clear = false } = {}) {
  return inPage(tabId, readRing, [REQUEST_RING, clear]);
}

export async function lightRequest(tabId, requestId) {
  return inPage(tabId, readRequest, [REQUEST_RING, requestId]);
}

// The page's console messages since it started, or null when the hook is not in the page.
export async function lightConsole(tabId, { clear = false } = {}) {
  return inPage(tabId, readRing, [CONSOLE_RING, clear]);
}
