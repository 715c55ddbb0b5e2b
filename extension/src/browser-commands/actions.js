// Page actions both Playwright MCP and Chrome DevTools MCP offer: navigation that waits for
// the page to load (navigate, back, forward, reload),
// drag and drop (an element of the page, or files and data from outside it), file upload into
// an <input type=file>, and filling several form fields in
// one call.  Drag and upload use CDP (trusted drag events, DOM.setFileInputFiles) through
// debugger.js, which detaches after an idle period; the rest needs no debugger.  None of
// them activates the tab.
//
// Upload paths and dropped files come from the server, which checked them against its read
// policy (only files under the output folder or an additionalAllowedDirectories entry, never
// the config folder's own files); this side only requires them to be absolute.

import { ProtocolError, ERR_INTERNAL } from '../shared/constants.js';
import { int, str, tabId as requireTabId, target, invalid, httpUrl, bool } from './params.js';
import { runPageOp } from './page-agent.js';
import { withDebugger, onEvent } from './debugger.js';
import { pointer } from './input.js';
import { openDialogOf, dialogSummary, watchNavigation } from './dialogs.js';

// Below the 30 s dispatch timeout, with room for the reply.
export const NAV_WAIT_MS = 20_000;
const SAME_DOCUMENT_GRACE_MS = 1_000;
const DRAG_START_WAIT_MS = 1_000;
const WAIT_UNTIL = new Set(['none', 'load', 'domcontentloaded']);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export function waitUntilParam(params) {
  const w = str(params, 'waitUntil', { required: false, max: 20, fallback: 'load' });
  if (!WAIT_UNTIL.has(w)) throw invalid("Invalid waitUntil: expected 'none', 'load' or 'domcontentloaded'");
  return w;
}

// ISOLATED world: the document's readyState (the document that is in the tab now).
function readyState() { return document.readyState; }

// Starts a navigation with `start()` and waits as `waitUntil` says: 'load' until the tab's
// status is complete again after it was loading, 'domcontentloaded' until the new document
// is interactive.  A navigation that never starts loading (a same-document history step)
// counts as done once the tab is complete for SAME_DOCUMENT_GRACE_MS.  A dialog that holds
// the navigation (the old page's beforeunload; an alert the new page opens while loading)
// ends the wait, named in the answer.  `fresh`: a tab the agent just opened (at about:blank;
// `start` sends it to its page), watched for every dialog type (dialogs.js watchNavigation).
export async function navigateAndWait(tabId, start, waitUntil, { fresh = false } = {}) {
  let sawLoading = false;
  let sawComplete = false;
  // A fresh tab's about:blank loads and completes too: not the page asked for.
  const blank = (tab) => fresh && (tab?.url ?? '') === 'about:blank' && !tab?.pendingUrl;
  const listener = (id, change, tab) => {
    if (id !== tabId || blank(tab)) return;
    if (change.status === 'loading') sawLoading = true;
    if (change.status === 'complete' && sawLoading) sawComplete = true;
  };
  chrome.tabs.onUpdated.addListener(listener);
  const begun = Date.now();
  const unwatch = waitUntil === 'none' ? () => {} : await watchNavigation(tabId, { everyType: fresh });
  try {
    await start();
    if (waitUntil === 'none') return { waitedFor: 'none', tab: await chrome.tabs.get(tabId) };
    for (;;) {
      const tab = await chrome.tabs.get(tabId);
      if (tab.status === 'loading' && !blank(tab)) sawLoading = true;
      if (sawComplete || (sawLoading && tab.status === 'complete')) return { waitedFor: waitUntil, tab, moved: true };
      // A dialog the new page opened while loading holds the load until it is answered: say so
      // now rather than at the deadline.
      const dialog = openDialogOf(tabId);
      if (dialog && dialog.openedAt >= begun) return { waitedFor: waitUntil, tab, moved: sawLoading, dialog };
      if (!sawLoading && tab.status === 'complete' && !blank(tab) && Date.now() - begun > SAME_DOCUMENT_GRACE_MS) return { waitedFor: waitUntil, tab, moved: false };
      if (waitUntil === 'domcontentloaded' && sawLoading && !tab.pendingUrl) {
        // The old document stays 'complete' until the new one commits; the new one is
        // 'interactive' from DOMContentLoaded until load.
        const state = await chrome.scripting.executeScript({ target: { tabId }, world: 'ISOLATED', func: readyState })
          .then((r) => r?.[0]?.result, () => null);
        if (state === 'interactive') return { waitedFor: waitUntil, tab, moved: true };
      }
      if (Date.now() - begun > NAV_WAIT_MS) return { waitedFor: waitUntil, tab, moved: sawLoading, timedOut: true };
      await sleep(100);
    }
  } finally {
    chrome.tabs.onUpdated.removeListener(listener);
    unwatch();
  }
}

