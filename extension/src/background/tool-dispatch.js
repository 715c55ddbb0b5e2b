// `tool.dispatch` on the extension side (protocol §3.7): validate, pick the tab (explicit
// `tabId` or ranked candidates), re-check the URL just before running, relay progress, enforce
// the script timeout (25 s, reset by progress, 295 s cap) and map the outcome to a result or a
// JSON-RPC error (−32001 tab closed, −32002 not ready, −32003 URL mismatch, −32603 tool error).

import {
  ProtocolError, ERR_TAB_CLOSED, ERR_NOT_READY, ERR_URL_MISMATCH, ERR_INVALID_PARAMS, ERR_INTERNAL,
  MAX_DISPATCH_INPUT_BYTES, SCRIPT_TIMEOUT_MS, SCRIPT_TIMEOUT_CAP_MS, READINESS_PROBE_TIMEOUT_MS,
  MAX_ERROR_MESSAGE_CHARS,
} from '../shared/constants.js';
import { urlMatchesPlugin } from '../shared/url-match.js';
import { pluginConfigForTab } from '../shared/plugin-payload.js';
import { rankTabs } from '../shared/tab-ranking.js';
import { store } from './store.js';
import { notifyServer } from './server-link.js';
import { injectPluginIntoTab, runInTab, tabsForPlugin } from './injection.js';
import * as page from './page-functions.js';

const active = new Map(); // dispatchId -> {tabId, resetTimeout()}

const clip = (s) => (s.length > MAX_ERROR_MESSAGE_CHARS ? `${s.slice(0, MAX_ERROR_MESSAGE_CHARS)}…` : s);

function validate(params) {
  if (!params || typeof params !== 'object') throw new ProtocolError(ERR_INVALID_PARAMS, 'Missing params');
  const { plugin, tool, input } = params;
  if (typeof plugin !== 'string' || !plugin) throw new ProtocolError(ERR_INVALID_PARAMS, 'Invalid params: plugin must be a non-empty string');
  if (typeof tool !== 'string' || !tool) throw new ProtocolError(ERR_INVALID_PARAMS, 'Invalid params: tool must be a non-empty string');
  const value = input ?? {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new ProtocolError(ERR_INVALID_PARAMS, 'Invalid params: input must be an object');
  if (JSON.stringify(value).length > MAX_DISPATCH_INPUT_BYTES) throw new ProtocolError(ERR_INVALID_PARAMS, 'Invalid params: input exceeds 10 MiB');
  if (params.tabId !== undefined && (!Number.isInteger(params.tabId) || params.tabId < 0)) {
    throw new ProtocolError(ERR_INVALID_PARAMS, 'Invalid params: tabId must be a non-negative integer');
  }
  const dispatchId = typeof params.__opentabs_dispatchId === 'string' ? params.__opentabs_dispatchId : crypto.randomUUID();
  return { pluginName: plugin, toolName: tool, input: value, tabId: params.tabId, dispatchId };
}

async function getTab(tabId) {
  try { return await chrome.tabs.get(tabId); } catch { return null; }
}

// Waits for `promise` with a timeout that progress can extend, capped from the start.
function withScriptTimeout(promise, dispatchId, tabId) {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    let timer;
    const arm = () => {
      clearTimeout(timer);
      const remainingCap = SCRIPT_TIMEOUT_CAP_MS - (Date.now() - started);
      const wait = Math.max(0, Math.min(SCRIPT_TIMEOUT_MS, remainingCap));
      const capReached = remainingCap <= SCRIPT_TIMEOUT_MS;
      timer = setTimeout(() => {
        active.delete(dispatchId);
        reject(new ProtocolError(ERR_INTERNAL, capReached
          ? `Script timed out: reached the ${SCRIPT_TIMEOUT_CAP_MS}ms cap`
          : `Script timed out after ${SCRIPT_TIMEOUT_MS}ms without progress`));
      }, wait);
    };
    active.set(dispatchId, { tabId, resetTimeout: arm });
    arm();
    promise.then((v) => { clearTimeout(timer); active.delete(dispatchId); resolve(v); },
      (e) => { clearTimeout(timer); active.delete(dispatchId); reject(e); });
  });
}

// A progress event relayed from the tab's ISOLATED world.
export function onProgress(msg, sender) {
  const entry = active.get(msg.dispatchId);
  if (!entry || sender.tab?.id !== entry.tabId) return;
  entry.resetTimeout();
  const params = { dispatchId: msg.dispatchId, progress: Number.isFinite(msg.progress) ? msg.progress : 0, total: Number.isFinite(msg.total) ? msg.total : 0 };
  if (typeof msg.message === 'string') params.message = msg.message.slice(0, 1000);
  notifyServer('tool.progress', params);
}

const TAB_GONE = /no tab with id|tab was closed|frame with id 0 was removed|cannot access/i;

