// WebMCP capture, MAIN world, document_start, every frame (manifest content script).
//
// Catches the tools a page publishes through WebMCP before any page script runs:
//  * native `document.modelContext` (Chromium with WebMCP enabled): `ModelContext.prototype`'s
//    registerTool (and the older unregisterTool / provideContext / clearContext when present) is
//    wrapped, so every registration — also ones made by polyfills that mirror into the native
//    object, like @mcp-b/global — is seen, including those made before anything could poll;
//  * no native API: a small implementation of the current draft is installed as
//    `document.modelContext` (registerTool returning a promise, AbortSignal to unregister) and
//    of the older shape as `navigator.modelContext` (registerTool, unregisterTool,
//    provideContext({tools}), clearContext).
// The tool list goes to this frame's ISOLATED relay (page-relay.js) and calls come back from it
// over a private channel: a detached DOM node both scripts obtain in a synchronous handshake at
// document_start, before any page script exists, carrying a per-document secret.  Page scripts
// never see the node or the secret, so they cannot read the relay's traffic or forge messages.
(() => {
  'use strict';

  // Intrinsics, captured before page code can replace them.
  const uncurry = (fn) => Function.prototype.call.bind(fn);
  const addListener = uncurry(EventTarget.prototype.addEventListener);
  const removeListener = uncurry(EventTarget.prototype.removeEventListener);
  const dispatch = uncurry(EventTarget.prototype.dispatchEvent);
  const createElement = uncurry(Document.prototype.createElement);
  const StringCtor = String;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const defineProperty = Object.defineProperty;
  const getOwnDescriptor = Object.getOwnPropertyDescriptor;
  const objectCreate = Object.create;
  const objectKeys = Object.keys;
  // Read through the original getter: a page may redefine CustomEvent.prototype.detail to
  // see every event our listener reads.
  const getDetail = uncurry(getOwnDescriptor(CustomEvent.prototype, 'detail').get);
  const CustomEventCtor = CustomEvent;
  const MouseEventCtor = MouseEvent;
  const PromiseCtor = Promise;
  const promiseThen = uncurry(Promise.prototype.then);
  const MapCtor = Map;
  const mapGet = uncurry(Map.prototype.get);
  const mapSet = uncurry(Map.prototype.set);
  const mapHas = uncurry(Map.prototype.has);
  const mapDelete = uncurry(Map.prototype.delete);
  const mapValues = uncurry(Map.prototype.values);
  const arrayFrom = Array.from;
  const isArray = Array.isArray;
  const regexTest = uncurry(RegExp.prototype.test);
  const apply = Reflect.apply;
  const consoleWarn = console.warn;
  const setTimeoutFn = setTimeout;
  const DOMExceptionCtor = DOMException;
  const TypeErrorCtor = TypeError;

  const HELLO_FROM_MAIN = 'opentabs-webmcp-main-hello';
  const HELLO_FROM_RELAY = 'opentabs-webmcp-relay-hello';
  const TO_MAIN = 'opentabs-webmcp-to-main';
  const TO_RELAY = 'opentabs-webmcp-to-relay';

  // Same bounds as the server (server/app/webmcp_directory.hpp): refused here with a clear
  // error for pages using our implementation, and never forwarded for native registrations.
  const MAX_TOOLS = 100;
  const MAX_DESCRIPTION = 8 * 1024;
  const MAX_TITLE = 256;
  const MAX_SCHEMA_BYTES = 64 * 1024;
  const MAX_RESULT_CHARS = 5 * 1024 * 1024;
  const NAME_RULE = /^[A-Za-z0-9_.-]{1,128}$/;

  // ---- private channel to the relay -------------------------------------------------------
  const channel = createElement(document, 'span');
  let secret = null;           // set by the relay in the handshake
  let pendingReport = false;

  // Objects that hold the secret or the channel have no prototype: page code may have put
  // setters, getters or toJSON on Object.prototype, and none of them may ever see these.
  function bare(fields) {
    const out = objectCreate(null);
    const keys = objectKeys(fields);
    for (let i = 0; i < keys.length; i += 1) out[keys[i]] = fields[keys[i]];
    return out;
  }

  function sendToRelay(message) {
    if (secret === null) return;
    const envelope = bare(message);
    envelope.secret = secret;
    dispatch(channel, new CustomEventCtor(TO_RELAY, bare({ detail: stringify(envelope) })));
  }

  function offerChannel() {
    dispatch(window, new MouseEventCtor(HELLO_FROM_MAIN, bare({ relatedTarget: channel })));
  }
  function onRelayHello() { if (secret === null) offerChannel(); }
  addListener(window, HELLO_FROM_RELAY, onRelayHello, true);
  addListener(channel, TO_MAIN, (event) => {
    let message;
    const detail = getDetail(event);
    if (typeof detail !== 'string') return;
    try { message = parse(detail); } catch { return; }
    if (!message || typeof message !== 'object') return;
    if (secret === null && message.kind === 'ready' && typeof message.secret === 'string') {
      secret = message.secret;
      removeListener(window, HELLO_FROM_RELAY, onRelayHello, true);
      scheduleReport();
      return;
    }
    if (secret === null || message.secret !== secret) return;
    if (message.kind === 'call') runCall(message);
    else if (message.kind === 'warn' && typeof message.text === 'string') consoleWarn(`[OpenTabs WebMCP] ${message.text}`);
    else if (message.kind === 'resend') scheduleReport();
  });
  offerChannel();  // the relay may already be listening (it ran first)

  // ---- the captured tools -------------------------------------------------------------------
  const tools = new MapCtor();  // name -> {name, title, description, inputSchema, annotations, execute, source}

  // Coalesces a burst of registrations into one report, and sends at most one report per
  // 200 ms however often a page registers and unregisters (each report reaches the server and
  // every MCP client as tools/list_changed).
  const REPORT_DELAY_MS = 20;
  const MIN_REPORT_GAP_MS = 200;
  let lastReportAt = 0;
  function scheduleReport() {
    if (pendingReport) return;
    pendingReport = true;
    const wait = Math.max(REPORT_DELAY_MS, lastReportAt + MIN_REPORT_GAP_MS - Date.now());
    setTimeoutFn(() => {
      pendingReport = false;
      lastReportAt = Date.now();
      const list = [];
      for (const t of arrayFrom(mapValues(tools))) {
        const entry = { name: t.name, description: t.description };
        if (t.title !== undefined) entry.title = t.title;
        if (t.inputSchema !== undefined) entry.inputSchema = t.inputSchema;
        if (t.annotations !== undefined) entry.annotations = t.annotations;
        list.push(entry);
      }
      sendToRelay({ kind: 'tools', tools: list });
    }, wait);
  }

  // Checks one descriptor and snapshots it (the page may mutate its object later).  Returns
  // the snapshot or throws a TypeError that says what is wrong.
  function snapshot(tool, source) {
    if (!tool || typeof tool !== 'object') throw new TypeErrorCtor('registerTool: the tool must be an object');
    const name = tool.name;
    if (typeof name !== 'string' || name === '') throw new TypeErrorCtor('registerTool: the tool needs a non-empty name');
    if (!regexTest(NAME_RULE, name)) throw new TypeErrorCtor(`registerTool: invalid tool name "${StringCtor(name).slice(0, 64)}" (1-128 characters from A-Z a-z 0-9 _ . -)`);
    const description = tool.description;
    if (typeof description !== 'string' || description === '') throw new TypeErrorCtor(`registerTool: tool "${name}" needs a non-empty description`);
    if (description.length > MAX_DESCRIPTION) throw new TypeErrorCtor(`registerTool: the description of "${name}" is longer than ${MAX_DESCRIPTION} characters`);
    if (typeof tool.execute !== 'function') throw new TypeErrorCtor(`registerTool: tool "${name}" needs an execute function`);
    let title;
    if (tool.title !== undefined && tool.title !== null) {
      if (typeof tool.title !== 'string' || tool.title.length > MAX_TITLE) throw new TypeErrorCtor(`registerTool: the title of "${name}" must be a string of at most ${MAX_TITLE} characters`);
      title = tool.title;
    }
    let inputSchema;
    if (tool.inputSchema !== undefined && tool.inputSchema !== null) {
      let text;
      try {
        text = typeof tool.inputSchema === 'string' ? tool.inputSchema : stringify(tool.inputSchema);
      } catch {
        throw new TypeErrorCtor(`registerTool: the inputSchema of "${name}" is not serialisable JSON`);
      }
      if (typeof text !== 'string' || text.length > MAX_SCHEMA_BYTES) throw new TypeErrorCtor(`registerTool: the inputSchema of "${name}" is missing or larger than ${MAX_SCHEMA_BYTES} bytes`);
      try { inputSchema = parse(text); } catch { throw new TypeErrorCtor(`registerTool: the inputSchema of "${name}" is not valid JSON`); }
      if (!inputSchema || typeof inputSchema !== 'object' || isArray(inputSchema)) throw new TypeErrorCtor(`registerTool: the inputSchema of "${name}" must be a JSON Schema object`);
      if (inputSchema.type !== undefined && inputSchema.type !== 'object') throw new TypeErrorCtor(`registerTool: the inputSchema of "${name}" must describe an object`);
    }
    let annotations;
    if (tool.annotations && typeof tool.annotations === 'object') {
      annotations = {};
      for (const key of ['readOnlyHint', 'untrustedContentHint', 'destructiveHint', 'idempotentHint', 'openWorldHint']) {
        if (typeof tool.annotations[key] === 'boolean') annotations[key] = tool.annotations[key];
      }
    }
    return { name, title, description, inputSchema, annotations, execute: tool.execute, source };
  }

  function capture(entry, signal) {
    if (signal && signal.aborted) return;
    if (!mapHas(tools, entry.name) && tools.size >= MAX_TOOLS) {
      throw new DOMExceptionCtor(`registerTool: this page already has ${MAX_TOOLS} tools; OpenTabs forwards no more`, 'QuotaExceededError');
    }
    mapSet(tools, entry.name, entry);
    if (signal && typeof signal.addEventListener === 'function') {
      addListener(signal, 'abort', () => {
        if (mapGet(tools, entry.name) === entry) { mapDelete(tools, entry.name); scheduleReport(); }
      }, { once: true });
    }
    scheduleReport();
  }

  function forget(name) {
    if (mapDelete(tools, StringCtor(name))) scheduleReport();
  }

  function forgetSource(source) {
    let changed = false;
    for (const t of arrayFrom(mapValues(tools))) {
      if (t.source === source) { mapDelete(tools, t.name); changed = true; }
    }
    if (changed) scheduleReport();
  }

  // Captures a registration the native API accepted.  Descriptors we cannot forward are
  // reported on the console; the page's own registration stands.
  function captureNative(tool, options, source) {
    try {
      capture(snapshot(tool, source), options && options.signal);
    } catch (err) {
      consoleWarn(`[OpenTabs WebMCP] not forwarded: ${err && err.message}`);
    }
  }

  // ---- calls ----------------------------------------------------------------------------------
  function normaliseResult(value) {
    if (value && typeof value === 'object' && isArray(value.content)) {
      const out = { content: value.content };
      if (value.isError === true) out.isError = true;
      return out;
    }
    if (typeof value === 'string') return { content: [{ type: 'text', text: value }] };
    if (value === undefined) return { content: [{ type: 'text', text: '' }] };
    return { content: [{ type: 'text', text: stringify(value) ?? StringCtor(value) }] };
  }

  function answer(id, result) {
    let text;
    try { text = stringify(result); } catch { text = undefined; }
    if (typeof text !== 'string') {
      result = { content: [{ type: 'text', text: 'The tool returned a value that is not JSON-serialisable' }], isError: true };
    } else if (text.length > MAX_RESULT_CHARS) {
      result = { content: [{ type: 'text', text: `The tool result is larger than ${MAX_RESULT_CHARS} characters` }], isError: true };
    } else {
      result = parse(text);
    }
    sendToRelay({ kind: 'result', id, result });
  }

  function runCall(message) {
    const id = message.id;
    const entry = mapGet(tools, StringCtor(message.tool));
    if (!entry) {
      sendToRelay({ kind: 'result', id, error: `The page no longer offers the tool "${StringCtor(message.tool).slice(0, 128)}"` });
      return;
    }
    const client = { requestUserInteraction: (callback) => PromiseCtor.resolve(typeof callback === 'function' ? callback() : undefined) };
    let pending;
    try {
      pending = PromiseCtor.resolve(apply(entry.execute, undefined, [message.args ?? {}, client]));
    } catch (err) {
      answer(id, { content: [{ type: 'text', text: `Error: ${StringCtor(err && err.message !== undefined ? err.message : err)}` }], isError: true });
      return;
    }
    promiseThen(pending,
      (value) => {
        let normalised;
        try { normalised = normaliseResult(value); } catch { normalised = { content: [{ type: 'text', text: 'Unreadable tool result' }], isError: true }; }
        answer(id, normalised);
      },
      (err) => answer(id, { content: [{ type: 'text', text: `Error: ${StringCtor(err && err.message !== undefined ? err.message : err)}` }], isError: true }));
  }

  // ---- native API: wrap the prototype -------------------------------------------------------
  const NativeModelContext = typeof window.ModelContext === 'function' ? window.ModelContext : null;
  const nativeProto = NativeModelContext && NativeModelContext.prototype;
  if (nativeProto && typeof nativeProto.registerTool === 'function') {
    const originalRegister = nativeProto.registerTool;
    defineProperty(nativeProto, 'registerTool', {
      configurable: true, writable: true, enumerable: true,
      value: function registerTool(tool, options) {
        const result = apply(originalRegister, this, [tool, options]);
        if (result && typeof result.then === 'function') {
          promiseThen(result, () => captureNative(tool, options, 'native'), () => {});
        } else {
          captureNative(tool, options, 'native');
        }
        return result;
      },
    });
    for (const [method, effect] of [
      ['unregisterTool', (args) => forget(args[0])],
      ['provideContext', (args) => {
        forgetSource('native-context');
        const list = args[0] && isArray(args[0].tools) ? args[0].tools : [];
        for (const t of list) captureNative(t, undefined, 'native-context');
      }],
      ['clearContext', () => { forgetSource('native-context'); forgetSource('native'); }],
    ]) {
      const original = nativeProto[method];
      if (typeof original !== 'function') continue;
      defineProperty(nativeProto, method, {
        configurable: true, writable: true, enumerable: true,
        value: function wrapped(...args) {
          const result = apply(original, this, args);
          effect(args);
          return result;
        },
      });
    }
  }

  // ---- no native API: our implementations ---------------------------------------------------
  // Current draft: document.modelContext.registerTool(tool, {signal}) → Promise.
  if (!('modelContext' in Document.prototype) && !getOwnDescriptor(document, 'modelContext')) {
    const contextTarget = new EventTarget();
    const modelContext = {
      registerTool(tool, options) {
        try {
          const entry = snapshot(tool, 'document');
          if (mapHas(tools, entry.name)) throw new DOMExceptionCtor(`registerTool: a tool named "${entry.name}" is already registered`, 'InvalidStateError');
          const signal = options && options.signal;
          if (signal && signal.aborted) return PromiseCtor.resolve(undefined);
          capture(entry, signal);
          dispatch(contextTarget, new Event('toolchange'));
          return PromiseCtor.resolve(undefined);
        } catch (err) {
          return PromiseCtor.reject(err);
        }
      },
      addEventListener(...args) { return apply(EventTarget.prototype.addEventListener, contextTarget, args); },
      removeEventListener(...args) { return apply(EventTarget.prototype.removeEventListener, contextTarget, args); },
    };
    defineProperty(Document.prototype, 'modelContext', {
      configurable: true, enumerable: true,
      get() { return this === document ? modelContext : undefined; },
    });
  }

  // Older shape: navigator.modelContext with registerTool / unregisterTool / provideContext /
  // clearContext (synchronous; errors are thrown).
  if (!('modelContext' in Navigator.prototype) && !getOwnDescriptor(navigator, 'modelContext')) {
    const legacy = {
      registerTool(tool) {
        const entry = snapshot(tool, 'navigator');
        if (mapHas(tools, entry.name)) throw new DOMExceptionCtor(`registerTool: a tool named "${entry.name}" is already registered`, 'InvalidStateError');
        capture(entry);
        return { unregister: () => forget(entry.name) };
      },
      unregisterTool(name) { forget(name); },
      provideContext(context) {
        const list = context && isArray(context.tools) ? context.tools : null;
        if (!list) throw new TypeErrorCtor('provideContext: expected {tools: [...]}');
        const entries = list.map((t) => snapshot(t, 'navigator-context'));
        const seen = new MapCtor();
        for (const e of entries) {
          if (mapHas(seen, e.name)) throw new DOMExceptionCtor(`provideContext: duplicate tool name "${e.name}"`, 'InvalidStateError');
          mapSet(seen, e.name, true);
        }
        forgetSource('navigator-context');
        for (const e of entries) capture(e);
      },
      clearContext() { forgetSource('navigator-context'); forgetSource('navigator'); },
    };
    defineProperty(Navigator.prototype, 'modelContext', {
      configurable: true, enumerable: true,
      get() { return this === navigator ? legacy : undefined; },
    });
  }

  // A page restored from the back/forward cache publishes its tools again (the extension
  // dropped them when it was hidden).
  addListener(window, 'pageshow', (event) => { if (event.persisted) scheduleReport(); }, true);
})();
