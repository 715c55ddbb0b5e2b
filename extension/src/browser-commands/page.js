// Page inspection: scripts from exec files, screenshots, text/HTML/query/wait, the
// accessibility snapshot, storage, and the page's loaded resources.  Everything that can be
// done by script runs in the ISOLATED world (page-agent.js) and never activates the tab; only
// resources use CDP, briefly (debugger.js detaches after an idle period).

import { ProtocolError, ERR_INTERNAL } from '../shared/constants.js';
import { int, str, bool, tabId as requireTabId, target, invalid } from './params.js';
import { runPageOp, runPageOpIn, rememberFrameDocument, TRUNCATION_MARKER } from './page-agent.js';
import { withDebugger } from './debugger.js';

const EXEC_FILE = /^__exec-([a-f0-9-]+)\.js$/;
const EXEC_POLL_MS = 50;
const EXEC_WAIT_MS = 10_000;
const MAX_SCRIPT_RESULT_CHARS = 50_000;

// MAIN world: reads (and removes) the result an exec file stored, serialised to JSON text.
function readExecResult(key) {
  const ns = globalThis.__openTabs;
  if (!ns || !ns[`__execStarted_${key}`]) return { state: 'not-started' };
  const resultKey = `__execResult_${key}`;
  if (!(resultKey in ns)) return { state: 'pending' };
  const outcome = ns[resultKey];
  delete ns[resultKey];
  delete ns[`__execStarted_${key}`];
  if (outcome && 'error' in outcome) return { state: 'done', error: String(outcome.error) };
  const seen = new WeakSet();
  const encode = (v) => {
    if (v === undefined) return { json: 'undefined', type: 'undefined' };
    try {
      const json = JSON.stringify(v, (k, x) => {
        if (typeof x === 'bigint') return `${x}n`;
        if (typeof x === 'function') return `[Function ${x.name || 'anonymous'}]`;
        if (typeof x === 'symbol') return x.toString();
        if (typeof Node !== 'undefined' && x instanceof Node) {
          return x.nodeType === 1 ? `<${x.tagName.toLowerCase()}${x.id ? ` id="${x.id}"` : ''}>` : `[${x.nodeName}]`;
        }
        if (x && typeof x === 'object') {
          if (seen.has(x)) return '[Circular]';
          seen.add(x);
        }
        return x;
      });
      return { json: json === undefined ? 'null' : json, type: typeof v };
    } catch (err) {
      return { json: JSON.stringify(String(v)), type: typeof v, note: `not JSON-serialisable: ${err.message}` };
    }
  };
  return { state: 'done', ...encode(outcome?.value) };
}

async function runExecFile(tabId, execFile) {
  const match = EXEC_FILE.exec(execFile ?? '');
  if (!match) throw invalid('Invalid execFile: expected __exec-<uuid>.js');
  const key = match[1];
  try {
    await chrome.scripting.executeScript({ target: { tabId }, world: 'MAIN', files: [`adapters/${execFile}`] });
  } catch (err) {
    throw new ProtocolError(ERR_INTERNAL, `Cannot run the script in tab ${tabId}: ${err?.message ?? err}`);
  }
  const deadline = Date.now() + EXEC_WAIT_MS;
  for (;;) {
    const [first] = await chrome.scripting.executeScript({ target: { tabId }, world: 'MAIN', func: readExecResult, args: [key] });
    const r = first?.result;
    if (r?.state === 'not-started') {
      throw new ProtocolError(ERR_INTERNAL, 'The script did not start: it has a syntax error or the page blocked it');
    }
    if (r?.state === 'done') {
      if (r.error !== undefined) throw new ProtocolError(ERR_INTERNAL, `Script error: ${r.error}`);
      if (r.json.length > MAX_SCRIPT_RESULT_CHARS) {
        return { value: `${r.json.slice(0, MAX_SCRIPT_RESULT_CHARS)}\n[... truncated: ${MAX_SCRIPT_RESULT_CHARS} of ${r.json.length} characters of JSON shown]`, truncated: true, type: r.type };
      }
      let value;
      if (r.type === 'undefined') value = null;
      else value = JSON.parse(r.json);
      return r.note ? { value, type: r.type, note: r.note } : { value, type: r.type };
    }
    if (Date.now() >= deadline) throw new ProtocolError(ERR_INTERNAL, `The script did not settle within ${EXEC_WAIT_MS / 1000} s`);
    await new Promise((res) => setTimeout(res, EXEC_POLL_MS));
  }
}

