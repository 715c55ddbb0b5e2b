// Which MCP client holds which tab (issue 37).  The server sends the caller's name as
// clientGroup with every browser command (ours, not on the OpenTabs wire).  A client's new
// tabs go into a tab group named after it — in the tab's window, or in a window of the
// client's own when the person chose that in the side panel — and that group is what the
// person sees and what decides who holds a tab:
//   - a tab in client A's group is A's while A runs: client B's commands that act on it are
//     refused naming A (reading it is allowed); the person hands a tab over by dragging it out
//     of the group or into B's group, or by renaming the group;
//   - so are A's group itself (renaming it would hand it to B, adding tabs would move them
//     into A's work) and A's own window (moving, resizing, focusing or closing it); a window
//     that holds a tab of A's group is not closed for B either, as that would close the tab;
//   - when A's last MCP session ends (browser.clientEnded) its groups are kept, ungrouped
//     (the default: the tabs stay, now the person's) or closed, as the person chose.
// The groups made for clients (groupId -> client name) and the clients' own windows live in
// chrome.storage.session, so a suspended service worker keeps them.

import { ProtocolError, ERR_INVALID_PARAMS } from '../shared/constants.js';

export const SETTINGS_KEY = 'agentTabs';
export const DEFAULT_SETTINGS = Object.freeze({ place: 'group', onEnd: 'ungroup' });
const PLACES = new Set(['group', 'window']);
const ON_END = new Set(['keep', 'ungroup', 'close']);
const STATE_KEY = 'clientTabState';

// The person's choice (chrome.storage.local, written by the side panel), unknown values as the default.
export async function agentTabSettings() {
  const saved = (await chrome.storage.local.get(SETTINGS_KEY))[SETTINGS_KEY] ?? {};
  return {
    place: PLACES.has(saved.place) ? saved.place : DEFAULT_SETTINGS.place,
    onEnd: ON_END.has(saved.onEnd) ? saved.onEnd : DEFAULT_SETTINGS.onEnd,
  };
}

let state = null; // { groups: {groupId: client}, windows: {client: windowId} }
async function loadState() {
  if (!state) {
    const saved = (await chrome.storage.session.get(STATE_KEY))[STATE_KEY];
    state = { groups: { ...(saved?.groups ?? {}) }, windows: { ...(saved?.windows ?? {}) } };
  }
  return state;
}
const saveState = () => chrome.storage.session.set({ [STATE_KEY]: state });

async function joinClientGroup(tab, name) {
  const groups = await chrome.tabGroups.query({ windowId: tab.windowId });
  const existing = groups.find((g) => g.title === name);
  const groupId = await chrome.tabs.group(existing ? { tabIds: [tab.id], groupId: existing.id } : { tabIds: [tab.id], createProperties: { windowId: tab.windowId } });
  if (!existing) await chrome.tabGroups.update(groupId, { title: name });
  const s = await loadState();
  s.groups[groupId] = name;
  await saveState();
  return { id: groupId, title: name };
}

// The client's own window while it exists (the person may have closed it).
async function ownWindow(name) {
  const s = await loadState();
  const id = s.windows[name];
  if (id === undefined) return undefined;
  try {
    const w = await chrome.windows.get(id);
    if (w.type === 'normal') return id;
  } catch { /* closed */ }
  delete s.windows[name];
  await saveState();
  return undefined;
}

// One client's tabs are opened and grouped one after another, so tabs opened at once share
// one group (and one own window).
const queues = new Map(); // client name -> the promise of its last opening
function inTurn(name, work) {
  const previous = queues.get(name) ?? Promise.resolve();
  const turn = previous.catch(() => {}).then(work);
  const settled = turn.catch(() => {});
  queues.set(name, settled);
  settled.then(() => { if (queues.get(name) === settled) queues.delete(name); });
  return turn;
}

// Opens `url` for client `name` where the person's settings say; answers the tab and its
// group ({error} when the tab opened but could not be grouped, e.g. in a popup window).
export function openForClient(url, active, name) {
  return inTurn(name, async () => {
    const { place } = await agentTabSettings();
    let tab;
    let window;
    if (place === 'window') {
      const windowId = await ownWindow(name);
      if (windowId !== undefined) {
        tab = await chrome.tabs.create({ url, active, windowId });
      } else {
        // A window of the client's own, not focused: the person's window stays in front.
        const w = await chrome.windows.create({ url, focused: false });
        tab = w.tabs[0];
        const s = await loadState();
        s.windows[name] = w.id;
        await saveState();
      }
      window = 'own';
    } else {
      tab = await chrome.tabs.create({ url, active });
    }
    const group = await joinClientGroup(tab, name).catch((err) => ({ error: `Not grouped: ${err?.message ?? err}` }));
    if (window) group.window = window;
    return { tab, group };
  });
}

// Commands that only read a tab: allowed on another client's tab.
const READS = new Set([
  'browser.getTabInfo', 'browser.getTabContent', 'browser.getPageHtml', 'browser.snapshot', 'browser.screenshotTab',
  'browser.findText', 'browser.queryElements', 'browser.getElementStyles', 'browser.getConsoleLogs',
  'browser.getNetworkRequests', 'browser.getNetworkRequest', 'browser.getResourceContent', 'browser.listResources',
  'browser.getWebSocketFrames', 'browser.getStorage', 'browser.waitForElement', 'browser.waitForText', 'browser.wait',
  'browser.listTabs', 'browser.listTabGroups', 'browser.listTabsInGroup', 'browser.savePdf',
]);