async function runOnTab(plugin, tab, call) {
  // The adapter normally arrives on page load; inject now if it is missing or stale.
  await injectPluginIntoTab(plugin, tab, false).catch(() => {});
  await runInTab(tab.id, 'MAIN', page.setPluginConfig, [pluginConfigForTab(plugin, tab.url)]).catch(() => {});
  try {
    await runInTab(tab.id, 'ISOLATED', page.installProgressRelay, [call.dispatchId]);
  } catch (err) {
    // Gone before the tool started: the caller may try another tab.
    const message = String(err?.message ?? err);
    if (TAB_GONE.test(message)) throw new ProtocolError(ERR_TAB_CLOSED, `Tab ${tab.id} is gone: ${clip(message)}`);
    throw new ProtocolError(ERR_INTERNAL, clip(message));
  }
  try {
    const execution = chrome.scripting.executeScript({
      target: { tabId: tab.id }, world: 'MAIN', func: page.runTool,
      args: [call.pluginName, call.toolName, call.input, call.dispatchId, READINESS_PROBE_TIMEOUT_MS],
    }).then((results) => results?.[0]?.result);
    const outcome = await withScriptTimeout(execution, call.dispatchId, tab.id);
    if (!outcome) {
      // The page went away under the tool: say which tab and what happened to it.
      const now = await chrome.tabs.get(tab.id).catch(() => null);
      if (!now) throw startedError(ERR_TAB_CLOSED, `Tab ${tab.id} was closed before the tool finished`);
      throw startedError(ERR_INTERNAL, `Tab ${tab.id} navigated away before the tool finished`);
    }
    if (outcome.error) {
      throw new ProtocolError(outcome.error.code, clip(String(outcome.error.message)), outcome.error.data);
    }
    return { output: outcome.value };
  } catch (err) {
    if (err instanceof ProtocolError) throw err;
    const message = String(err?.message ?? err);
    if (TAB_GONE.test(message)) throw startedError(ERR_TAB_CLOSED, `Tab ${tab.id} is gone: ${clip(message)}`);
    throw new ProtocolError(ERR_INTERNAL, clip(message));
  } finally {
    runInTab(tab.id, 'ISOLATED', page.removeProgressRelay, [call.dispatchId]).catch(() => {});
  }
}

// The tab went away after the tool had started in it.  Marked so dispatchTool does not run
// the tool again in another tab: it may already have had effects (sent a message, created a
// record), and running it twice is worse than reporting the lost tab.
function startedError(code, message) {
  const err = new ProtocolError(code, `${message}; not retried in another tab because the tool had already started`);
  err.toolStarted = true;
  return err;
}

// Handles one tool.dispatch request; resolves to {output} or throws a ProtocolError.
export async function dispatchTool(params) {
  const call = validate(params);
  const plugin = store.plugins.get(call.pluginName);
  if (!plugin) throw new ProtocolError(ERR_INTERNAL, `Plugin "${call.pluginName}" not found`);

  if (call.tabId !== undefined) {
    const tab = await getTab(call.tabId);
    if (!tab) throw new ProtocolError(ERR_TAB_CLOSED, `Tab ${call.tabId} does not exist`);
    if (!urlMatchesPlugin(tab.url ?? '', plugin.urlPatterns, plugin.excludePatterns)) {
      throw new ProtocolError(ERR_URL_MISMATCH, `Tab ${call.tabId} does not match the URL patterns of plugin "${plugin.name}"`);
    }
    return runOnTab(plugin, tab, call);
  }

  const candidates = await tabsForPlugin(plugin);
  if (candidates.length === 0) {
    throw new ProtocolError(ERR_TAB_CLOSED, `No matching tab for plugin "${plugin.name}" (state: closed)`);
  }
  const focused = await chrome.windows.getLastFocused().catch(() => null);
  let lastError = null;
  for (const candidate of rankTabs(candidates, focused?.id)) {
    // Re-check: the tab may have navigated away or closed since the query.
    const tab = await getTab(candidate.id);
    if (!tab || !urlMatchesPlugin(tab.url ?? '', plugin.urlPatterns, plugin.excludePatterns)) continue;
    try {
      return await runOnTab(plugin, tab, call);
    } catch (err) {
      if (err instanceof ProtocolError && !err.toolStarted && (err.code === ERR_NOT_READY || err.code === ERR_TAB_CLOSED)) {
        lastError = err;
        continue;
      }
      throw err;
    }
  }
  if (lastError?.code === ERR_NOT_READY) {
    throw new ProtocolError(ERR_NOT_READY, `Plugin "${plugin.name}" is not ready (state: unavailable)`);
  }
  throw new ProtocolError(ERR_TAB_CLOSED, `No matching tab for plugin "${plugin.name}" (state: closed)`);
}
