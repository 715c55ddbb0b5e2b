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
const SCREENSHOT_CDP_TIMEOUT_MS = 10_000;

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

async function screenshot(params) {
  const tabId = requireTabId(params);
  const tab = await chrome.tabs.get(tabId);
  if (tab.active) {
    // The visible viewport of the window's active tab: no debugger, no focus change.
    const dataUrl = await chrome.tabs.captureVisibleTab(tab.windowId, { format: 'png' });
    return { image: dataUrl.slice(dataUrl.indexOf(',') + 1), mimeType: 'image/png', capturedWith: 'captureVisibleTab' };
  }
  // A background tab: capture through CDP instead of activating it.
  return withDebugger(tabId, async (send) => {
    const shot = await withTimeout(send('Page.captureScreenshot', { format: 'png' }), SCREENSHOT_CDP_TIMEOUT_MS, 'Background-tab screenshot');
    return { image: shot.data, mimeType: 'image/png', capturedWith: 'debugger' };
  });
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
          const child = await snapshotDocument(tabId, { maxChars: args.maxChars, interactiveOnly: args.interactiveOnly },
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

async function snapshotWithFrames(tabId, args) {
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

  'browser.waitForElement': async (params) => runPageOp(requireTabId(params), 'waitFor', {
    ...target(params),
    timeout: Math.min(int(params, 'timeout', { required: false, min: 0, fallback: 10_000 }), 25_000),
    visible: bool(params, 'visible', false),
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
      const { content, base64Encoded } = await send('Page.getResourceContent', { frameId: match.frameId, url });
      const truncated = content.length > maxLength;
      return {
        url, type: match.type, mimeType: match.mimeType, base64Encoded,
        content: truncated ? `${content.slice(0, maxLength)}\n[... truncated: ${maxLength} of ${content.length} characters shown]` : content,
        truncated,
      };
    });
  },
};
