// Service-worker entry point.  Every listener is registered synchronously at the top level so
// Chrome can wake a suspended worker for any of these events; state comes back from
// chrome.storage.session (background/store.js) before a handler touches it.  The WebSocket is
// owned by the offscreen document, so suspension of this worker does not drop the connection.

import { store, saveConnection, saveConfirmations } from './background/store.js';
import {
  ensureOffscreen, resolveServerPort, connectionId, forceReconnect, failPendingRequests, notifyServer,
} from './background/server-link.js';
import { routeServerMessage } from './background/router.js';
import { handleSidePanelAction } from './background/side-panel-actions.js';
import { injectAllIntoTab } from './background/injection.js';
import * as tabState from './background/tab-state.js';
import { onProgress } from './background/tool-dispatch.js';
import { READINESS_POLL_MS, isSafePluginName } from './shared/constants.js';
import { urlMatchesPlugin } from './shared/url-match.js';
// WebMCP page tools: registers its own listeners and the webmcp.callTool command.
import './webmcp/background.js';
// Native messaging: the server's port and secret from `opentabs native-host`, starting it if needed.
import { nativeConnectionParams } from './native/native-link.js';

const KEEPALIVE_ALARM = 'opentabs-keepalive';
const LOG_LEVELS = new Set(['debug', 'info', 'warning', 'error']);
let pollTimer = null;
let lastActivity = Date.now();

// Readiness is re-polled every 30 s while the worker is busy (a server message, tab event,
// page relay or side-panel action within the last 30 s).  Extension API calls reset Chrome's
// idle timer, so polling unconditionally would keep the worker awake for ever; instead an idle
// worker is allowed to be suspended, and the once-a-minute alarm wakes it to re-poll.
function markActivity() { lastActivity = Date.now(); }

function startReadinessPolling() {
  clearInterval(pollTimer);
  pollTimer = setInterval(() => {
    if (store.connection.state !== 'connected') return;
    if (Date.now() - lastActivity <= READINESS_POLL_MS) tabState.refresh();
  }, READINESS_POLL_MS);
}

async function onConnectionState(msg) {
  await store.ready;
  const previous = store.connection.state;
  await saveConnection({ state: msg.state, detail: msg.detail ?? '', port: msg.port ?? null, since: msg.since ?? Date.now() });
  if (previous === 'connected' && msg.state !== 'connected') {
    failPendingRequests('Disconnected from the opentabs server');
    // The server rejects pending confirmations when the extension goes away.
    store.confirmations = [];
    await saveConfirmations();
  }
  if (msg.state === 'connected') startReadinessPolling();
}

// Plugin log batches from a tab's ISOLATED relay → one `plugin.log` per entry.
async function onPluginLogs(msg, sender) {
  await store.ready;
  const plugin = store.plugins.get(msg.plugin);
  if (!plugin || !isSafePluginName(msg.plugin) || !sender.tab?.url) return;
  if (!urlMatchesPlugin(sender.tab.url, plugin.urlPatterns, plugin.excludePatterns)) return;
  for (const entry of (Array.isArray(msg.entries) ? msg.entries : []).slice(0, 100)) {
    if (!entry || typeof entry.message !== 'string') continue;
    const level = entry.level === 'warn' ? 'warning' : entry.level;
    const params = {
      plugin: msg.plugin,
      level: LOG_LEVELS.has(level) ? level : 'info',
      message: entry.message.slice(0, 10_000),
      ts: typeof entry.ts === 'string' || typeof entry.ts === 'number' ? entry.ts : new Date().toISOString(),
    };
    if (entry.data !== undefined && entry.data !== null) params.data = entry.data;
    await notifyServer('plugin.log', params);
  }
}

const OFFSCREEN_PAGE = chrome.runtime.getURL('offscreen/offscreen.html');
const SIDE_PANEL_PAGE = chrome.runtime.getURL('side-panel/side-panel.html');
const EXTENSION_ORIGIN = chrome.runtime.getURL('');
// Which context sent a message decides what it may ask for: only the offscreen document speaks
// for the socket, only the side panel page may change settings, and page relays (content
// scripts in web tabs) may only deliver logs, readiness and progress.
const fromOffscreen = (sender) => sender.url?.startsWith(OFFSCREEN_PAGE);
const fromSidePanel = (sender) => sender.url?.startsWith(SIDE_PANEL_PAGE);
const fromWebTab = (sender) => Boolean(sender.tab) && !sender.url?.startsWith(EXTENSION_ORIGIN);