const tabIdsOf = (params) => {
  const ids = [];
  if (Number.isInteger(params.tabId)) ids.push(params.tabId);
  if (Array.isArray(params.tabIds)) for (const id of params.tabIds) if (Number.isInteger(id)) ids.push(id);
  return ids;
};

// The client (other than `caller`) whose group `tabId` sits in, or undefined.  A group the
// person renamed is nobody's any more.
async function otherHolder(tabId, caller) {
  let tab;
  try { tab = await chrome.tabs.get(tabId); } catch { return undefined; } // the command says the tab is gone
  if (tab.groupId === undefined || tab.groupId === -1) return undefined;
  const s = await loadState();
  const holder = s.groups[tab.groupId];
  if (!holder || holder === caller) return undefined;
  try {
    if ((await chrome.tabGroups.get(tab.groupId)).title === holder) return holder;
  } catch { /* the group is gone */ }
  delete s.groups[tab.groupId];
  await saveState();
  return undefined;
}

// The client (other than `caller`) whose group `groupId` is, or undefined.  A group the
// person renamed is nobody's any more.
async function otherGroupHolder(groupId, caller) {
  const s = await loadState();
  const holder = s.groups[groupId];
  if (!holder || holder === caller) return undefined;
  try {
    if ((await chrome.tabGroups.get(groupId)).title === holder) return holder;
  } catch { /* the group is gone: the command says so */ }
  return undefined;
}

// The client (other than `caller`) whose own window `windowId` is, or undefined.
async function otherWindowHolder(windowId, caller) {
  const s = await loadState();
  const holder = Object.keys(s.windows).find((name) => s.windows[name] === windowId);
  if (!holder || holder === caller) return undefined;
  return (await ownWindow(holder)) === windowId ? holder : undefined;
}

const TAB_ADVICE = 'Open your own tab with browser_open_tab, or ask the person to move the tab out of that group (then any agent may use it)';
const refusal = (what, holder, advice = TAB_ADVICE) => new ProtocolError(ERR_INVALID_PARAMS,
  `${what} ${holder}, another agent working in this browser: it is theirs while they run (reading it is allowed). ${advice}`);

// Throws when `method` would act on a tab, tab group or window another client holds.
// Commands without a clientGroup (OpenTabs callers, plugins) are never refused.
export async function checkTabHolder(method, params) {
  const caller = params?.clientGroup;
  if (typeof caller !== 'string' || caller === '' || READS.has(method)) return;
  for (const tabId of tabIdsOf(params)) {
    const holder = await otherHolder(tabId, caller);
    if (holder) throw refusal(`Tab ${tabId} is in the tab group of`, holder);
  }
  if (Number.isInteger(params.groupId)) {
    const holder = await otherGroupHolder(params.groupId, caller);
    if (holder) {
      throw refusal(`Tab group ${params.groupId} is the tab group of`, holder,
        'Your own tabs go into your own group (browser_open_tab); the person may rename this one to make it theirs');
    }
  }
  if (Number.isInteger(params.windowId)) {
    const holder = await otherWindowHolder(params.windowId, caller);
    if (holder) {
      throw refusal(`Window ${params.windowId} is the window of`, holder,
        'Work in your own tabs (browser_open_tab opens them where the person chose); leave this window to the person and that agent');
    }
    if (method === 'browser.closeWindow') {
      const tabs = await chrome.tabs.query({ windowId: params.windowId }).catch(() => []);
      for (const tab of tabs) {
        const tabHolder = await otherHolder(tab.id, caller);
        if (tabHolder) throw refusal(`Window ${params.windowId} holds tab ${tab.id}, which closing it would close; that tab is in the tab group of`, tabHolder);
      }
    }
  }
}

// browser.clientEnded: the client's last MCP session ended.  Its groups are kept, ungrouped
// or closed as the person chose; either way nobody holds their tabs any more.
export async function clientEnded(params) {
  const name = params?.clientGroup;
  if (typeof name !== 'string' || name === '') return { released: 0 };
  await (queues.get(name) ?? Promise.resolve());
  const { onEnd } = await agentTabSettings();
  const s = await loadState();
  const tabIds = [];
  for (const [groupId, client] of Object.entries(s.groups)) {
    if (client !== name) continue;
    delete s.groups[groupId];
    try {
      const g = await chrome.tabGroups.get(Number(groupId));
      if (g.title !== name) continue; // renamed: the person's now
      for (const t of await chrome.tabs.query({ groupId: g.id })) tabIds.push(t.id);
    } catch { /* the person deleted the group */ }
  }
  delete s.windows[name];
  await saveState();
  if (tabIds.length && onEnd === 'ungroup') await chrome.tabs.ungroup(tabIds).catch(() => {});
  if (tabIds.length && onEnd === 'close') await chrome.tabs.remove(tabIds).catch(() => {});
  return { released: tabIds.length, onEnd };
}

export const commands = {
  'browser.clientEnded': clientEnded,
};

// A group the person closed or dissolved is forgotten, so the record stays as small as the
// groups that exist.  Only in the service worker (the e2e harness page imports this module too).
const inServiceWorker = typeof ServiceWorkerGlobalScope !== 'undefined' && globalThis instanceof ServiceWorkerGlobalScope;
if (inServiceWorker) {
  chrome.tabGroups.onRemoved.addListener(async (group) => {
    const s = await loadState();
    if (!(group.id in s.groups)) return;
    delete s.groups[group.id];
    await saveState();
  });
}
