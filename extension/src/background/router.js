// Routes every message the server sends (relayed by the offscreen document): responses to the
// extension's own requests, server notifications (`sync.full`, `plugin.update`,
// `plugins.changed`, `tool.invocationStart/End`, `confirmation.request/settled`, `extension.reload`) and
// server requests (`tool.dispatch`, `plugin.uninstall`, `browser.*`, `extension.*`), which
// pass the allow-list and the per-method rate limiter before their handler runs.

import { ProtocolError, ERR_INTERNAL, ERR_METHOD_NOT_FOUND, ERR_INVALID_PARAMS, MAX_ERROR_MESSAGE_CHARS, isSafePluginName } from '../shared/constants.js';
import { ALLOWED_INBOUND_METHODS } from '../shared/allowed-methods.js';
import { RateLimiter } from '../shared/rate-limiter.js';
import { normalisePlugin } from '../shared/plugin-payload.js';
import {
  store, savePlugins, saveServerState, saveConfirmations, addNotice, recordActivityStart, recordActivityEnd,
} from './store.js';
import {
  handleServerResponse, replyResult, replyError, notifyServer, requestServer, resolveServerPort,
  connectionId, hasOffscreen, restartConnection,
} from './server-link.js';
import { injectPluginEverywhere, removePluginFromTabs, tabsForPlugin, webTabs } from './injection.js';
import { syncPreScripts, unregisterPreScript } from './pre-scripts.js';
import * as tabState from './tab-state.js';
import { dispatchTool } from './tool-dispatch.js';
import { browserCommands } from '../browser-commands/index.js';
import { checkTabHolder, clientEnded } from '../browser-commands/client-tabs.js';

const limiter = new RateLimiter();
let pluginQueue = Promise.resolve(); // sync.full / plugin.update / plugin.uninstall run in order
const inOrder = (fn) => (pluginQueue = pluginQueue.then(fn, fn));

// `extension.reload`: forget everything learned from the server, then restart the socket owner
// (which re-reads auth.json) after 100 ms, so a reply to the request can still go out first.
// The next sync.full rebuilds the state.
export function scheduleReload() {
  setTimeout(async () => {
    await store.ready;
    store.plugins = new Map();
    store.tabStates = {};
    store.confirmations = [];
    await chrome.storage.session.remove(['plugins', 'serverState', 'tabStates', 'confirmations', 'connection']);
    await restartConnection();
  }, 100);
}

const commandContext = {
  store, notifyServer, requestServer, resolveServerPort, connectionId, hasOffscreen, scheduleReload,
};

// sync.full: replace the plugin store, clean up removed plugins, register pre-scripts, inject
// adapters where missing, then report every tab state.
async function onSyncFull(params) {
  const incoming = (Array.isArray(params?.plugins) ? params.plugins : []).map(normalisePlugin).filter(Boolean);
  const removed = [...store.plugins.keys()].filter((name) => !incoming.some((p) => p.name === name));
  store.plugins = new Map(incoming.map((p) => [p.name, p]));
  await savePlugins();
  const { plugins: _ignored, ...rest } = params ?? {};
  await saveServerState({ ...(store.serverState ?? {}), ...rest, plugins: incoming });
  for (const name of removed) await removePluginFromTabs(name);
  await syncPreScripts(incoming);
  const tabs = await webTabs();
  await Promise.all(incoming.map((p) => injectPluginEverywhere(p, false, tabs)));
  await tabState.syncAll();
}

// plugin.update: store one plugin, force re-injection, reload its tabs if the pre-script changed.
async function onPluginUpdate(params) {
  const plugin = normalisePlugin(params);
  if (!plugin) return;
  const before = store.plugins.get(plugin.name);
  store.plugins.set(plugin.name, plugin);
  await savePlugins();
  if (store.serverState) {
    const others = (store.serverState.plugins ?? []).filter((p) => p.name !== plugin.name);
    await saveServerState({ ...store.serverState, plugins: [...others, plugin].sort((a, b) => a.name.localeCompare(b.name)) });
  }
  await syncPreScripts([...store.plugins.values()]);
  if (plugin.preScriptHash && before?.preScriptHash !== plugin.preScriptHash) {
    for (const tab of await tabsForPlugin(plugin)) await chrome.tabs.reload(tab.id).catch(() => {});
  } else {
    await injectPluginEverywhere(plugin, true);
  }
  await tabState.refresh([plugin.name]);
}

async function onPluginUninstall(params) {
  const name = params?.name;
  if (typeof name !== 'string' || !isSafePluginName(name)) throw new ProtocolError(ERR_INVALID_PARAMS, 'Missing or invalid plugin name');
  store.plugins.delete(name);
  await savePlugins();
  await unregisterPreScript(name);
  await removePluginFromTabs(name);
  await tabState.refresh();
  return { success: true };
}

