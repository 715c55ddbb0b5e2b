// Always-on light console capture (see browser-commands/light-capture.js).  Runs in every
// top-level http(s) page's MAIN world at document_start, before the page's own scripts, and
// keeps the last MAX_ENTRIES console calls and uncaught errors in a ring inside the page.
// Nothing leaves the page until a tool reads the ring (browser_get_console_logs).  Values
// are formatted with bounded depth and length, so logging a huge object costs little.
(() => {
  const KEY = Symbol.for('opentabs.consoleRing');
  if (globalThis[KEY]) return;
  const MAX_ENTRIES = 300;
  const MAX_TEXT = 2000;
  const ring = [];

  const format = (value, depth = 0) => {
    if (typeof value === 'string') return depth ? JSON.stringify(value) : value;
    if (value === null || ['number', 'boolean', 'undefined'].includes(typeof value)) return String(value);
    if (typeof value === 'bigint') return `${value}n`;
    if (typeof value === 'symbol') return value.toString();
    if (typeof value === 'function') return `[Function ${value.name || 'anonymous'}]`;
    if (value instanceof Error) return value.stack || `${value.name}: ${value.message}`;
    if (typeof Node !== 'undefined' && value instanceof Node) return value.nodeType === 1 ? `<${value.tagName.toLowerCase()}${value.id ? `#${value.id}` : ''}>` : `[${value.nodeName}]`;
    if (depth >= 2) return Array.isArray(value) ? `[Array(${value.length})]` : '{…}';
    try {
      if (Array.isArray(value)) {
        const items = value.slice(0, 20).map((v) => format(v, depth + 1));
        return `[${items.join(', ')}${value.length > 20 ? ', …' : ''}]`;
      }
      const keys = Object.keys(value);
      const items = keys.slice(0, 20).map((k) => `${k}: ${format(value[k], depth + 1)}`);
      return `{${items.join(', ')}${keys.length > 20 ? ', …' : ''}}`;
    } catch {
      return Object.prototype.toString.call(value);
    }
  };

  const push = (level, text, extra) => {
    ring.push({ level, text: text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}[... truncated]` : text, timestamp: Date.now(), ...extra });
    if (ring.length > MAX_ENTRIES) ring.splice(0, ring.length - MAX_ENTRIES);
  };

  for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
    const original = console[level];
    if (typeof original !== 'function') continue;
    console[level] = function opentabsConsole(...args) {
      try { push(level, args.map((a) => format(a)).join(' ')); } catch { /* never break the page's logging */ }
      return original.apply(this, args);
    };
  }
  addEventListener('error', (e) => {
    if (!(e instanceof ErrorEvent)) return;
    push('error', format(e.error ?? e.message), { exception: true, url: e.filename || undefined, line: e.lineno || undefined });
  });
  addEventListener('unhandledrejection', (e) => push('error', `Uncaught (in promise) ${format(e.reason)}`, { exception: true }));

  Object.defineProperty(globalThis, KEY, {
    value: Object.freeze({
      read(clear) {
        const out = ring.slice();
        if (clear) ring.length = 0;
        return out;
      },
    }),
    enumerable: false,
  });
})();
