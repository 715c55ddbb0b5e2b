// JavaScript dialogs (alert/confirm/prompt) of pages, as the background sees them.
//
// dialog-hook.js / dialog-relay.js (content scripts) report every dialog a page opens, before
// it blocks the page.  For a tab an agent drives (it opened the tab or sent it a command) the
// relay holds the dialog until the debugger watches the tab with the Page domain enabled, so
// browser.handleDialog can answer it through CDP (CDP only answers dialogs it saw open).
// Meanwhile page commands on a tab blocked by a dialog fail fast, naming it, instead of
// waiting for a page that cannot answer.
//
// The listener is registered only in the service worker: the e2e harness page imports the
// same command modules, and two contexts must not both answer the relay.

import { ProtocolError, ERR_INTERNAL } from '../shared/constants.js';
import { hold, release, send, onEvent, onDetached } from './debugger.js';

const GATE_COOKIE = '__opentabs_dialog_gate';
const GATE_COOKIE_TTL_S = 10;
const PROBE_MS = 500;
const MAX_DRIVEN_TABS = 1000;

const inServiceWorker = typeof ServiceWorkerGlobalScope !== 'undefined' && globalThis instanceof ServiceWorkerGlobalScope;
const openDialogs = new Map(); // tabId -> {type, message, defaultPrompt, url, frameId, openedAt, watched}
const drivenTabs = new Set();
const waiters = new Map(); // tabId -> Set of callbacks for a dialog opening

export function markDriven(tabId) {
  if (!Number.isInteger(tabId)) return;
  const known = drivenTabs.delete(tabId);
  drivenTabs.add(tabId);
  while (drivenTabs.size > MAX_DRIVEN_TABS) drivenTabs.delete(drivenTabs.values().next().value);
  // Tell the relays of the frames already loaded (later loads: tabs.onUpdated below).
  if (!known && inServiceWorker) chrome.tabs.sendMessage(tabId, { type: 'dialog:driven' }).catch(() => {});
}

export function openDialogOf(tabId) {
  return openDialogs.get(tabId) ?? null;
}

// Forgets the tab's dialog; with `which`, only if that one is still the tab's dialog (the
// next dialog of a chain may already be recorded when the answer to the one before returns).
export function dialogClosed(tabId, which = null) {
  const d = openDialogs.get(tabId);
  if (!d || (which && d !== which)) return;
  openDialogs.delete(tabId);
  d.cleanup?.();
  release(tabId, 'dialog');
}

export function describeDialog(d) {
  if (d.type === 'beforeunload') return 'beforeunload dialog (leave the page? accept leaves, dismiss stays)';
  const text = d.message.length > 200 ? `${d.message.slice(0, 199)}…` : d.message;
  return `${d.type}() dialog ${JSON.stringify(text)}`;
}

export function blockedError(tabId, d) {
  return new ProtocolError(ERR_INTERNAL, `Tab ${tabId} is blocked by a JavaScript ${describeDialog(d)}; answer it with browser_handle_dialog (action accept or dismiss${d.type === 'prompt' ? ', promptText for the answer' : ''}) before other page tools`);
}

// Resolves with the dialog when one opens in the tab (used to stop waiting for a page op).
export function nextDialog(tabId) {
  let cancel = () => {};
  const promise = new Promise((resolve) => {
    let set = waiters.get(tabId);
    if (!set) { set = new Set(); waiters.set(tabId, set); }
    set.add(resolve);
    cancel = () => { set.delete(resolve); if (!set.size) waiters.delete(tabId); };
  });
  return { promise, cancel };
}

// A recorded dialog is believed only while the page really does not answer (a page could
// fake the hook's event).  Returns the dialog if the tab is blocked, else clears it.
export async function verifiedDialog(tabId) {
  const d = openDialogs.get(tabId);
  if (!d) return null;
  let timer;
  const answered = await Promise.race([
    chrome.scripting.executeScript({ target: { tabId }, world: 'ISOLATED', func: () => true }).then(() => true, () => true),
    new Promise((resolve) => { timer = setTimeout(() => resolve(false), PROBE_MS); }),
  ]);
  clearTimeout(timer);
  if (answered) { dialogClosed(tabId); return null; }
  return openDialogs.get(tabId) ?? null;
}

export const dialogSummary = (d) => ({ type: d.type, message: d.message, ...(d.type === 'prompt' ? { defaultPrompt: d.defaultPrompt ?? '' } : {}) });

// After an answer: the dialog the page opens next in the same run of its script (a chain of
// prompt, confirm, alert), or null once the page runs again.  A page held by a dialog cannot
// run the probe, so whichever comes first tells which.  A page busy past PROBE_MS counts as
// running: its next dialog is reported by the next tool that touches the tab.
export async function dialogAfterAnswer(tabId) {
  const next = nextDialog(tabId);
  const current = openDialogs.get(tabId);
  let timer;
  try {
    if (current) return current;
    return await Promise.race([
      next.promise,
      chrome.scripting.executeScript({ target: { tabId }, world: 'ISOLATED', func: () => true }).then(() => null, () => null),
      new Promise((resolve) => { timer = setTimeout(() => resolve(null), PROBE_MS); }),
    ]);
  } finally {
    clearTimeout(timer);
    next.cancel();
  }
}

