// Extension diagnostics beyond the protocol core: the background's console ring buffer
// (extension.getLogs), side-panel presence (extension.getSidePanel), per-tab adapter checks
// (extension.checkAdapter) and a socket reconnect (extension.forceReconnect).

import { str, int, num, invalid } from './params.js';
import { isSafePluginName } from '../shared/constants.js';
import { tabsForPlugin } from '../background/injection.js';
import { readAdapterHash } from '../background/page-functions.js';
import { forceReconnect } from '../background/server-link.js';
import { attachedTabs } from './debugger.js';

const MAX_LOG_ENTRIES = 1000;
const LEVEL_RANK = { debug: 0, info: 1, warn: 2, error: 3 };
const logs = [];

// Wrap the worker's console once so every line also lands in the ring buffer.
if (!globalThis.__opentabsConsoleWrapped) {
  globalThis.__opentabsConsoleWrapped = true;
  for (const [method, level] of [['debug', 'debug'], ['log', 'info'], ['info', 'info'], ['warn', 'warn'], ['error', 'error']]) {
    const original = console[method].bind(console);
    console[method] = (...args) => {
      const text = args.map((a) => (typeof a === 'string' ? a : (() => { try { return JSON.stringify(a); } catch { return String(a); } })())).join(' ');
      logs.push({ level, source: 'background', message: text.slice(0, 5000), ts: Date.now() });
      if (logs.length > MAX_LOG_ENTRIES) logs.splice(0, logs.length - MAX_LOG_ENTRIES);
      original(...args);
    };
  }
}

export const commands = {
  'extension.getLogs': async (params) => {
    // Wire values (PROTOCOL.md): level log|info|warn|error (debug too), source background|offscreen;
    // 'all' (which the OpenTabs server leaves out) means no filter.  'log' is the info rank.
    let level = str(params, 'level', { required: false, max: 10 });
    if (level === 'all') level = undefined;
    if (level === 'log') level = 'info';
    if (level !== undefined && !(level in LEVEL_RANK)) throw invalid(`Invalid level '${level}'`);
    let source = str(params, 'source', { required: false, max: 20 });
    if (source === 'all') source = undefined;
    const limit = Math.min(int(params, 'limit', { required: false, min: 1, fallback: 100 }), 1000);
    const since = num(params, 'since', { required: false, fallback: 0 });
    let entries = logs.filter((e) => e.ts >= since && (level === undefined || LEVEL_RANK[e.level] >= LEVEL_RANK[level]));
    if (source !== undefined) entries = entries.filter((e) => e.source === source);
    const stats = { total: logs.length, byLevel: {} };
    for (const e of logs) stats.byLevel[e.level] = (stats.byLevel[e.level] ?? 0) + 1;
    return {
      entries: entries.slice(-limit).reverse(), stats,
      note: 'Offscreen-document console lines are not buffered; background worker lines since its last start are.',
    };
  },

  'extension.getSidePanel': async () => {
    const contexts = await chrome.runtime.getContexts({ contextTypes: ['SIDE_PANEL'] });
    return { open: contexts.length > 0, documents: contexts.map((c) => ({ url: c.documentUrl, windowId: c.windowId, tabId: c.tabId })) };
  },

  'extension.checkAdapter': async (params, ctx) => {
    const name = str(params, 'plugin', { max: 214 });
    if (!isSafePluginName(name)) throw invalid(`Invalid plugin name '${name}'`);
    const plugin = ctx.store.plugins.get(name);
    if (!plugin) return { plugin: name, known: false, tabs: [] };
    const tabs = [];
    for (const tab of await tabsForPlugin(plugin)) {
      let hash = null;
      let error;
      try {
        const [first] = await chrome.scripting.executeScript({ target: { tabId: tab.id }, world: 'MAIN', func: readAdapterHash, args: [name] });
        hash = first?.result ?? null;
      } catch (err) { error = String(err?.message ?? err); }
      tabs.push({ tabId: tab.id, url: tab.url, injected: hash !== null, adapterHash: hash, matches: hash !== null && hash === plugin.adapterHash, ...(error ? { error } : {}) });
    }
    return { plugin: name, known: true, expectedHash: plugin.adapterHash ?? null, adapterFile: plugin.adapterFile ?? null, tabs, debuggerAttached: attachedTabs() };
  },

  'extension.forceReconnect': async () => {
    // Answer first: the reply travels on the socket that is about to be replaced.
    setTimeout(() => { forceReconnect().catch(() => {}); }, 200);
    return { ok: true, message: 'Reconnecting' };
  },
};