function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([promise, new Promise((_, reject) => { timer = setTimeout(() => reject(new ProtocolError(ERR_INTERNAL, `${what} timed out after ${ms} ms`)), ms); })])
    .finally(() => clearTimeout(timer));
}

// Screenshots.  The visible viewport of an active tab comes from captureVisibleTab (no
// debugger).  Everything else goes through CDP Page.captureScreenshot: a background tab, an
// element (by selector or ref, clipped to its box) and the full page (clipped to the content
// size, captureBeyondViewport).  The page is marked active first so a backgrounded renderer
// draws; if a capture has not answered after a step's wait, one beyond the viewport forces a
// frame; if neither has, the tab is shown for a capture and the previously active tab
// restored (capturedWith says which way answered).  The steps' waits only decide when to try
// the next way: every capture started stays in the race until one overall budget ends, so a
// capture that is merely slow (a busy machine, a large image being encoded) still answers.
// Captures are capped at MAX_CAPTURE_WIDTH x MAX_CAPTURE_HEIGHT CSS px and scaled down to
// stay under MAX_IMAGE_BASE64 (the server parses messages up to 10 MiB).
const SCREENSHOT_ATTEMPT_MS = 4_000;
const SCREENSHOT_FIRST_WAIT_MS = 1_500;
// The whole capture, inside the server's 30 s dispatch limit.
const SCREENSHOT_BUDGET_MS = 25_000;
// A capture this many CSS px² or more (a full page, a tall element) spends seconds encoding
// its image on a small machine, which is work under way, not a hang: its first step waits
// this long before the next way is tried.
const LARGE_CAPTURE_AREA = 4_000_000;
const LARGE_CAPTURE_FIRST_WAIT_MS = 12_000;
export const MAX_CAPTURE_WIDTH = 4_096;
export const MAX_CAPTURE_HEIGHT = 16_384;
const MAX_IMAGE_BASE64 = 8_000_000;
const FORMATS = new Set(['png', 'jpeg', 'webp']);

async function viewportClip(send) {
  const m = await send('Page.getLayoutMetrics');
  const v = m.cssLayoutViewport ?? m.layoutViewport;
  return { x: v.pageX, y: v.pageY, width: v.clientWidth, height: v.clientHeight, scale: 1 };
}

