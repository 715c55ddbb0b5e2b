// Tab state per plugin (protocol §3.6, §4.7): which tabs match a plugin and whether its adapter
// answers `isReady()` (5 s probe).  `syncAll` reports everything after a `sync.full`;
// `refresh` re-probes and sends `tab.stateChanged` only for plugins whose state changed.
// Runs are serialised so two refreshes never interleave their reports.

import { READINESS_PROBE_TIMEOUT_MS } from '../shared/constants.js';
import { store, saveTabStates } from './store.js';
import { notifyServer } from './server-link.js';
import { runInTab, tabsForPlugin, webTabs } from './injection.js';
import * as page from './page-functions.js';

let queue = Promise.resolve();
const serialise = (fn) => (queue = queue.then(fn, fn));

// A probe whose script never comes back (a tab still committing its first document while the
// worker starts) must not hold the serialised queue forever: it counts as not ready after the
// page-side timeout plus a margin, and a later refresh probes again.
const PROBE_DEADLINE_MS = READINESS_PROBE_TIMEOUT_MS + 2_000;
const PROBE_RETRY_MS = 2_000;

async function probe(tabId, pluginName) {
  let timer;
  const deadline = new Promise((resolve) => { timer = setTimeout(() => resolve('timeout'), PROBE_DEADLINE_MS); });
  try {
    const answer = await Promise.race([runInTab(tabId, 'MAIN', page.probeReady, [pluginName, READINESS_PROBE_TIMEOUT_MS]), deadline]);
    if (answer === 'timeout') {
      scheduleRefresh(PROBE_RETRY_MS);
      return false;
    }
    return answer === true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

export async function computePluginState(plugin, tabs) {
  const matching = await tabsForPlugin(plugin, tabs);
  const infos = await Promise.all(matching.map(async (t) => ({
    tabId: t.id, url: t.url, title: t.title ?? '', ready: await probe(t.id, plugin.name),
  })));
  const state = infos.length === 0 ? 'closed' : infos.some((i) => i.ready) ? 'ready' : 'unavailable';
  return { state, tabs: infos };
}

async function computeStates(names) {
  const tabs = await webTabs();
  const out = {};
  await Promise.all(names.map(async (name) => {
    const plugin = store.plugins.get(name);
    if (plugin) out[name] = await computePluginState(plugin, tabs);
  }));
  return out;
}

// Full report after sync.full (not sent when there are no plugins).
export function syncAll() {
  return serialise(async () => {
    const names = [...store.plugins.keys()];
    store.tabStates = await computeStates(names);
    await saveTabStates();
    if (names.length > 0) await notifyServer('tab.syncAll', { tabs: store.tabStates });
  });
}

// Re-probes the given plugins (all when omitted) and reports the ones that changed.
export function refresh(names) {
  return serialise(async () => {
    const wanted = names ?? [...store.plugins.keys()];
    const fresh = await computeStates(wanted);
    let changed = false;
    for (const [name, value] of Object.entries(fresh)) {
      if (JSON.stringify(store.tabStates[name]) === JSON.stringify(value)) continue;
      store.tabStates[name] = value;
      changed = true;
      await notifyServer('tab.stateChanged', { plugin: name, state: value.state, tabs: value.tabs });
    }
    for (const name of Object.keys(store.tabStates)) {
      if (!store.plugins.has(name)) { delete store.tabStates[name]; changed = true; }
    }
    if (changed) await saveTabStates();
  });
}

let refreshTimer = null;
// Coalesces bursts of tab events into one refresh.
export function scheduleRefresh(delayMs = 300) {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(() => { refreshTimer = null; refresh(); }, delayMs);
}
