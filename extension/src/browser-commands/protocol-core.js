// The `browser.*` / `extension.*` handlers the protocol core relies on: tab listing and basic
// tab management, and the extension diagnostics the server calls (`extension.getTabState` for
// /health, `extension.getState`, `extension.reload`).

import { ProtocolError, ERR_INVALID_PARAMS } from '../shared/constants.js';

function requireTabId(params) {
  const tabId = params?.tabId;
  if (!Number.isInteger(tabId) || tabId < 0) throw new ProtocolError(ERR_INVALID_PARAMS, 'Missing or invalid tabId parameter');
  return tabId;
}

function requireHttpUrl(params) {
  const url = params?.url;
  if (typeof url !== 'string') throw new ProtocolError(ERR_INVALID_PARAMS, 'Missing or invalid url parameter');
  let parsed;
  try { parsed = new URL(url); } catch { throw new ProtocolError(ERR_INVALID_PARAMS, 'Invalid url parameter'); }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ProtocolError(ERR_INVALID_PARAMS, 'URL scheme not allowed (only http: and https: URLs can be opened)');
  }
  return url;
}

const tabSummary = (tab) => ({ id: tab.id, title: tab.title ?? '', url: tab.url ?? '', active: tab.active, windowId: tab.windowId });

export const commands = {
  'browser.listTabs': async () => (await chrome.tabs.query({})).map(tabSummary),

  'browser.openTab': async (params) => {
    const url = requireHttpUrl(params);
    const tab = await chrome.tabs.create({ url });
    return { id: tab.id, title: tab.title ?? '', url: tab.url || tab.pendingUrl || url, windowId: tab.windowId };
  },

  'browser.closeTab': async (params) => {
    await chrome.tabs.remove(requireTabId(params));
    return { ok: true };
  },

  'browser.navigateTab': async (params) => {
    const tabId = requireTabId(params);
    const url = requireHttpUrl(params);
    const tab = await chrome.tabs.update(tabId, { url });
    return { id: tab.id, title: tab.title ?? '', url: tab.pendingUrl || tab.url || url, windowId: tab.windowId };
  },

  'browser.getTabInfo': async (params) => {
    const tab = await chrome.tabs.get(requireTabId(params));
    return {
      id: tab.id, title: tab.title ?? '', url: tab.url ?? '', status: tab.status, active: tab.active,
      windowId: tab.windowId, index: tab.index, pinned: tab.pinned, incognito: tab.incognito,
      favIconUrl: tab.favIconUrl, groupId: tab.groupId,
    };
  },

  'extension.getTabState': async (_params, ctx) => ({ tabStates: ctx.store.tabStates }),

  'extension.getState': async (_params, ctx) => ({
    connection: ctx.store.connection,
    serverPort: await ctx.resolveServerPort(),
    connectionId: await ctx.connectionId(),
    offscreenDocument: await ctx.hasOffscreen(),
    serviceWorker: { bootCount: ctx.store.swBoot.count, startedAt: ctx.store.swBoot.startedAt },
    plugins: [...ctx.store.plugins.values()].map((p) => ({
      name: p.name, version: p.version, urlPatterns: p.urlPatterns, adapterFile: p.adapterFile,
      adapterHash: p.adapterHash, toolCount: p.tools.length, hasPreScript: Boolean(p.preScriptFile),
      tabState: ctx.store.tabStates[p.name] ?? { state: 'closed', tabs: [] },
    })),
    pendingConfirmations: ctx.store.confirmations.length,
  }),

  'extension.reload': async (_params, ctx) => {
    ctx.scheduleReload();
    return { reloading: true };
  },
};