export function navResult({ waitedFor, tab, timedOut, dialog }) {
  const out = { id: tab.id, title: tab.title ?? '', url: tab.pendingUrl || tab.url || '', windowId: tab.windowId, status: tab.status, waitedFor };
  if (dialog) {
    out.dialog = { ...dialogSummary(dialog), note: 'The page opened a JavaScript dialog while loading and waits for it; answer it with browser_handle_dialog' };
  }
  if (timedOut) {
    out.timedOut = true;
    out.note = `The page was still loading after ${NAV_WAIT_MS / 1000} s; it may still be usable (browser_snapshot), or wait longer with browser_wait_for_text`;
  }
  return out;
}

// ISOLATED world: one step through the session history, as the page itself would.
function pageHistoryGo(delta) { history.go(delta); }

// Back (-1) or forward (+1).  chrome.tabs.goBack skips entries the page added without a user
// gesture (Chrome's history intervention for the back button), which is every entry an
// agent made; the page's own history.go() still reaches them, so it is the fallback.
async function historyStep(tabId, delta, waitUntil) {
  const what = delta < 0 ? 'back' : 'forward';
  const before = await chrome.tabs.get(tabId);
  const step = async () => {
    try {
      await (delta < 0 ? chrome.tabs.goBack(tabId) : chrome.tabs.goForward(tabId));
    } catch (err) {
      if (!/Cannot find a next page in history/i.test(String(err?.message ?? err))) throw invalid(`Cannot go ${what} in tab ${tabId}: ${err?.message ?? err}`);
      try {
        await chrome.scripting.executeScript({ target: { tabId }, world: 'ISOLATED', func: pageHistoryGo, args: [delta] });
      } catch (err2) {
        throw invalid(`Cannot go ${what} in tab ${tabId}: ${err2?.message ?? err2}`);
      }
    }
  };
  const r = await navigateAndWait(tabId, step, waitUntil);
  // With waitUntil 'none' the step may not have begun yet: nothing to tell from.
  if (waitUntil !== 'none' && !r.moved && (r.tab.url || '') === (before.url || '')) throw invalid(`Cannot go ${what} in tab ${tabId}: there is no ${delta < 0 ? 'previous' : 'next'} page in its history`);
  return navResult(r);
}

// Bounds of what a drop from outside the page may carry.
const MAX_DROP_FILES = 20;
const MAX_DROP_TYPES = 10;
const MAX_DROP_DATA = 1_000_000;
// DragOperationsMask: copy | link | move, as a drag from another application allows.
const ANY_DRAG_OPERATION = 1 | 2 | 16;

// The drag data of a drop from outside the page: files (absolute paths the server checked
// against its read policy) and/or data items ({"text/plain": "...", "text/uri-list": "..."}).
function outsideDragData(params) {
  const files = params?.files;
  const data = params?.data;
  if (files !== undefined && (!Array.isArray(files) || files.length === 0 || files.length > MAX_DROP_FILES
    || !files.every((p) => typeof p === 'string' && p.startsWith('/') && p.length <= 4096))) {
    throw invalid(`Invalid files: expected 1-${MAX_DROP_FILES} absolute file paths`);
  }
  if (data !== undefined) {
    const entries = data && typeof data === 'object' && !Array.isArray(data) ? Object.entries(data) : null;
    if (!entries || entries.length === 0 || entries.length > MAX_DROP_TYPES) throw invalid(`Invalid data: expected {"mime/type": "text"} with 1-${MAX_DROP_TYPES} types, e.g. {"text/plain": "hello"}`);
    let total = 0;
    for (const [type, value] of entries) {
      if (!/^[a-z]+\/[a-z0-9.+-]+$/i.test(type)) throw invalid(`Invalid data: "${type.slice(0, 50)}" is not a MIME type such as text/plain or text/uri-list`);
      if (typeof value !== 'string') throw invalid(`Invalid data["${type}"]: expected a string`);
      total += value.length;
    }
    if (total > MAX_DROP_DATA) throw invalid(`Invalid data: more than ${MAX_DROP_DATA} characters in all`);
  }
  return {
    items: (data ? Object.entries(data) : []).map(([mimeType, value]) => ({ mimeType, data: value })),
    ...(files ? { files } : {}),
    dragOperationsMask: ANY_DRAG_OPERATION,
  };
}