async function onConfirmationRequest(params) {
  if (typeof params?.id !== 'string' || typeof params.tool !== 'string') return;
  if (store.confirmations.some((c) => c.id === params.id)) return;
  let preview;
  try { preview = JSON.stringify(params.params ?? {}, null, 2); } catch { preview = '{}'; }
  store.confirmations.push({
    id: params.id, tool: params.tool, plugin: typeof params.plugin === 'string' ? params.plugin : '',
    params: preview.length > 4000 ? `${preview.slice(0, 4000)}…` : preview, receivedAt: Date.now(),
  });
  await saveConfirmations();
}

// The question was decided elsewhere (the agent's own UI, another profile's side panel) or
// the call ended: the entry goes, so nobody clicks an answer that would change nothing.
// With `notUsed`, the person's own click came after that decision: the server says which
// answer took effect instead, and the panel shows it, since the click looked accepted.
async function onConfirmationSettled(params) {
  if (typeof params?.id !== 'string') return;
  const before = store.confirmations.length;
  store.confirmations = store.confirmations.filter((c) => c.id !== params.id);
  if (store.confirmations.length !== before) await saveConfirmations();
  if (typeof params.notUsed === 'string' && params.notUsed !== '') {
    await addNotice({ kind: 'answerNotUsed', tool: '', plugin: '', message: params.notUsed.slice(0, 1000) });
  }
}

// "Always allow" answered in the agent's own dialog set a tool to auto in config.json: the
// side panel did not see that answer, so it shows what changed and how to undo it.
async function onAlwaysAllowed(params) {
  if (typeof params?.tool !== 'string' || typeof params.plugin !== 'string') return;
  await addNotice({
    kind: 'alwaysAllowed', tool: params.tool.slice(0, 200), plugin: params.plugin.slice(0, 200),
    message: typeof params.message === 'string' ? params.message.slice(0, 1000) : '',
  });
}

async function handleRequest(method, params) {
  switch (method) {
    case 'tool.dispatch': return dispatchTool(params);
    case 'plugin.uninstall': return inOrder(() => onPluginUninstall(params));
    case 'sync.full': await inOrder(() => onSyncFull(params)); return { ok: true };
    case 'plugin.update': await inOrder(() => onPluginUpdate(params)); return { ok: true };
    default: {
      const handler = browserCommands.get(method);
      if (!handler) throw new ProtocolError(ERR_METHOD_NOT_FOUND, `Method not found: ${method}`);
      await checkTabHolder(method, params ?? {});
      return handler(params ?? {}, commandContext);
    }
  }
}

async function handleNotification(method, params) {
  switch (method) {
    case 'sync.full': return inOrder(() => onSyncFull(params));
    case 'plugin.update': return inOrder(() => onPluginUpdate(params));
    case 'plugins.changed': return saveServerState(params ?? null);
    case 'tool.invocationStart': return recordActivityStart(params ?? {});
    case 'tool.invocationEnd': return recordActivityEnd(params ?? {});
    case 'confirmation.request': return onConfirmationRequest(params);
    case 'confirmation.settled': return onConfirmationSettled(params);
    case 'confirmation.alwaysAllowed': return onAlwaysAllowed(params);
    case 'extension.reload': return scheduleReload();
    case 'browser.clientEnded': return clientEnded(params ?? {});
    default: return undefined; // other notifications carry nothing for the extension
  }
}

const errorText = (err) => {
  const text = String(err?.message ?? err);
  return text.length > MAX_ERROR_MESSAGE_CHARS ? `${text.slice(0, MAX_ERROR_MESSAGE_CHARS)}…` : text;
};

// Entry point for one inbound server message.
export async function routeServerMessage(message) {
  await store.ready;
  if (typeof message?.method !== 'string') {
    if (message?.id !== undefined) handleServerResponse(message);
    return;
  }
  const { method, params, id } = message;
  if (!ALLOWED_INBOUND_METHODS.has(method)) return;
  const isRequest = id !== undefined && id !== null;
  if (!isRequest) {
    try { await handleNotification(method, params); } catch (err) { console.warn(`[opentabs] ${method} failed: ${errorText(err)}`); }
    return;
  }
  const now = Date.now();
  if (!limiter.allow(method, now)) {
    await replyError(id, ERR_INTERNAL, limiter.refusal(method, now));
    return;
  }
  try {
    const result = await handleRequest(method, params);
    await replyResult(id, result === undefined ? null : result);
  } catch (err) {
    const code = Number.isInteger(err?.code) ? err.code : ERR_INTERNAL;
    await replyError(id, code, errorText(err), err?.data);
  }
}