chrome.runtime.onMessage.addListener((msg, sender, sendResponse) => {
  if (msg?.target !== 'background' || sender.id !== chrome.runtime.id) return false;
  const type = String(msg.type ?? '');
  const allowed = type.startsWith('ws:') || type === 'bg:connectionParams' ? fromOffscreen(sender)
    : type.startsWith('sp:') ? fromSidePanel(sender)
      : fromWebTab(sender);
  if (!allowed) return false;
  if (type !== 'ws:state' && type !== 'bg:connectionParams') markActivity();
  const respond = (promise) => {
    promise.then((value) => sendResponse(value ?? { ok: true }),
      (err) => sendResponse({ error: String(err?.message ?? err) }));
    return true;
  };
  switch (msg.type) {
    case 'ws:message': routeServerMessage(msg.message); sendResponse({ ok: true }); return false;
    case 'ws:state': return respond(onConnectionState(msg));
    case 'bg:connectionParams':
      return respond((async () => ({
        port: await resolveServerPort(), connectionId: await connectionId(), ...(await nativeConnectionParams()),
      }))());
    case 'plugin:logs': return respond(onPluginLogs(msg, sender));
    case 'plugin:readiness':
      if (typeof msg.plugin === 'string') tabState.refresh([msg.plugin]);
      sendResponse({ ok: true });
      return false;
    case 'tool:progress': onProgress(msg, sender); sendResponse({ ok: true }); return false;
    default:
      return type.startsWith('sp:') ? respond(handleSidePanelAction(msg)) : false;
  }
});

// Tab events the server turns into MCP resource notifications (tab resources a client
// subscribed to, the resource list); the server debounces them.  Sent only while connected:
// a reconnecting client re-lists.
function tabChanged(tabId, change) {
  if (store.connection.state !== 'connected') return;
  notifyServer('tab.changed', { tabId, change }).catch(() => {});
}

chrome.tabs.onCreated.addListener((tab) => { store.ready.then(() => tabChanged(tab.id, 'opened')); });

chrome.tabs.onUpdated.addListener((tabId, changeInfo, tab) => {
  if (changeInfo.status !== 'complete' && changeInfo.url === undefined) return;
  markActivity();
  store.ready.then(() => tabChanged(tabId, changeInfo.url !== undefined ? 'navigated' : 'loaded'));
  store.ready.then(async () => {
    if (tab.status === 'complete') await injectAllIntoTab(tab);
    tabState.scheduleRefresh();
  });
});
chrome.tabs.onRemoved.addListener((tabId) => {
  markActivity();
  store.ready.then(() => { tabChanged(tabId, 'closed'); tabState.scheduleRefresh(); });
});
chrome.tabs.onReplaced.addListener(() => { markActivity(); store.ready.then(() => tabState.scheduleRefresh()); });

chrome.storage.onChanged.addListener((changes, area) => {
  if (area === 'local' && changes.serverPort) forceReconnect();
});

chrome.alarms.onAlarm.addListener((alarm) => {
  if (alarm.name !== KEEPALIVE_ALARM) return;
  ensureOffscreen().catch(() => {});
  store.ready.then(() => { if (store.connection.state === 'connected') tabState.refresh(); });
});

chrome.runtime.onInstalled.addListener(() => {
  chrome.sidePanel?.setPanelBehavior({ openPanelOnActionClick: true }).catch(() => {});
});

// Every worker start: make sure the socket owner exists and the safety-net alarm is set.  The
// alarm fires once a minute (so a suspended worker is woken to re-create a lost offscreen
// document and re-poll readiness) but does not keep the worker permanently awake.
chrome.alarms.get(KEEPALIVE_ALARM).then((alarm) => {
  if (!alarm) chrome.alarms.create(KEEPALIVE_ALARM, { periodInMinutes: 1 });
});
ensureOffscreen().catch((err) => console.warn(`[opentabs] offscreen document: ${err?.message ?? err}`));
store.ready.then(() => { if (store.connection.state === 'connected') startReadinessPolling(); });