// Files or data dropped onto an element as if dragged in from another application: trusted
// dragenter, dragover and drop at the element's visible point (no mouse button involved).
async function dropFromOutside(tabId, params) {
  const data = outsideDragData(params);
  const to = target({ selector: params?.toSelector, ref: params?.toRef });
  const end = await runPageOp(tabId, 'locate', to);
  await withDebugger(tabId, async (send) => {
    for (const type of ['dragEnter', 'dragOver', 'drop']) {
      await send('Input.dispatchDragEvent', { type, x: end.x, y: end.y, data, modifiers: 0 });
    }
  });
  const { tag, ref, text } = end;
  return { dropped: true, files: (data.files ?? []).map((p) => p.slice(p.lastIndexOf('/') + 1)), types: data.items.map((i) => i.mimeType), to: { tag, ref, text } };
}

async function drag(params) {
  const tabId = requireTabId(params);
  if (params?.files !== undefined || params?.data !== undefined) {
    if (params?.fromSelector !== undefined || params?.fromRef !== undefined) throw invalid('Give either fromSelector/fromRef (drag an element of the page) or files/data (drop from outside), not both');
    return dropFromOutside(tabId, params);
  }
  const from = target({ selector: params?.fromSelector, ref: params?.fromRef });
  const to = target({ selector: params?.toSelector, ref: params?.toRef });
  // locate scrolls an element into view when it is not; both must be in view together.  If
  // locating the target scrolled the page, the source is located again, and that must not
  // scroll it back.
  const sameScroll = (a, b) => a.scrollX === b.scrollX && a.scrollY === b.scrollY;
  let start = await runPageOp(tabId, 'locate', from);
  let end = await runPageOp(tabId, 'locate', to);
  if (!sameScroll(start, end)) {
    start = await runPageOp(tabId, 'locate', from);
    if (!sameScroll(start, end)) end = null;
  }
  if (!end) throw invalid('The two elements cannot be in view at the same time; scroll or resize so both are visible, then drag');
  const { dropped, navigatedMidDrag } = await dragWithMouse(tabId, start, end);
  if (navigatedMidDrag) {
    const now = await chrome.tabs.get(tabId).catch(() => null);
    throw invalid(`Tab ${tabId} navigated during the drag (now ${now?.pendingUrl || now?.url || 'closed'}); the mouse button was released and nothing was dropped. Take a new browser_snapshot and drag again`);
  }
  const strip = ({ tag, ref, text }) => ({ tag, ref, text });
  return { dragged: true, html5Drop: dropped, from: strip(start), to: strip(end) };
}

// Press at start, move to end, drop, release; the button is released whatever happens.
// A page may navigate while the button is down (a link, a script on mousedown): the drag then
// stops moving, drops nothing and reports it, rather than dropping onto the next document.
// The page's own navigation request (Page.frameRequestedNavigation) arrives before the reply
// to the mouse event whose handler made it; the tab's loading status catches navigations
// started any other way.  What the drop or the release itself starts (a router updating the
// URL) is the drag's result, not a failure.
async function dragWithMouse(tabId, start, end) {
  let navigated = false;
  const onUpdated = (id, change) => { if (id === tabId && change.status === 'loading') navigated = true; };
  chrome.tabs.onUpdated.addListener(onUpdated);
  try {
    return await withDebugger(tabId, async (send) => {
      // With drags intercepted, Chrome hands the drag data to us (Input.dragIntercepted)
      // instead of starting an OS drag, and the drop is dispatched as trusted drag events.  A
      // pointer-based drag (no HTML5 dragstart) just sees the mouse moves.
      await send('Page.enable');
      const { frameTree } = await send('Page.getFrameTree');
      const topFrame = frameTree.frame.id;
      await send('Input.setInterceptDrags', { enabled: true });
      let stop = () => {};
      const intercepted = new Promise((resolve) => {
        stop = onEvent(tabId, (method, p) => {
          if (method === 'Input.dragIntercepted') resolve(p.data);
          else if ((method === 'Page.frameRequestedNavigation' || method === 'Page.frameStartedLoading') && p.frameId === topFrame) navigated = true;
        });
      });
      const mouse = pointer(send);
      try {
        await mouse.move(start.x, start.y);
        await mouse.press('left');
        if (!navigated) await mouse.move(end.x, end.y, 5);
        const data = navigated ? null : await Promise.race([intercepted, sleep(DRAG_START_WAIT_MS).then(() => null)]);
        const navigatedMidDrag = navigated;
        let dropped = false;
        if (data && !navigatedMidDrag) {
          for (const type of ['dragEnter', 'dragOver', 'drop']) {
            await send('Input.dispatchDragEvent', { type, x: end.x, y: end.y, data, modifiers: 0 });
          }
          dropped = true;
        }
        await mouse.release();
        return { dropped, navigatedMidDrag };
      } finally {
        stop();
        await mouse.finish();
        await send('Input.setInterceptDrags', { enabled: false }).catch(() => {});
      }
    });
  } finally {
    chrome.tabs.onUpdated.removeListener(onUpdated);
  }
}