// One capture with the escalation above; returns {data, capturedWith}.  A background tab's
// renderer is "backgrounded" by Chrome and may not produce the frame a capture waits for
// (captures of background tabs hung in 3 of 7 tries in a plain Chromium); marking the page
// active first (Page.setWebLifecycleState) makes it draw.
async function captureReliably(tabId, tab, send, clip, encoding) {
  const deadline = Date.now() + SCREENSHOT_BUDGET_MS;
  const left = (cap = Infinity) => Math.max(0, Math.min(cap, deadline - Date.now()));
  const request = (c) => ({ ...encoding, fromSurface: true, ...(c ? { clip: c, captureBeyondViewport: true } : {}) });
  const failures = [];
  const attempts = [];  // every capture started: the first to answer is taken
  const start = (c, capturedWith) => {
    const attempt = send('Page.captureScreenshot', request(c)).then((shot) => ({ data: shot.data, capturedWith }));
    attempt.catch((err) => failures.push(err.message));
    attempts.push(attempt);
  };
  const firstAnswer = (ms, what) => withTimeout(Promise.any(attempts), ms, what);
  await withTimeout(send('Page.setWebLifecycleState', { state: 'active' }), left(SCREENSHOT_ATTEMPT_MS), 'Waking the page').catch(() => {});
  start(clip, 'debugger');
  try {
    const large = clip && clip.width * clip.height >= LARGE_CAPTURE_AREA;
    return await firstAnswer(left(large ? LARGE_CAPTURE_FIRST_WAIT_MS : SCREENSHOT_FIRST_WAIT_MS), 'Screenshot');
  } catch (err) { failures.push(err.message); }
  try {
    // A capture still waiting for a frame is often released by the next capture request;
    // one beyond the viewport resizes the view for the capture, which forces a frame.
    start(clip ?? await withTimeout(viewportClip(send), left(SCREENSHOT_ATTEMPT_MS), 'Reading the viewport'), 'debugger-forced-frame');
    return await firstAnswer(left(SCREENSHOT_ATTEMPT_MS), 'Screenshot beyond the viewport');
  } catch (err) { failures.push(err.message); }
  // Last way: show the tab for a capture, then give the window its active tab back; the
  // captures already started may still answer until the budget ends.
  const [previous] = await chrome.tabs.query({ active: true, windowId: tab.windowId });
  try {
    await chrome.tabs.update(tabId, { active: true });
    await new Promise((r) => setTimeout(r, 150));
    start(clip, 'activate-and-restore');
    return await firstAnswer(left(SCREENSHOT_ATTEMPT_MS), 'Screenshot of the shown tab');
  } catch (err) {
    failures.push(err.message);
  } finally {
    if (previous && previous.id !== tabId) await chrome.tabs.update(previous.id, { active: true }).catch(() => {});
  }
  try {
    return await firstAnswer(left(), `Screenshot within ${SCREENSHOT_BUDGET_MS} ms`);
  } catch (err) {
    failures.push(err.message);
    throw new ProtocolError(ERR_INTERNAL, `Cannot capture tab ${tabId}: ${[...new Set(failures)].join('; ')}`);
  }
}

async function screenshot(params) {
  const tabId = requireTabId(params);
  const t = target(params, { required: false });
  const fullPage = bool(params, 'fullPage', false);
  const element = t.selector !== undefined || t.ref !== undefined;
  if (element && fullPage) throw invalid('Give fullPage or an element (selector or ref), not both');
  const format = str(params, 'format', { required: false, max: 10, fallback: 'png' });
  if (!FORMATS.has(format)) throw invalid("Invalid format: expected 'png', 'jpeg' or 'webp'");
  const quality = int(params, 'quality', { required: false, min: 0 });
  if (quality !== undefined && (quality > 100 || format === 'png')) throw invalid('quality is 0-100 and applies to jpeg and webp only');
  const encoding = { format, ...(quality !== undefined ? { quality } : {}) };
  const mimeType = `image/${format}`;
  const tab = await chrome.tabs.get(tabId);
  // Image pixels per CSS pixel: divide image coordinates by it for browser_mouse.  Read
  // after a captureVisibleTab, which must start as soon as the rate limiter let the call
  // through (Chrome allows two of them per second).
  const readPixelRatio = () => chrome.scripting.executeScript({ target: { tabId }, world: 'ISOLATED', func: () => devicePixelRatio })
    .then((r) => r?.[0]?.result ?? 1, () => 1);
  if (tab.active && !fullPage && !element && format !== 'webp') {
    // The visible viewport of the window's active tab: no debugger, no focus change.
    const dataUrl = await chrome.tabs.captureVisibleTab(tab.windowId, encoding);
    return { image: dataUrl.slice(dataUrl.indexOf(',') + 1), mimeType, pixelRatio: await readPixelRatio(), capturedWith: 'captureVisibleTab' };
  }
  const pixelRatio = await readPixelRatio();
  const box = element ? await runPageOp(tabId, 'elementBox', t) : null;
  return withDebugger(tabId, async (send) => {
    let clip = null;
    const out = {};
    if (fullPage) {
      const m = await withTimeout(send('Page.getLayoutMetrics'), SCREENSHOT_ATTEMPT_MS, 'Reading the page size');
      const size = m.cssContentSize ?? m.contentSize;
      clip = { x: 0, y: 0, width: Math.ceil(size.width), height: Math.ceil(size.height) };
    } else if (box) {
      clip = { x: Math.floor(box.x), y: Math.floor(box.y), width: Math.max(1, Math.round(box.width)), height: Math.max(1, Math.round(box.height)) };
      out.element = { tag: box.tag, ref: box.ref, text: box.text };
    }
    if (clip && (clip.width > MAX_CAPTURE_WIDTH || clip.height > MAX_CAPTURE_HEIGHT)) {
      out.truncated = true;
      out.note = `The ${fullPage ? 'page' : 'element'} is ${clip.width}x${clip.height} CSS px; captured its top-left ${Math.min(clip.width, MAX_CAPTURE_WIDTH)}x${Math.min(clip.height, MAX_CAPTURE_HEIGHT)}`;
      clip.width = Math.min(clip.width, MAX_CAPTURE_WIDTH);
      clip.height = Math.min(clip.height, MAX_CAPTURE_HEIGHT);
    }
    let scale = 1;
    for (;;) {
      const shot = await captureReliably(tabId, tab, send, clip ? { ...clip, scale } : null, encoding);
      if (shot.data.length <= MAX_IMAGE_BASE64 || scale < 0.2) {
        if (shot.data.length > MAX_IMAGE_BASE64) throw new ProtocolError(ERR_INTERNAL, 'The screenshot stays over 6 MB even scaled down to 1/8; capture an element or the viewport instead');
        if (scale !== 1) out.scale = scale;
        return { image: shot.data, mimeType, pixelRatio: pixelRatio * scale, capturedWith: shot.capturedWith, ...(clip ? { clip: { x: clip.x, y: clip.y, width: clip.width, height: clip.height } } : {}), ...out };
      }
      if (!clip) clip = await viewportClip(send);
      scale /= 2;
    }
  });
}

