// Smaller tools Playwright MCP and DevTools MCP users expect: a text search over the page's
// snapshot (with refs to act on what it finds), CPU throttling, extra HTTP request headers
// and a PDF of the page.  Throttling and headers live in the debugger session, so they hold
// the tab attached until they are turned off (rate 1, an empty header set).

import { ProtocolError, ERR_INTERNAL } from '../shared/constants.js';
import { int, num, str, tabId as requireTabId, invalid } from './params.js';
import { hold, release, send, holds, withDebugger } from './debugger.js';
import { snapshotWithFrames } from './page.js';

const MAX_FIND_RESULTS = 200;
const MAX_HEADERS = 50;
// Chrome refuses to set these itself; a page's own requests cannot carry them either.
const FORBIDDEN_HEADERS = /^(host|content-length|cookie|connection|transfer-encoding|upgrade|te|trailer|keep-alive|proxy-.*|sec-.*)$/i;

// Lines of the page's snapshot (frames and shadow roots included) that contain `text`, with
// the lines of their ancestors' headings and landmarks left out: each match stands alone and
// carries a ref, also where a snapshot gives none (a list item, a table cell holding the text).
async function findText(params) {
  const tabId = requireTabId(params);
  const text = str(params, 'text', { max: 1000 });
  if (!text.trim()) throw invalid('text is empty');
  const limit = Math.min(int(params, 'limit', { required: false, min: 1, fallback: 20 }), MAX_FIND_RESULTS);
  const wanted = text.toLowerCase();
  const snap = await snapshotWithFrames(tabId, { maxChars: 200_000, interactiveOnly: false, refText: wanted });
  const lines = snap.snapshot.split('\n').filter((l) => !l.startsWith('[... truncated'));
  const matches = lines.filter((l) => l.toLowerCase().includes(wanted)).map((l) => l.trim());
  return {
    url: snap.url, count: matches.length, matches: matches.slice(0, limit),
    ...(matches.length > limit ? { truncated: true } : {}),
    ...(snap.truncated ? { note: 'The page is larger than one snapshot; matches past 200000 characters were not searched' } : {}),
  };
}

async function throttleCpu(params) {
  const tabId = requireTabId(params);
  const rate = num(params, 'rate');
  if (rate < 1 || rate > 20) throw invalid('Invalid rate: 1 (no throttling) to 20 (20 times slower)');
  if (rate === 1) {
    if (holds(tabId, 'cpu')) {
      await send(tabId, 'Emulation.setCPUThrottlingRate', { rate: 1 }).catch(() => {});
      release(tabId, 'cpu');
    }
    return { ok: true, tabId, rate };
  }
  await hold(tabId, 'cpu');
  await send(tabId, 'Emulation.setCPUThrottlingRate', { rate });
  return { ok: true, tabId, rate, note: 'Stays on until browser_throttle_cpu with rate 1 (the debugger stays attached meanwhile)' };
}

async function setExtraHeaders(params) {
  const tabId = requireTabId(params);
  const headers = params?.headers;
  if (!headers || typeof headers !== 'object' || Array.isArray(headers)) throw invalid('Invalid headers: expected {"Name": "value"}');
  const entries = Object.entries(headers);
  if (entries.length > MAX_HEADERS) throw invalid(`Invalid headers: at most ${MAX_HEADERS}`);
  for (const [name, value] of entries) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,200}$/.test(name)) throw invalid(`Invalid header name '${name.slice(0, 50)}'`);
    if (FORBIDDEN_HEADERS.test(name)) throw invalid(`Header '${name}' is set by the browser and cannot be overridden`);
    if (typeof value !== 'string' || value.length > 8192 || /[\r\n\0]/.test(value)) throw invalid(`Invalid value of header '${name}': a string of at most 8192 characters without line breaks`);
  }
  if (!entries.length) {
    if (holds(tabId, 'headers')) {
      await send(tabId, 'Network.setExtraHTTPHeaders', { headers: {} }).catch(() => {});
      release(tabId, 'headers');
    }
    return { ok: true, tabId, headers: {} };
  }
  await hold(tabId, 'headers');
  await send(tabId, 'Network.enable');
  await send(tabId, 'Network.setExtraHTTPHeaders', { headers });
  return { ok: true, tabId, headers: Object.keys(headers), note: 'Sent with every request of this tab until called with {} (the debugger stays attached meanwhile)' };
}

async function savePdf(params) {
  const tabId = requireTabId(params);
  const landscape = params?.landscape === true;
  return withDebugger(tabId, async (sendCommand) => {
    let pdf;
    try {
      pdf = await sendCommand('Page.printToPDF', { landscape, printBackground: true, transferMode: 'ReturnAsBase64' });
    } catch (err) {
      throw new ProtocolError(ERR_INTERNAL, `Cannot print tab ${tabId} to PDF: ${err?.message ?? err}`);
    }
    return { pdf: pdf.data, mimeType: 'application/pdf' };
  });
}

export const commands = {
  'browser.findText': findText,
  'browser.throttleCpu': throttleCpu,
  'browser.setExtraHeaders': setExtraHeaders,
  'browser.savePdf': savePdf,
};