function recordOpening(tabId, sender, msg) {
  const d = {
    type: msg.dialogType, message: String(msg.message ?? ''), defaultPrompt: msg.defaultPrompt,
    url: sender.url, frameId: sender.frameId, openedAt: Date.now(), watched: false,
  };
  openDialogs.set(tabId, d);
  for (const resolve of waiters.get(tabId) ?? []) resolve(d);
  waiters.delete(tabId);
  return d;
}

// A navigation an agent starts may meet the page's beforeunload dialog, which no page script
// reports (dialog-hook.js wraps alert, confirm and prompt only) and which CDP answers only if
// it saw it open: while the navigation starts the tab is watched with the Page domain, and
// such a dialog is recorded like the others and the tab kept attached until it is answered.
// With `everyType` (a tab the agent just opened, whose page may open a dialog while it loads,
// before the page's relay learns that an agent drives the tab) any dialog CDP sees open keeps
// the tab attached until it is answered, so browser_handle_dialog can answer it.
// Returns what stops the watch.  A tab another debugger holds is navigated unwatched.
export async function watchNavigation(tabId, { everyType = false } = {}) {
  let stop = () => {};
  try {
    await hold(tabId, 'navigation');
    stop = onEvent(tabId, (method, params) => {
      if (method !== 'Page.javascriptDialogOpening') return;
      if (params?.type !== 'beforeunload') {
        // Reported by the page's relay too, which records it; the tab stays attached until CDP
        // sees the dialog close.
        if (!everyType) return;
        hold(tabId, 'dialog').catch(() => {});
        const stopClosed = onEvent(tabId, (m) => { if (m === 'Page.javascriptDialogClosed') { stopClosed(); release(tabId, 'dialog'); } });
        return;
      }
      const d = recordOpening(tabId, { url: params.url, frameId: 0 }, { dialogType: 'beforeunload', message: params.message ?? '' });
      d.watched = true;
      const stopEvents = onEvent(tabId, (m) => { if (m === 'Page.javascriptDialogClosed' && openDialogs.get(tabId) === d) dialogClosed(tabId); });
      const stopDetach = onDetached(tabId, () => { stopEvents(); stopDetach(); if (openDialogs.get(tabId) === d) dialogClosed(tabId); });
      d.cleanup = () => { stopEvents(); stopDetach(); };
      hold(tabId, 'dialog').then(() => { if (openDialogs.get(tabId) !== d) release(tabId, 'dialog'); }, () => {});
    });
    await send(tabId, 'Page.enable');
  } catch { /* not debuggable here */ }
  return () => { stop(); release(tabId, 'navigation'); };
}

// Watch the tab with the debugger (Page domain on) and then open the relay's gate.  The
// Page.enable reply only comes once the page runs again, so it is sent, not awaited: the
// browser turns the domain on as it receives the command, before the cookie call that follows.
async function watchAndOpenGate(tabId, sender, token, d) {
  try {
    await hold(tabId, 'dialog');
    if (openDialogs.get(tabId) !== d) { release(tabId, 'dialog'); return; } // closed meanwhile
    const stopEvents = onEvent(tabId, (method) => { if (method === 'Page.javascriptDialogClosed' && openDialogs.get(tabId) === d) dialogClosed(tabId); });
    const stopDetach = onDetached(tabId, () => { stopEvents(); stopDetach(); d.watched = false; });
    d.cleanup = () => { stopEvents(); stopDetach(); };
    send(tabId, 'Page.enable').catch(() => {});
    d.watched = true;
  } catch {
    // Another debugger holds the tab: the dialog opens unwatched (it is still reported).
  } finally {
    const { origin, protocol } = new URL(sender.url);
    // SameSite=None (https only) so a cross-site frame's document.cookie sees it too.
    const crossSite = protocol === 'https:' ? { secure: true, sameSite: 'no_restriction' } : {};
    await chrome.cookies.set({
      url: `${origin}/`, name: GATE_COOKIE, value: token, path: '/', expirationDate: Math.floor(Date.now() / 1000) + GATE_COOKIE_TTL_S, ...crossSite,
    }).catch(() => {});
  }
}

if (inServiceWorker) {
  chrome.runtime.onMessage.addListener((msg, sender, sendResponse) => {
    if (msg?.target !== 'background' || sender.id !== chrome.runtime.id || typeof msg.type !== 'string' || !msg.type.startsWith('dialog:')) return false;
    const tabId = sender.tab?.id;
    if (!Number.isInteger(tabId)) return false;
    if (msg.type === 'dialog:opening' && ['alert', 'confirm', 'prompt'].includes(msg.dialogType)) {
      const d = recordOpening(tabId, sender, msg);
      const token = typeof msg.gate === 'string' && /^[0-9a-f]{32}$/.test(msg.gate) ? msg.gate : null;
      if (token && /^https?:/.test(sender.url ?? '')) watchAndOpenGate(tabId, sender, token, d);
    } else if (msg.type === 'dialog:closed') {
      dialogClosed(tabId);
    }
    sendResponse({ ok: true });
    return false;
  });
  chrome.tabs.onRemoved.addListener((tabId) => { dialogClosed(tabId); drivenTabs.delete(tabId); });
  chrome.tabs.onUpdated.addListener((tabId, info) => {
    if (drivenTabs.has(tabId) && (info.status === 'loading' || info.status === 'complete')) {
      chrome.tabs.sendMessage(tabId, { type: 'dialog:driven' }).catch(() => {});
    }
  });
}