async function uploadFile(params) {
  const tabId = requireTabId(params);
  const t = target(params);
  const paths = params?.paths;
  if (!Array.isArray(paths) || paths.length === 0 || paths.length > 20 || !paths.every((p) => typeof p === 'string' && p.startsWith('/') && p.length <= 4096)) {
    throw invalid('Invalid paths: expected 1-20 absolute file paths');
  }
  const marked = await runPageOp(tabId, 'markFileInput', { ...t, count: paths.length });
  try {
    await withDebugger(tabId, async (send) => {
      const { root } = await send('DOM.getDocument', { depth: 0 });
      const { nodeId } = await send('DOM.querySelector', { nodeId: root.nodeId, selector: `[data-opentabs-inspect="${marked.token}"]` });
      if (!nodeId) throw new ProtocolError(ERR_INTERNAL, 'The file input left the page before the files were set');
      await send('DOM.setFileInputFiles', { nodeId, files: paths });
    });
  } finally {
    await runPageOp(tabId, 'unmark', { token: marked.token }).catch(() => {});
  }
  const { token, ...element } = marked;
  return { uploaded: paths.length, files: paths.map((p) => p.slice(p.lastIndexOf('/') + 1)), ...element };
}

function fields(params) {
  const list = params?.fields;
  if (!Array.isArray(list) || list.length === 0 || list.length > 100) throw invalid('Invalid fields: expected 1-100 {selector or ref, value} entries');
  return list.map((f, i) => {
    if (!f || typeof f !== 'object' || Array.isArray(f)) throw invalid(`Invalid fields[${i}]: expected {selector or ref, value}`);
    let t;
    try { t = target(f); } catch (err) { throw invalid(`Invalid fields[${i}]: ${err.message}`); }
    const v = f.value;
    if (typeof v !== 'string' && typeof v !== 'boolean') throw invalid(`Invalid fields[${i}].value: expected a string or true/false`);
    if (typeof v === 'string' && v.length > 100_000) throw invalid(`Invalid fields[${i}].value: longer than 100000 characters`);
    return { ...t, value: v };
  });
}

export const commands = {
  // Wire: OpenTabs sends {tabId, url}; `waitUntil` is ours ('load' when missing).
  'browser.navigateTab': async (params) => {
    const tabId = requireTabId(params);
    const url = httpUrl(params);
    const waitUntil = waitUntilParam(params);
    return navResult(await navigateAndWait(tabId, () => chrome.tabs.update(tabId, { url }), waitUntil));
  },

  'browser.goBack': async (params) => {
    const tabId = requireTabId(params);
    const waitUntil = waitUntilParam(params);
    return historyStep(tabId, -1, waitUntil);
  },

  'browser.goForward': async (params) => {
    const tabId = requireTabId(params);
    const waitUntil = waitUntilParam(params);
    return historyStep(tabId, 1, waitUntil);
  },

  'browser.reloadTab': async (params) => {
    const tabId = requireTabId(params);
    const waitUntil = waitUntilParam(params);
    const bypassCache = bool(params, 'bypassCache', false);
    return navResult(await navigateAndWait(tabId, () => chrome.tabs.reload(tabId, { bypassCache }), waitUntil));
  },

  'browser.dragElement': drag,
  'browser.uploadFile': uploadFile,
  'browser.fillForm': async (params) => runPageOp(requireTabId(params), 'fillForm', { fields: fields(params) }),
};