// In the frame (an isolated world): the document from the HTTP cache if it is there (no new
// request: only-if-cached), else the current DOM serialised.
async function readDocumentInFrame(url) {
  try {
    const res = await fetch(url, { cache: 'only-if-cached', mode: 'same-origin', credentials: 'include' });
    if (res.ok) return { content: await res.text(), source: 'http-cache' };
  } catch { /* not cached, or another origin */ }
  const doctype = document.doctype ? `<!DOCTYPE ${document.doctype.name}>\n` : '';
  return { content: doctype + document.documentElement.outerHTML, source: 'dom' };
}

async function documentFallback(send, frameId, url) {
  const { executionContextId } = await send('Page.createIsolatedWorld', { frameId, worldName: 'opentabs-resource' });
  const r = await send('Runtime.evaluate', {
    contextId: executionContextId, expression: `(${readDocumentInFrame})(${JSON.stringify(url)})`, awaitPromise: true, returnByValue: true,
  });
  const value = r?.result?.value;
  if (!value || typeof value.content !== 'string') throw new ProtocolError(ERR_INTERNAL, `Cannot read the document ${url}: ${r?.exceptionDetails?.text ?? 'no result'}`);
  return {
    content: value.content, base64Encoded: false, source: value.source,
    note: value.source === 'dom' ? 'The browser kept no copy of the original bytes (e.g. Cache-Control: no-store); this is the current DOM serialised' : undefined,
  };
}

function flattenFrameTree(tree, out = []) {
  const frameId = tree.frame.id;
  out.push({ url: tree.frame.url, type: 'Document', mimeType: tree.frame.mimeType, frameId });
  for (const r of tree.resources ?? []) out.push({ url: r.url, type: r.type, mimeType: r.mimeType, frameId, contentSize: r.contentSize, failed: r.failed || undefined });
  for (const child of tree.childFrames ?? []) flattenFrameTree(child, out);
  return out;
}

const MAX_FRAME_DEPTH = 5;
const PROBE_POLL_MS = 50;
const PROBE_TRIES = 16; // at most 0.8 s for a frame that never reports (no script can run there)

