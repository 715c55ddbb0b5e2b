// Functions the background runs inside tabs with chrome.scripting.executeScript.  Each one is
// serialised by Chrome and must be self-contained: no closures over module scope, only its
// arguments.  MAIN-world functions share the page's JavaScript world (where adapters live);
// ISOLATED-world functions run in the extension's content-script world, which page scripts
// cannot see.

// MAIN: the adapter's registered hash, or null when the adapter is absent.
export function readAdapterHash(pluginName) {
  const adapter = globalThis.__openTabs?.adapters?.[pluginName];
  if (!adapter) return null;
  return typeof adapter.__adapterHash === 'string' ? adapter.__adapterHash : '';
}

// MAIN: prepares `globalThis.__openTabs` before an adapter file runs.  The previous adapter's
// hash-and-freeze snippet leaves `adapters` non-writable, so the container is rebuilt as a
// mutable copy (adapter objects themselves stay frozen).  Sets `pluginConfig` for the plugin
// about to run, and has the document's adapter guard (plugin-relay/adapter-guard.js, which ran
// before any page script) put `_logNonce` / `_readinessNonce` on the container: accessors that
// answer only adapter code.  A document without the guard (open before the extension loaded)
// gets no nonces, so its adapters send no logs rather than logs a page could read or forge.
export function prepareMainWorld(pluginConfig) {
  const previous = globalThis.__openTabs;
  const fresh = {};
  const adapters = {};
  if (previous && typeof previous === 'object') {
    const oldAdapters = previous.adapters;
    if (oldAdapters && typeof oldAdapters === 'object') {
      for (const key of Object.keys(oldAdapters)) adapters[key] = oldAdapters[key];
    }
    for (const key of Object.getOwnPropertyNames(previous)) {
      if (key === 'adapters' || key === '_logNonce' || key === '_readinessNonce' || key === 'pluginConfig') continue;
      const desc = Object.getOwnPropertyDescriptor(previous, key);
      if (desc) Object.defineProperty(fresh, key, desc);
    }
  }
  fresh.adapters = adapters;
  fresh.pluginConfig = pluginConfig;
  const guard = Object.getOwnPropertyDescriptor(window, '__opentabsAdapterGuard');
  if (guard && !guard.configurable && !guard.writable && typeof guard.value?.install === 'function') guard.value.install(fresh);
  globalThis.__openTabs = fresh;
  return true;
}

// MAIN: sets pluginConfig only (before a dispatch, when two plugins share a tab).
export function setPluginConfig(pluginConfig) {
  if (globalThis.__openTabs && typeof globalThis.__openTabs === 'object') {
    try { globalThis.__openTabs.pluginConfig = pluginConfig; } catch { /* container frozen by a page */ }
  }
}

// ISOLATED: relays `opentabs:progress:<dispatchId>` DOM events to the background for the
// duration of one dispatch.
export function installProgressRelay(dispatchId) {
  const listeners = globalThis.__opentabsProgress ?? (globalThis.__opentabsProgress = new Map());
  if (listeners.has(dispatchId)) return true;
  const listener = (event) => {
    let detail = event.detail;
    if (typeof detail === 'string') { try { detail = JSON.parse(detail); } catch { return; } }
    if (!detail || typeof detail !== 'object') return;
    chrome.runtime.sendMessage({
      target: 'background', type: 'tool:progress', dispatchId,
      progress: detail.progress, total: detail.total, message: detail.message,
    }).catch(() => {});
  };
  listeners.set(dispatchId, listener);
  document.addEventListener(`opentabs:progress:${dispatchId}`, listener);
  return true;
}

// ISOLATED: removes a dispatch's progress relay.
export function removeProgressRelay(dispatchId) {
  const listeners = globalThis.__opentabsProgress;
  const listener = listeners?.get(dispatchId);
  if (listener) {
    document.removeEventListener(`opentabs:progress:${dispatchId}`, listener);
    listeners.delete(dispatchId);
  }
  return true;
}

