// JavaScript dialogs, MAIN world, document_start, every frame (manifest content script).
//
// Wraps alert/confirm/prompt so the extension hears of a dialog the page opens by itself
// before it blocks the page: a synchronous "opening" event on the document goes to
// dialog-relay.js (ISOLATED world), which tells the background and, in a tab an agent is
// driving, holds the call until the background can answer the dialog through the debugger.
// Then the real dialog opens as usual, in front of the person at the keyboard.  The events
// carry only the dialog's type and text; a page that fakes them can at most delay itself
// (the background checks that the tab is really blocked before it refuses a command).
(() => {
  'use strict';

  const OPENING = 'opentabs-dialog-opening';
  const CLOSED = 'opentabs-dialog-closed';
  const MAX_TEXT = 500;
  const dispatch = EventTarget.prototype.dispatchEvent;
  const doc = document;

  const wrap = (name) => {
    const native = window[name];
    if (typeof native !== 'function') return;
    const wrapped = {
      [name](...args) {
        const text = (v) => (v === undefined ? '' : String(v)).slice(0, MAX_TEXT);
        const detail = JSON.stringify({ type: name, message: text(args[0]), defaultPrompt: name === 'prompt' ? text(args[1]) : undefined });
        try { dispatch.call(doc, new CustomEvent(OPENING, { detail })); } catch { /* never stop the page's dialog */ }
        try {
          return native.apply(window, args);
        } finally {
          try { dispatch.call(doc, new CustomEvent(CLOSED, { detail: JSON.stringify({ type: name }) })); } catch { /* as above */ }
        }
      },
    }[name];
    Object.defineProperty(window, name, { value: wrapped, writable: true, configurable: true, enumerable: true });
  };
  for (const name of ['alert', 'confirm', 'prompt']) wrap(name);
})();