// ISOLATED world of every frame: remember the probe token the parent frame posts.  Only the
// parent window is believed, so a frame's page cannot claim another frame's token.
function listenForFrameProbe() {
  if (globalThis.__opentabsProbeListening) return true;
  globalThis.__opentabsProbeListening = true;
  window.addEventListener('message', (event) => {
    const token = event.data?.__opentabsFrameProbe;
    if (event.source === window.parent && window.parent !== window && typeof token === 'string' && /^p[0-9]{1,24}$/.test(token)) {
      globalThis.__opentabsFrameProbe = token;
    }
  });
  return true;
}
function readFrameProbe() { return globalThis.__opentabsFrameProbe ?? null; }

// Which extension frame shows each cross-origin iframe of `doc` (token -> {frameId, documentId}):
// every frame listens, the parent document posts each iframe its token, the frames report.
async function identifyFrames(tabId, doc, tokens) {
  await chrome.scripting.executeScript({ target: { tabId, allFrames: true }, world: 'ISOLATED', func: listenForFrameProbe }).catch(() => {});
  await runPageOpIn(tabId, 'postFrameProbes', { tokens }, doc);
  const found = new Map();
  for (let i = 0; i < PROBE_TRIES && found.size < tokens.length; i++) {
    if (i) await new Promise((r) => setTimeout(r, PROBE_POLL_MS));
    const results = await chrome.scripting.executeScript({ target: { tabId, allFrames: true }, world: 'ISOLATED', func: readFrameProbe }).catch(() => []);
    for (const r of results) if (tokens.includes(r.result) && r.frameId !== 0) found.set(r.result, { frameId: r.frameId, documentId: r.documentId });
  }
  return found;
}

// The snapshot of one document with its cross-origin frames spliced in: each frame's own
// agent snapshots it (chrome.scripting reaches every frame, in-process or not) and its lines
// replace the "(frame p…)" marker line, indented under the iframe.  The refs a frame hands out
// are remembered with its document, so actions on them run there.
async function snapshotDocument(tabId, args, where, depth) {
  const { value, frameId, documentId, frame } = await runPageOpIn(tabId, 'snapshot', args, where);
  const self = where ?? frame ?? null; // this document's entry (null: the top document)
  if (where) rememberFrameDocument(tabId, value.tag, where);
  const lines = value.snapshot.split('\n');
  let truncated = value.truncated;
  if (truncated && lines[lines.length - 1].startsWith(TRUNCATION_MARKER)) lines.pop();
  const markers = value.frames ?? [];
  if (markers.length) {
    const docTarget = { frameId, documentId };
    const located = depth >= MAX_FRAME_DEPTH ? new Map() : await identifyFrames(tabId, docTarget, markers.map((m) => m.token));
    for (const marker of [...markers].reverse()) {
      const indent = '  '.repeat(marker.depth);
      const at = located.get(marker.token);
      let inner;
      if (!at) {
        inner = [`${indent}- (cross-origin frame not inspected: ${depth >= MAX_FRAME_DEPTH ? `nested deeper than ${MAX_FRAME_DEPTH}` : 'it has no document the extension can reach'})`];
      } else {
        try {
          const child = await snapshotDocument(tabId, { maxChars: args.maxChars, interactiveOnly: args.interactiveOnly, refText: args.refText },
            { ...at, token: marker.token, parent: self }, depth + 1);
          inner = child.lines.map((l) => indent + l);
          truncated ||= child.truncated;
        } catch (err) {
          inner = [`${indent}- (cross-origin frame not inspected: ${String(err?.message ?? err).slice(0, 200)})`];
        }
      }
      lines.splice(marker.line, 1, ...inner);
    }
  }
  return { url: value.url, title: value.title, lines, truncated };
}

export async function snapshotWithFrames(tabId, args) {
  const doc = await snapshotDocument(tabId, args, undefined, 0);
  const budget = args.maxChars - 160; // room for the truncation marker
  let { lines, truncated } = doc;
  let size = 0;
  const kept = [];
  for (const line of lines) {
    if (size + line.length + 1 > budget) { truncated = true; break; }
    kept.push(line);
    size += line.length + 1;
  }
  let text = kept.join('\n');
  if (truncated) text += `\n${TRUNCATION_MARKER}: snapshot reached maxChars=${args.maxChars} after ${kept.length} lines; scope it with selector or ref, or use interactiveOnly]`;
  return { url: doc.url, title: doc.title, snapshot: text, truncated, lines: kept.length };
}