// MAIN: `isReady()` of one adapter, false when absent, throwing or slower than timeoutMs.
export async function probeReady(pluginName, timeoutMs) {
  const adapter = globalThis.__openTabs?.adapters?.[pluginName];
  if (!adapter || typeof adapter.isReady !== 'function') return false;
  try {
    return await Promise.race([
      Promise.resolve(adapter.isReady()).then((v) => v === true),
      new Promise((resolve) => setTimeout(() => resolve(false), timeoutMs)),
    ]);
  } catch {
    return false;
  }
}

// MAIN: tears down and removes one adapter (plugin.uninstall / plugin no longer in sync.full).
export function removeAdapter(pluginName) {
  const ot = globalThis.__openTabs;
  const adapter = ot?.adapters?.[pluginName];
  if (!adapter) return false;
  try { if (typeof adapter.teardown === 'function') adapter.teardown(); } catch (e) { console.warn('[OpenTabs] teardown failed', e); }
  if (!Reflect.deleteProperty(ot.adapters, pluginName)) {
    const adapters = {};
    for (const key of Object.keys(ot.adapters)) if (key !== pluginName) adapters[key] = ot.adapters[key];
    const fresh = {};
    for (const key of Object.getOwnPropertyNames(ot)) {
      if (key === 'adapters') continue;
      const desc = Object.getOwnPropertyDescriptor(ot, key);
      if (desc) Object.defineProperty(fresh, key, desc);
    }
    fresh.adapters = adapters;
    globalThis.__openTabs = fresh;
  }
  return true;
}

// MAIN: runs one tool of one adapter (protocol §3.7, extension side).  Returns
// {ok:true, value} or {error:{code, message, data?}}; never throws, so the background can map
// the outcome to a JSON-RPC reply.
export async function runTool(pluginName, toolName, input, dispatchId, readyTimeoutMs) {
  console.warn(`[OpenTabs] running ${pluginName}/${toolName} (dispatch ${dispatchId})`);
  const adapter = globalThis.__openTabs?.adapters?.[pluginName];
  if (!adapter) return { error: { code: -32002, message: `Plugin "${pluginName}" is not ready (state: unavailable): adapter not injected` } };
  if (!Object.isFrozen(adapter)) return { error: { code: -32002, message: `Plugin "${pluginName}" is not ready (state: unavailable): adapter is not sealed` } };
  let ready = false;
  try {
    ready = await Promise.race([
      Promise.resolve(adapter.isReady()).then((v) => v === true),
      new Promise((resolve) => setTimeout(() => resolve(false), readyTimeoutMs)),
    ]);
  } catch {
    ready = false;
  }
  if (!ready) return { error: { code: -32002, message: `Plugin "${pluginName}" is not ready (state: unavailable)` } };
  const tool = Array.isArray(adapter.tools) ? adapter.tools.find((t) => t && t.name === toolName) : undefined;
  if (!tool || typeof tool.handle !== 'function') {
    return { error: { code: -32603, message: `Tool "${toolName}" not found in plugin "${pluginName}"` } };
  }
  const reportProgress = (opts = {}) => {
    const detail = JSON.stringify({
      dispatchId,
      progress: typeof opts.progress === 'number' ? opts.progress : undefined,
      total: typeof opts.total === 'number' ? opts.total : undefined,
      message: typeof opts.message === 'string' ? opts.message : undefined,
    });
    document.dispatchEvent(new CustomEvent(`opentabs:progress:${dispatchId}`, { detail }));
  };
  try {
    const value = await tool.handle(input, { reportProgress });
    // Round-trip through JSON so only plain data crosses back (executeScript structured-clones).
    return { ok: true, value: value === undefined ? null : JSON.parse(JSON.stringify(value)) };
  } catch (err) {
    const message = err && typeof err.message === 'string' ? err.message : String(err);
    const error = { code: -32603, message };
    if (err && typeof err.code === 'string') {
      const data = { code: err.code };
      if (typeof err.retryable === 'boolean') data.retryable = err.retryable;
      if (typeof err.retryAfterMs === 'number') data.retryAfterMs = err.retryAfterMs;
      if (typeof err.category === 'string') data.category = err.category;
      error.data = data;
    }
    return { error };
  }
}
