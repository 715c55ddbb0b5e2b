// chrome.debugger (CDP 1.3) on demand.  Chrome shows "… started debugging this browser" for
// as long as any tab is attached, so a tab is attached only when a tool needs CDP and detached
// again once it has been idle for IDLE_DETACH_MS and nothing holds it.  Long-lived features
// whose effect lives in the CDP session (network capture, interception, emulation, throttling,
// forced pseudo-classes) take a named hold; releasing the last hold starts the idle timer.
//
// Events are fanned out to per-tab listeners; an external detach (the user pressed "Cancel"
// on the infobar, the tab closed) drops every hold and tells the holders.

import { ProtocolError, ERR_INTERNAL } from '../shared/constants.js';

export const IDLE_DETACH_MS = 5_000;
const PROTOCOL_VERSION = '1.3';

const sessions = new Map(); // tabId -> {attached: Promise, holds: Set, timer, listeners: Set, detachListeners: Set}

function sessionFor(tabId) {
  let s = sessions.get(tabId);
  if (!s) {
    s = { attached: null, holds: new Set(), timer: null, listeners: new Set(), detachListeners: new Set(), busy: 0 };
    sessions.set(tabId, s);
  }
  return s;
}

function scheduleIdleDetach(tabId) {
  const s = sessions.get(tabId);
  if (!s) return;
  clearTimeout(s.timer);
  if (s.holds.size || s.busy) return;
  s.timer = setTimeout(() => {
    const current = sessions.get(tabId);
    if (!current || current.holds.size || current.busy) return;
    sessions.delete(tabId);
    chrome.debugger.detach({ tabId }).catch(() => {});
  }, IDLE_DETACH_MS);
}

// What the user or agent can do about a refused attach.
function attachHint(text) {
  if (/already attached/i.test(text)) return ' (another debugger, e.g. DevTools or another extension, is attached to this tab; close it and try again)';
  if (/chrome:\/\/|chrome-extension:|Cannot access|webstore|extensions gallery/i.test(text)) {
    return ' (the tab shows a browser page such as chrome:// or the Web Store, which extensions may not debug; navigate it to a web page first)';
  }
  return '';
}

async function attach(tabId) {
  const s = sessionFor(tabId);
  clearTimeout(s.timer);
  if (!s.attached) {
    s.attached = chrome.debugger.attach({ tabId }, PROTOCOL_VERSION).catch((err) => {
      sessions.delete(tabId);
      const text = String(err?.message ?? err);
      throw new ProtocolError(ERR_INTERNAL, `Cannot attach the debugger to tab ${tabId}: ${text}${attachHint(text)}`);
    });
  }
  await s.attached;
  return s;
}

export async function send(tabId, method, params = {}) {
  try {
    return await chrome.debugger.sendCommand({ tabId }, method, params);
  } catch (err) {
    throw new ProtocolError(ERR_INTERNAL, `${method} failed: ${err?.message ?? err}`);
  }
}

// Runs `fn(send)` with the tab attached; the session detaches after IDLE_DETACH_MS of idleness.
export async function withDebugger(tabId, fn) {
  const s = await attach(tabId);
  s.busy++;
  try {
    return await fn((method, params) => send(tabId, method, params));
  } finally {
    s.busy--;
    scheduleIdleDetach(tabId);
  }
}

// Keeps the tab attached until release(tabId, name).
export async function hold(tabId, name) {
  const s = await attach(tabId);
  s.holds.add(name);
  return s;
}

export function holds(tabId, name) {
  return Boolean(sessions.get(tabId)?.holds.has(name));
}

export function release(tabId, name) {
  const s = sessions.get(tabId);
  if (!s) return;
  s.holds.delete(name);
  scheduleIdleDetach(tabId);
}

export function onEvent(tabId, listener) {
  const s = sessionFor(tabId);
  s.listeners.add(listener);
  return () => s.listeners.delete(listener);
}

export function onDetached(tabId, listener) {
  const s = sessionFor(tabId);
  s.detachListeners.add(listener);
  return () => s.detachListeners.delete(listener);
}

export function isAttached(tabId) {
  return Boolean(sessions.get(tabId)?.attached);
}

// Diagnostic view for tests and extension_get_state-like tools.
export function attachedTabs() {
  return [...sessions.entries()].filter(([, s]) => s.attached).map(([tabId, s]) => ({ tabId, holds: [...s.holds] }));
}

chrome.debugger.onEvent.addListener((source, method, params) => {
  const s = sessions.get(source.tabId);
  if (!s) return;
  for (const listener of s.listeners) {
    try { listener(method, params); } catch (err) { console.warn(`[opentabs] debugger listener failed: ${err?.message ?? err}`); }
  }
});

chrome.debugger.onDetach.addListener((source, reason) => {
  const s = sessions.get(source.tabId);
  if (!s) return;
  sessions.delete(source.tabId);
  clearTimeout(s.timer);
  for (const listener of s.detachListeners) {
    try { listener(reason); } catch { /* a holder's cleanup must not break the others */ }
  }
});

export function requireInt(params, name) {
  const v = params?.[name];
  if (!Number.isInteger(v) || v < 0) throw new ProtocolError(-32602, `Missing or invalid ${name} parameter`);
  return v;
}
