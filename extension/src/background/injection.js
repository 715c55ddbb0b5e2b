// Adapter injection (protocol §4.2, §4.5, §4.8): puts each plugin's adapter file into the MAIN
// world of every matching tab, after the per-tab `pluginConfig` and the nonces are in place,
// then checks the adapter's embedded hash (one retry).  A missing adapter file asks the server
// for a fresh `sync.full` (debounced).

import { HASH_RETRY_DELAY_MS, SYNC_REQUEST_DEBOUNCE_MS, isSafePluginName } from '../shared/constants.js';
import { urlMatchesPlugin } from '../shared/url-match.js';
import { pluginConfigForTab } from '../shared/plugin-payload.js';
import { store } from './store.js';
import { notifyServer } from './server-link.js';
import * as page from './page-functions.js';

let lastSyncRequest = 0;

const IN_TAB_TIMEOUT_MS = 10_000;

// One executeScript call with a deadline: a page stuck in an alert() or a busy loop must not
// stall injection or the serialised tab-state reports behind it.
async function runInTab(tabId, world, func, args = [], timeoutMs = IN_TAB_TIMEOUT_MS) {
  let timer;
  const deadline = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Script in tab ${tabId} did not finish within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const [first] = await Promise.race([chrome.scripting.executeScript({ target: { tabId }, world, func, args }), deadline]);
    return first?.result;
  } finally {
    clearTimeout(timer);
  }
}

function requestFullSync() {
  const now = Date.now();
  if (now - lastSyncRequest < SYNC_REQUEST_DEBOUNCE_MS) return;
  lastSyncRequest = now;
  notifyServer('sync.requestFull');
}

// Prepares the MAIN world for `plugin` in one tab.  Logs and readiness travel through the
// document_start guard and relay (plugin-relay/), which every page already has.
async function prepareTab(tabId, tabUrl, plugin) {
  await runInTab(tabId, 'MAIN', page.prepareMainWorld, [pluginConfigForTab(plugin, tabUrl)]);
}

async function injectFile(tabId, file) {
  let timer;
  try {
    await Promise.race([
      chrome.scripting.executeScript({ target: { tabId }, world: 'MAIN', files: [file] }),
      new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`Injecting ${file} did not finish within ${IN_TAB_TIMEOUT_MS} ms`)), IN_TAB_TIMEOUT_MS); }),
    ]);
  } catch (err) {
    if (/could not load file/i.test(String(err?.message))) requestFullSync();
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

// Injects one plugin into one tab.  Skips the tab when the same adapter hash is already there
// (unless `force`).  Returns 'skipped' | 'injected'; throws on failure.
export async function injectPluginIntoTab(plugin, tab, force = false) {
  if (!plugin.adapterFile || !isSafePluginName(plugin.name)) return 'skipped';
  if (!urlMatchesPlugin(tab.url, plugin.urlPatterns, plugin.excludePatterns)) return 'skipped';
  const tabId = tab.id;
  if (!force) {
    const present = await runInTab(tabId, 'MAIN', page.readAdapterHash, [plugin.name]);
    if (present !== null && present !== undefined && (!plugin.adapterHash || present === plugin.adapterHash)) return 'skipped';
  }
  await prepareTab(tabId, tab.url, plugin);
  await injectFile(tabId, plugin.adapterFile);
  if (!plugin.adapterHash) return 'injected';
  let hash = await runInTab(tabId, 'MAIN', page.readAdapterHash, [plugin.name]);
  if (hash !== plugin.adapterHash) {
    // The file may have been replaced while Chrome read it: wait a moment and try once more.
    await new Promise((r) => setTimeout(r, HASH_RETRY_DELAY_MS));
    await prepareTab(tabId, tab.url, plugin);
    await injectFile(tabId, plugin.adapterFile);
    hash = await runInTab(tabId, 'MAIN', page.readAdapterHash, [plugin.name]);
    if (hash !== plugin.adapterHash) {
      requestFullSync();
      throw new Error(`Adapter hash mismatch for ${plugin.name} after retry`);
    }
  }
  return 'injected';
}

// All http(s) tabs; URL filtering is done with our own matcher (shared/url-match.js).
export async function webTabs() {
  const tabs = await chrome.tabs.query({});
  return tabs.filter((t) => t.id !== undefined && typeof t.url === 'string' && /^https?:/.test(t.url));
}

export async function tabsForPlugin(plugin, tabs) {
  const all = tabs ?? await webTabs();
  return all.filter((t) => urlMatchesPlugin(t.url, plugin.urlPatterns, plugin.excludePatterns));
}

// Injects one plugin into all its tabs; failures are logged per tab and do not stop the rest.
export async function injectPluginEverywhere(plugin, force = false, tabs) {
  const targets = await tabsForPlugin(plugin, tabs);
  await Promise.all(targets.map((tab) => injectPluginIntoTab(plugin, tab, force).catch((err) => {
    console.warn(`[opentabs] injecting ${plugin.name} into tab ${tab.id} failed: ${err?.message ?? err}`);
  })));
}

// Injects every stored plugin that matches one tab (tab load / navigation).
export async function injectAllIntoTab(tab) {
  if (!tab || tab.id === undefined || typeof tab.url !== 'string' || !/^https?:/.test(tab.url)) return;
  for (const plugin of store.plugins.values()) {
    try {
      await injectPluginIntoTab(plugin, tab, false);
    } catch (err) {
      console.warn(`[opentabs] injecting ${plugin.name} into tab ${tab.id} failed: ${err?.message ?? err}`);
    }
  }
}

// Removes an adapter from every tab that has it.
export async function removePluginFromTabs(pluginName) {
  const tabs = await webTabs();
  await Promise.all(tabs.map((tab) => runInTab(tab.id, 'MAIN', page.removeAdapter, [pluginName]).catch(() => {})));
}

export { runInTab };
