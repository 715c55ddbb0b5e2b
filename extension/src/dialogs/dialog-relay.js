// JavaScript dialogs, ISOLATED world, document_start, every frame (manifest content script).
//
// Pairs with dialog-hook.js (over the private node of their document_start handshake): on
// its synchronous "opening" event this tells the background
// which dialog is opening.  A dialog opened while the background's debugger does not watch
// the tab cannot be answered later (CDP only answers dialogs it saw open), so in a tab an agent
// is driving the call is held here, synchronously, until the background has the debugger
// watching: it then sets a short-lived gate cookie with a random token, which this side
// polls (document.cookie is the one synchronous channel to the browser a content script has)
// and deletes at once.  At most GATE_MS; without an answer the dialog opens ungated.
(() => {
  'use strict';

  const OPENING = 'opentabs-dialog-opening';
  const CLOSED = 'opentabs-dialog-closed';
  const READY = 'opentabs-dialog-ready';
  const HELLO_FROM_HOOK = 'opentabs-dialog-hook-hello';
  const HELLO_FROM_RELAY = 'opentabs-dialog-relay-hello';
  const GATE_COOKIE = '__opentabs_dialog_gate';
  const GATE_MS = 1500;
  const TYPES = new Set(['alert', 'confirm', 'prompt']);
  let driven = false;

  const toBackground = (message) => chrome.runtime.sendMessage({ target: 'background', ...message }).catch(() => null);

  // Whether an agent drives this tab (it opened or used it): the background says so when it
  // starts driving the tab and on each load of a driven tab (no message from here, so page
  // loads do not wake the service worker); the page agent also sets __opentabsDialogGate in
  // this world whenever it runs here.
  chrome.runtime.onMessage.addListener((msg, sender) => {
    if (sender.id === chrome.runtime.id && !sender.tab && msg?.type === 'dialog:driven') driven = true;
    return false;
  });

  const parse = (event) => {
    try {
      const info = JSON.parse(event.detail);
      return info && TYPES.has(info.type) ? info : null;
    } catch {
      return null;
    }
  };

  const onOpening = (event) => {
    const info = parse(event);
    if (!info) return;
    const gated = driven || globalThis.__opentabsDialogGate === true;
    const token = gated && location.protocol.startsWith('http') ? crypto.randomUUID().replaceAll('-', '') : undefined;
    toBackground({
      type: 'dialog:opening', dialogType: info.type, message: String(info.message ?? '').slice(0, 500),
      defaultPrompt: info.defaultPrompt === undefined ? undefined : String(info.defaultPrompt).slice(0, 500), gate: token,
    });
    if (!token) return;
    const deadline = performance.now() + GATE_MS;
    let opened = false;
    while (!opened && performance.now() < deadline) {
      try { opened = document.cookie.includes(`${GATE_COOKIE}=${token}`); } catch { break; }
    }
    try { document.cookie = `${GATE_COOKIE}=; Max-Age=0; path=/`; } catch { /* no cookies here */ }
  };
  const onClosed = (event) => {
    if (parse(event)) toBackground({ type: 'dialog:closed' });
  };

  let channel = null;
  const onHookHello = (event) => {
    const node = event.relatedTarget;
    if (channel || !(node instanceof Node)) return;
    channel = node;
    window.removeEventListener(HELLO_FROM_HOOK, onHookHello, true);
    channel.addEventListener(OPENING, onOpening);
    channel.addEventListener(CLOSED, onClosed);
    channel.dispatchEvent(new Event(READY));
  };
  window.addEventListener(HELLO_FROM_HOOK, onHookHello, true);
  // If dialog-hook.js ran first it offers the node again on this.
  window.dispatchEvent(new Event(HELLO_FROM_RELAY));
})();
