// The background's memory that must outlive a suspended service worker: the plugin store from
// the last `sync.full`, the server's config state for the side panel, tab states last reported,
// the connection status, pending confirmations and recent tool activity.  Everything lives in
// chrome.storage.session (cleared when the browser exits) and is mirrored in memory; the side
// panel renders straight from storage and follows chrome.storage.onChanged.  The worker is
// single-threaded, so the in-memory copy is authoritative once `ready` has resolved.

const KEYS = ['plugins', 'serverState', 'tabStates', 'connection', 'confirmations', 'notices', 'activity', 'swBoot', 'runningHash'];
const MAX_ACTIVITY = 25;
const MAX_NOTICES = 10;

export const store = {
  plugins: new Map(),     // name -> normalised plugin (shared/plugin-payload.js)
  serverState: null,      // last sync.full / plugins.changed payload (config state)
  tabStates: {},          // plugin -> {state, tabs} as last sent to the server
  connection: { state: 'connecting', detail: '' },
  confirmations: [],      // pending confirmation.request entries
  notices: [],            // what changed without the side panel (confirmation.alwaysAllowed), newest first
  activity: [],           // recent tool.invocationStart/End, newest first
  swBoot: { count: 0, startedAt: 0 },
  runningHash: null,      // .extension-hash as it was when this extension (re)loaded
  ready: null,
};

store.ready = (async () => {
  const saved = await chrome.storage.session.get(KEYS);
  for (const p of saved.plugins ?? []) store.plugins.set(p.name, p);
  store.serverState = saved.serverState ?? null;
  store.tabStates = saved.tabStates ?? {};
  store.connection = saved.connection ?? store.connection;
  store.confirmations = saved.confirmations ?? [];
  store.notices = saved.notices ?? [];
  store.activity = saved.activity ?? [];
  // Counts worker starts so tests and diagnostics can see that suspension really happened.
  store.swBoot = { count: (saved.swBoot?.count ?? 0) + 1, startedAt: Date.now() };
  // Session storage is cleared when the extension reloads, so the hash read on the first
  // boot after a reload is the one of the code that is running.  opentabs rewrites the files
  // (and .extension-hash) when it is upgraded; the side panel then compares this with the
  // server's extensionHash and offers a reload.
  store.runningHash = saved.runningHash ?? await readBundleHash();
  await chrome.storage.session.set({ swBoot: store.swBoot, runningHash: store.runningHash });
})();

async function readBundleHash() {
  try {
    const res = await fetch(chrome.runtime.getURL('.extension-hash'));
    if (!res.ok) return null;
    const text = (await res.text()).trim();
    return /^[0-9a-f]{16}$/.test(text) ? text : null;
  } catch {
    return null;
  }
}

export async function savePlugins() {
  await chrome.storage.session.set({ plugins: [...store.plugins.values()] });
}

export async function saveServerState(state) {
  store.serverState = state;
  await chrome.storage.session.set({ serverState: state });
}

export async function saveTabStates() {
  await chrome.storage.session.set({ tabStates: store.tabStates });
}

export async function saveConnection(connection) {
  store.connection = connection;
  await chrome.storage.session.set({ connection });
}

export async function saveConfirmations() {
  await chrome.storage.session.set({ confirmations: store.confirmations });
  const count = store.confirmations.length;
  await chrome.action.setBadgeText({ text: count ? String(count) : '' }).catch(() => {});
}

// A notice for the person (newest first, the last MAX_NOTICES), until they dismiss it.
export async function addNotice(notice) {
  store.notices.unshift({ id: `${Date.now()}-${Math.random().toString(16).slice(2)}`, receivedAt: Date.now(), ...notice });
  store.notices.length = Math.min(store.notices.length, MAX_NOTICES);
  await chrome.storage.session.set({ notices: store.notices });
}

export async function dismissNotice(id) {
  store.notices = store.notices.filter((n) => n.id !== id);
  await chrome.storage.session.set({ notices: store.notices });
}

export async function recordActivityStart({ plugin, tool, ts }) {
  store.activity.unshift({ plugin, tool, startedAt: typeof ts === 'number' ? ts : Date.now(), status: 'running' });
  store.activity.length = Math.min(store.activity.length, MAX_ACTIVITY);
  await chrome.storage.session.set({ activity: store.activity });
}

export async function recordActivityEnd({ plugin, tool, durationMs, success }) {
  const entry = store.activity.find((a) => a.plugin === plugin && a.tool === tool && a.status === 'running');
  if (entry) {
    entry.status = success ? 'success' : 'error';
    entry.durationMs = typeof durationMs === 'number' ? durationMs : undefined;
  } else {
    store.activity.unshift({ plugin, tool, startedAt: Date.now(), status: success ? 'success' : 'error', durationMs });
    store.activity.length = Math.min(store.activity.length, MAX_ACTIVITY);
  }
  await chrome.storage.session.set({ activity: store.activity });
}
