// JavaScript dialogs, MAIN world, document_start, every frame (manifest content script).
//
// Wraps alert/confirm/prompt so the extension hears of a dialog the page opens by itself
// before it blocks the page: a synchronous "opening" event goes to dialog-relay.js (ISOLATED
// world), which tells the background and, in a tab an agent is driving, holds the call until
// the background can answer the dialog through the debugger.  Then the real dialog opens as
// usual, in front of the person at the keyboard.
//
// The two scripts talk over a detached DOM node handed over in a synchronous handshake at
// document_start, before any page script exists (as the WebMCP scripts do), so pages neither
// see these events nor can send them.  Should a page still fake one, it can at most delay
// itself: the background checks that the tab is really blocked before it refuses a command.
(() => {
  'use strict';

  const OPENING = 'opentabs-dialog-opening';
  const CLOSED = 'opentabs-dialog-closed';
  const READY = 'opentabs-dialog-ready';
  const HELLO_FROM_HOOK = 'opentabs-dialog-hook-hello';
  const HELLO_FROM_RELAY = 'opentabs-dialog-relay-hello';
  const MAX_TEXT = 500;
  // Captured before page scripts run, which may replace the globals later.
  const dispatch = EventTarget.prototype.dispatchEvent;
  const stringify = JSON.stringify;
  const toText = String;
  const slice = String.prototype.slice;
  const apply = Reflect.apply;
  const CustomEventCtor = CustomEvent;
  const listen = EventTarget.prototype.addEventListener;
  const unlisten = EventTarget.prototype.removeEventListener;
  const channel = Document.prototype.createElement.call(document, 'span');

  // Handshake: offer the node now, and again if the relay runs after this script.
  const offer = () => dispatch.call(window, new MouseEvent(HELLO_FROM_HOOK, { relatedTarget: channel }));
  const onRelayHello = () => offer();
  listen.call(window, HELLO_FROM_RELAY, onRelayHello, true);
  listen.call(channel, READY, () => unlisten.call(window, HELLO_FROM_RELAY, onRelayHello, true), { once: true });
  offer();

  const wrap = (name) => {
    const native = window[name];
    if (typeof native !== 'function') return;
    const wrapped = {
      [name](...args) {
        const text = (v) => apply(slice, v === undefined ? '' : toText(v), [0, MAX_TEXT]);
        const detail = stringify({ type: name, message: text(args[0]), defaultPrompt: name === 'prompt' ? text(args[1]) : undefined });
        try { dispatch.call(channel, new CustomEventCtor(OPENING, { detail })); } catch { /* never stop the page's dialog */ }
        try {
          return apply(native, window, args);
        } finally {
          try { dispatch.call(channel, new CustomEventCtor(CLOSED, { detail: stringify({ type: name }) })); } catch { /* as above */ }
        }
      },
    }[name];
    Object.defineProperty(window, name, { value: wrapped, writable: true, configurable: true, enumerable: true });
  };
  for (const name of ['alert', 'confirm', 'prompt']) wrap(name);
})();