export const commands = {
  'browser.executeScript': async (params) => runExecFile(requireTabId(params), str(params, 'execFile', { max: 200 })),

  'browser.screenshotTab': screenshot,

  'browser.snapshot': async (params) => {
    const tabId = requireTabId(params);
    const t = target(params, { required: false });
    const maxChars = Math.min(int(params, 'maxChars', { required: false, min: 200, fallback: 20_000 }), 200_000);
    return snapshotWithFrames(tabId, { ...t, maxChars, interactiveOnly: bool(params, 'interactiveOnly', false) });
  },

  'browser.getTabContent': async (params) => runPageOp(requireTabId(params), 'content', {
    selector: str(params, 'selector', { required: false, max: 4000 }),
    maxLength: int(params, 'maxLength', { required: false, min: 1, fallback: 50_000 }),
  }),

  'browser.getPageHtml': async (params) => runPageOp(requireTabId(params), 'html', {
    selector: str(params, 'selector', { required: false, max: 4000, fallback: 'html' }),
    maxLength: int(params, 'maxLength', { required: false, min: 1, fallback: 200_000 }),
  }),

  'browser.queryElements': async (params) => {
    const attributes = params?.attributes;
    if (attributes !== undefined && (!Array.isArray(attributes) || !attributes.every((a) => typeof a === 'string'))) throw invalid('Invalid attributes parameter: expected an array of names');
    return runPageOp(requireTabId(params), 'query', {
      selector: str(params, 'selector', { max: 4000 }),
      limit: Math.min(int(params, 'limit', { required: false, min: 1, fallback: 100 }), 1000),
      attributes,
    });
  },

  'browser.getStorage': async (params) => {
    const storageType = str(params, 'storageType', { required: false, fallback: 'local', max: 10 });
    if (storageType !== 'local' && storageType !== 'session') throw invalid("Invalid storageType: expected 'local' or 'session'");
    return runPageOp(requireTabId(params), 'storage', { storageType, key: str(params, 'key', { required: false, max: 4096 }) });
  },

  'browser.listResources': async (params) => {
    const tabId = requireTabId(params);
    const type = str(params, 'type', { required: false, max: 40 });
    return withDebugger(tabId, async (send) => {
      await send('Page.enable');
      const { frameTree } = await send('Page.getResourceTree');
      let resources = flattenFrameTree(frameTree);
      if (type) resources = resources.filter((r) => r.type === type);
      const truncated = resources.length > 1000;
      return { count: resources.length, resources: resources.slice(0, 1000), truncated };
    });
  },

  'browser.getResourceContent': async (params) => {
    const tabId = requireTabId(params);
    const url = str(params, 'url', { max: 8192 });
    const maxLength = int(params, 'maxLength', { required: false, min: 1, fallback: 100_000 });
    return withDebugger(tabId, async (send) => {
      await send('Page.enable');
      const { frameTree } = await send('Page.getResourceTree');
      const match = flattenFrameTree(frameTree).find((r) => r.url === url);
      if (!match) throw invalid(`The page has no loaded resource with url ${url} (see browser_list_resources)`);
      let body;
      try {
        body = await send('Page.getResourceContent', { frameId: match.frameId, url });
      } catch (err) {
        // A frame's own document is often not kept ("Resource was not cached": pages sent
        // with Cache-Control: no-store, as logged-in pages are).
        if (match.type !== 'Document') throw err;
        body = await documentFallback(send, match.frameId, url);
      }
      const { content, base64Encoded } = body;
      const truncated = content.length > maxLength;
      const out = {
        url, type: match.type, mimeType: match.mimeType, base64Encoded,
        content: truncated ? `${content.slice(0, maxLength)}\n[... truncated: ${maxLength} of ${content.length} characters shown]` : content,
        truncated,
      };
      if (body.source) out.source = body.source;
      if (body.note) out.note = body.note;
      return out;
    });
  },
};
