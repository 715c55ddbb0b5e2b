// Adapter log and readiness relay, ISOLATED world, document_start, every frame (manifest
// content script).
//
// Pairs with adapter-guard.js (MAIN world) in the same frame: at document_start — before any
// page script can exist — the guard hands this script a detached DOM node through one
// synchronous event on `window`.  Adapter log batches and readiness notifications arrive only
// as events on that node, which page scripts cannot reach; the guard checked that adapter code
// sent them with the current nonce.  They go to the background as `plugin:logs` /
// `plugin:readiness`, which checks the plugin against the sender tab's real URL.
(() => {
  'use strict';

  const HELLO_FROM_GUARD = 'opentabs-adapter-guard-hello';
  const HELLO_FROM_RELAY = 'opentabs-adapter-relay-hello';
  const READY = 'opentabs-adapter-relay-ready';
  const TO_RELAY = 'opentabs-adapter-to-relay';
  const MAX_DETAIL_CHARS = 4 * 1024 * 1024;
  const MAX_ENTRIES = 100;

  const toBackground = (message) => chrome.runtime.sendMessage({ target: 'background', ...message }).catch(() => {});

  function onFromGuard(event) {
    const text = event.detail;
    if (typeof text !== 'string' || text.length > MAX_DETAIL_CHARS) return;
    let message;
    try { message = JSON.parse(text); } catch { return; }
    if (!message || typeof message.plugin !== 'string') return;
    if (message.type === 'opentabs:plugin-logs') {
      if (!Array.isArray(message.entries) || message.entries.length === 0) return;
      toBackground({ type: 'plugin:logs', plugin: message.plugin, entries: message.entries.slice(0, MAX_ENTRIES) });
    } else if (message.type === 'opentabs:readiness-changed') {
      toBackground({ type: 'plugin:readiness', plugin: message.plugin });
    }
  }

  let channel = null;
  const onGuardHello = (event) => {
    const node = event.relatedTarget;
    if (channel || !(node instanceof Node)) return;
    channel = node;
    window.removeEventListener(HELLO_FROM_GUARD, onGuardHello, true);
    channel.addEventListener(TO_RELAY, onFromGuard);
    channel.dispatchEvent(new Event(READY));
  };
  window.addEventListener(HELLO_FROM_GUARD, onGuardHello, true);
  // If adapter-guard.js ran first it offers the node again on this.
  window.dispatchEvent(new Event(HELLO_FROM_RELAY));
})();
