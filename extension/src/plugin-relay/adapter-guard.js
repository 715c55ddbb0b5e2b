// Adapter log and readiness guard, MAIN world, document_start, every frame (manifest content
// script).
//
// Plugin adapters (protocol §4.2, §4.8) read `__openTabs._logNonce` / `_readinessNonce` and
// send `{type: 'opentabs:plugin-logs' | 'opentabs:readiness-changed', plugin, …, nonce}` with
// `globalThis.postMessage`.  Adapters cannot change, and they share the page's JavaScript
// world, so this script makes that contract safe against the page:
//  * it runs before any page script and captures the intrinsics it relies on, so a page that
//    later replaces `Error.captureStackTrace`, `Error.prepareStackTrace`, CallSite methods,
//    `postMessage` or `addEventListener` changes nothing here;
//  * the nonces are per document, made here, and answer only when the reading function comes
//    from a file in this extension's `adapters/` folder (V8 stack frames, read with the
//    captured intrinsics) and `window.postMessage` is still this script's wrapper;
//  * the wrapper takes an adapter's message off `window` before any listener could see it:
//    a message carrying the right nonce and posted by adapter code goes over a private channel
//    (a detached DOM node handed to adapter-relay.js, ISOLATED world, in a synchronous
//    handshake at document_start) and never reaches the page.  Everything else is posted as
//    usual.
// A page that replaces `window.postMessage` gets no nonce, so adapters in that page send no
// logs (they fail closed); tool calls and readiness probes do not depend on this.
// `prepareMainWorld` (background/page-functions.js) asks this script to put the accessors on
// each fresh `__openTabs` through `window.__opentabsAdapterGuard`, which a page may call too:
// it only installs the same guarded accessors.
(() => {
  'use strict';

  const HELLO_FROM_GUARD = 'opentabs-adapter-guard-hello';
  const HELLO_FROM_RELAY = 'opentabs-adapter-relay-hello';
  const READY = 'opentabs-adapter-relay-ready';
  const TO_RELAY = 'opentabs-adapter-to-relay';
  const LOG_TYPE = 'opentabs:plugin-logs';
  const READINESS_TYPE = 'opentabs:readiness-changed';

  // Intrinsics, captured before page code can replace them.
  const apply = Reflect.apply;
  const captureStackTrace = Error.captureStackTrace;
  const ErrorCtor = Error;
  const defineProperty = Object.defineProperty;
  const getOwnDescriptor = Object.getOwnPropertyDescriptor;
  const getPrototypeOf = Object.getPrototypeOf;
  const freeze = Object.freeze;
  const objectCreate = Object.create;
  const isArray = Array.isArray;
  const stringify = JSON.stringify;
  const startsWith = String.prototype.startsWith;
  const regexExec = RegExp.prototype.exec;
  const dispatch = EventTarget.prototype.dispatchEvent;
  const listen = EventTarget.prototype.addEventListener;
  const unlisten = EventTarget.prototype.removeEventListener;
  const CustomEventCtor = CustomEvent;
  const MouseEventCtor = MouseEvent;
  const randomUUID = crypto.randomUUID.bind(crypto);
  const nativePostMessage = window.postMessage;
  const channel = Document.prototype.createElement.call(document, 'span');

  if (typeof captureStackTrace !== 'function') return;

  // Error.prepareStackTrace becomes an accessor: the page still sets and reads its own value,
  // while a stack captured here is formatted by `collectFrames`.  A page that redefines the
  // property makes every check below fail (`inspecting` no longer decides what V8 calls).
  let pagePrepare = ErrorCtor.prepareStackTrace;
  let inspecting = false;
  const collectFrames = (_error, frames) => frames;
  const prepareAccessor = {
    get() { return inspecting ? collectFrames : pagePrepare; },
    set(value) { pagePrepare = value; },
  };
  defineProperty(ErrorCtor, 'prepareStackTrace', { get: prepareAccessor.get, set: prepareAccessor.set, configurable: true, enumerable: false });

  function framesAbove(fn) {
    const descriptor = getOwnDescriptor(ErrorCtor, 'prepareStackTrace');
    if (!descriptor || descriptor.get !== prepareAccessor.get) return null;
    const holder = objectCreate(null);
    inspecting = true;
    try {
      apply(captureStackTrace, ErrorCtor, [holder, fn]);
      const frames = holder.stack;
      return isArray(frames) && frames.length > 0 ? frames : null;
    } catch {
      return null;
    } finally {
      inspecting = false;
    }
  }

  // CallSite.prototype.getFileName as V8 made it, and this script's own URL.
  function ownLocation() { return framesAbove(ownLocation); }
  const ownFrames = ownLocation();
  if (!ownFrames) return;
  const getFileName = getPrototypeOf(ownFrames[0]).getFileName;
  const fileOf = (frame) => {
    try { return String(apply(getFileName, frame, [])); } catch { return ''; }
  };
  const extensionRoot = apply(regexExec, /^chrome-extension:\/\/[a-p]{32}\//, [fileOf(ownFrames[0])]);
  if (!extensionRoot) return;
  const adapterPrefix = `${extensionRoot[0]}adapters/`;

  // True when the function that called `fn` was loaded from this extension's adapters/ folder.
  function calledByAdapter(fn) {
    const frames = framesAbove(fn);
    return frames !== null && apply(startsWith, fileOf(frames[0]), [adapterPrefix]);
  }

  const logNonce = randomUUID();
  const readinessNonce = randomUUID();
  let relayReady = false;

  function postMessage(message) {
    if (message !== null && typeof message === 'object') {
      const type = message.type;
      if ((type === LOG_TYPE || type === READINESS_TYPE) && relayReady) {
        const expected = type === LOG_TYPE ? logNonce : readinessNonce;
        if (message.nonce === expected && calledByAdapter(postMessage)) {
          const envelope = objectCreate(null);
          envelope.type = type;
          envelope.plugin = message.plugin;
          if (type === LOG_TYPE) envelope.entries = message.entries;
          let detail;
          try { detail = stringify(envelope); } catch { return undefined; }
          apply(dispatch, channel, [new CustomEventCtor(TO_RELAY, { detail })]);
          return undefined;
        }
      }
    }
    // `arguments`, not a spread: spreading would run the page's Array iterator.
    return apply(nativePostMessage, this === undefined ? window : this, arguments);
  }
  defineProperty(window, 'postMessage', { value: postMessage, writable: true, configurable: true, enumerable: true });

  function nonceAccessor(value) {
    function read() {
      const current = getOwnDescriptor(window, 'postMessage');
      if (!relayReady || !current || current.value !== postMessage) return undefined;
      return calledByAdapter(read) ? value : undefined;
    }
    return { get: read, enumerable: false, configurable: true };
  }

  function install(container) {
    if (container === null || typeof container !== 'object') return false;
    try {
      defineProperty(container, '_logNonce', nonceAccessor(logNonce));
      defineProperty(container, '_readinessNonce', nonceAccessor(readinessNonce));
      return true;
    } catch {
      return false;
    }
  }
  defineProperty(window, '__opentabsAdapterGuard', { value: freeze({ install }), writable: false, configurable: false, enumerable: false });

  // Handshake: offer the node now, and again if the relay runs after this script.
  const offer = () => apply(dispatch, window, [new MouseEventCtor(HELLO_FROM_GUARD, { relatedTarget: channel })]);
  const onRelayHello = () => offer();
  apply(listen, window, [HELLO_FROM_RELAY, onRelayHello, true]);
  apply(listen, channel, [READY, () => {
    relayReady = true;
    apply(unlisten, window, [HELLO_FROM_RELAY, onRelayHello, true]);
  }, { once: true }]);
  offer();
})();
