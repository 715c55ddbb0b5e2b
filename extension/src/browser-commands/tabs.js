// Tabs and tab groups beyond the protocol core's basics (chrome.tabs, chrome.tabGroups; no
// CDP).  browser.openTab is re-registered here so a new tab opens in the background unless the
// caller asks for it to be active: agents should not take focus from the person at the keyboard.

import { int, str, bool, intArray, httpUrl, tabId as requireTabId, invalid } from './params.js';
import { markDriven } from './dialogs.js';
import { navigateAndWait, navResult, waitUntilParam } from './actions.js';
import { openForClient } from './client-tabs.js';

const tabSummary = (tab) => ({
  id: tab.id, title: tab.title ?? '', url: tab.url || tab.pendingUrl || '', active: tab.active,
  windowId: tab.windowId, groupId: tab.groupId,
});
const groupSummary = (g) => ({ id: g.id, title: g.title ?? '', color: g.color, collapsed: g.collapsed, windowId: g.windowId });
const COLORS = new Set(['grey', 'blue', 'red', 'yellow', 'green', 'pink', 'purple', 'cyan', 'orange']);

function color(params) {
  const c = str(params, 'color', { required: false, max: 20 });
  if (c !== undefined && !COLORS.has(c)) throw invalid(`Invalid color '${c}'`);
  return c;
}

export const commands = {
  'browser.openTab': async (params) => {
    const url = httpUrl(params);
    const active = bool(params, 'active', false);
    // Ours (the OpenTabs wire has none): waitUntil, 'none' when missing so OpenTabs callers
    // keep their immediate answer; the server's schema fills in 'load' for agents.
    const waitUntil = waitUntilParam({ waitUntil: params?.waitUntil ?? 'none' });
    const client = str(params, 'clientGroup', { required: false, max: 64 });
    // An MCP client's tab goes into its tab group, in the person's window or the client's own
    // (client-tabs.js); the tab is open either way, a window that cannot hold groups says why.
    // A tab the answer waits for opens at about:blank and is sent to its page once the debugger
    // watches it, so a dialog the page opens while loading can be answered (actions.js).
    const first = waitUntil === 'none' ? url : 'about:blank';
    const { tab, group } = client ? await openForClient(first, active, client) : { tab: await chrome.tabs.create({ url: first, active }) };
    markDriven(tab.id);
    const opened = { id: tab.id, title: tab.title ?? '', url: waitUntil === 'none' ? tab.url || tab.pendingUrl || url : url, windowId: tab.windowId, active: tab.active };
    if (group) opened.group = group;
    if (waitUntil === 'none') return opened;
    const loaded = navResult(await navigateAndWait(tab.id, () => chrome.tabs.update(tab.id, { url }), waitUntil, { fresh: true }));
    return {
      ...opened, title: loaded.title, url: loaded.url, status: loaded.status, waitedFor: loaded.waitedFor,
      ...(loaded.timedOut ? { timedOut: true, note: loaded.note } : {}), ...(loaded.dialog ? { dialog: loaded.dialog } : {}),
    };
  },

  'browser.focusTab': async (params) => {
    const tab = await chrome.tabs.update(requireTabId(params), { active: true });
    await chrome.windows.update(tab.windowId, { focused: true });
    return { ok: true, ...tabSummary(tab), active: true };
  },

  'browser.listTabGroups': async (params) => {
    const windowId = int(params, 'windowId', { required: false, min: 1 });
    const groups = await chrome.tabGroups.query(windowId === undefined ? {} : { windowId });
    return { groups: groups.map(groupSummary) };
  },

  'browser.createTabGroup': async (params) => {
    const tabIds = intArray(params, 'tabIds');
    const title = str(params, 'title', { required: false, max: 200 });
    const c = color(params);
    const groupId = await chrome.tabs.group({ tabIds });
    const update = {};
    if (title !== undefined) update.title = title;
    if (c !== undefined) update.color = c;
    const group = Object.keys(update).length ? await chrome.tabGroups.update(groupId, update) : await chrome.tabGroups.get(groupId);
    return { groupId, group: groupSummary(group) };
  },

  'browser.addTabsToGroup': async (params) => {
    const groupId = int(params, 'groupId');
    const tabIds = intArray(params, 'tabIds');
    await chrome.tabs.group({ groupId, tabIds });
    return { ok: true, groupId, tabIds };
  },

  'browser.removeTabsFromGroup': async (params) => {
    const tabIds = intArray(params, 'tabIds');
    await chrome.tabs.ungroup(tabIds);
    return { ok: true, tabIds };
  },

  'browser.updateTabGroup': async (params) => {
    const groupId = int(params, 'groupId');
    const update = {};
    const title = str(params, 'title', { required: false, max: 200 });
    const c = color(params);
    const collapsed = bool(params, 'collapsed', undefined);
    if (title !== undefined) update.title = title;
    if (c !== undefined) update.color = c;
    if (collapsed !== undefined) update.collapsed = collapsed;
    const group = await chrome.tabGroups.update(groupId, update);
    return { group: groupSummary(group) };
  },

  'browser.listTabsInGroup': async (params) => {
    const groupId = int(params, 'groupId');
    const group = await chrome.tabGroups.get(groupId);
    const tabs = await chrome.tabs.query({ groupId });
    return { group: groupSummary(group), tabs: tabs.map(tabSummary) };
  },
};
