// Waits that follow the tab, not the document: waiting for text, for an element, or for a
// plain amount of time.  The background polls the tab with short, non-blocking page probes
// (page-agent.js textPresent / probeElement) instead of running one long wait inside the
// page: a wait that lives in a document dies with it, so a wait sent while a click's
// navigation is under way would hang until the dispatch timeout.  A probe that cannot run
// because the document is being replaced counts as "not yet" and the next probe runs in
// whatever document the tab shows then.

import { ProtocolError, ERR_INTERNAL, ERR_INVALID_PARAMS } from '../shared/constants.js';
import { int, str, bool, tabId as requireTabId, target, invalid } from './params.js';
import { runPageOp } from './page-agent.js';

// Below the 30 s dispatch timeout, with room for the reply.
export const MAX_WAIT_MS = 25_000;
const POLL_MS = 100;
// A probe injected while the old document unloads may never answer; the next one will.
const PROBE_MS = 2_000;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function timeoutParam(params, fallback = 10_000) {
  return Math.min(int(params, 'timeout', { required: false, min: 0, fallback }), MAX_WAIT_MS);
}

// One probe, or null when the tab is between documents.  Refusals that no later document
// changes (a bad selector, a ref of another document, a dialog blocking the page, a closed
// tab) are thrown.
async function probe(tabId, op, args) {
  let timer;
  const late = new Promise((resolve) => { timer = setTimeout(() => resolve(null), PROBE_MS); });
  try {
    return await Promise.race([runPageOp(tabId, op, args), late]);
  } catch (err) {
    if (err instanceof ProtocolError && (err.code === ERR_INVALID_PARAMS || /blocked by a JavaScript/.test(err.message))) throw err;
    const tab = await chrome.tabs.get(tabId).catch(() => null);
    if (!tab) throw new ProtocolError(ERR_INTERNAL, `Tab ${tabId} was closed while waiting`);
    // Pages the extension may not script (chrome://, the web store) stay that way.
    if (/Cannot access|cannot be scripted|extensions gallery/i.test(String(err?.message))) throw err;
    return null;
  } finally {
    clearTimeout(timer);
  }
}

// Polls `check(probeResult)` until it returns a value or `timeout` ms pass; `failure(last)`
// makes the timeout's error text from the last probe result (null: none answered).
async function pollTab(tabId, op, args, timeout, check, failure) {
  const begun = Date.now();
  for (;;) {
    const seen = await probe(tabId, op, args);
    const done = seen && check(seen);
    const waitedMs = Date.now() - begun;
    if (done) return { ...done, waitedMs };
    if (waitedMs >= timeout) throw invalid(failure(seen));
    await sleep(Math.min(POLL_MS, Math.max(0, timeout - waitedMs)));
  }
}

async function waitForText(params) {
  const tabId = requireTabId(params);
  const text = str(params, 'text', { required: false, max: 10_000 });
  const textGone = str(params, 'textGone', { required: false, max: 10_000 });
  if ((text === undefined) === (textGone === undefined)) throw invalid('Give exactly one of text or textGone');
  const wanted = text ?? textGone;
  if (wanted === '') throw invalid('The text to wait for is empty');
  const appear = text !== undefined;
  const timeout = timeoutParam(params);
  return pollTab(tabId, 'textPresent', { text: wanted }, timeout,
    (seen) => (seen.present === appear ? { [appear ? 'appeared' : 'gone']: wanted, url: seen.url } : null),
    () => `Timed out after ${timeout} ms waiting for the text ${JSON.stringify(wanted)} to ${appear ? 'appear' : 'disappear'}; check the page with browser_snapshot, or wait longer`);
}

async function waitForElement(params) {
  const tabId = requireTabId(params);
  const t = target(params);
  const visible = bool(params, 'visible', false);
  const what = t.ref ? `ref ${t.ref}` : `'${t.selector}'`;
  const timeout = timeoutParam(params);
  return pollTab(tabId, 'probeElement', t, timeout,
    (seen) => (seen.found && (!visible || seen.visible) ? seen : null),
    (seen) => `Timed out after ${timeout} ms waiting for ${what}${visible ? ' to be visible' : ''}${seen?.found ? ' (it exists but is not visible)' : ''}`);
}

// A plain pause (Playwright's browser_wait_for time): for animations and debounced UIs that
// show nothing to wait for.
async function wait(params) {
  const ms = int(params, 'ms', { min: 1 });
  if (ms > MAX_WAIT_MS) throw invalid(`Invalid ms: at most ${MAX_WAIT_MS} (wait for text or an element to wait longer)`);
  await sleep(ms);
  return { waitedMs: ms };
}

export const commands = {
  'browser.waitForText': waitForText,
  'browser.waitForElement': waitForElement,
  'browser.wait': wait,
};
