// Windows, downloads and desktop notifications (plain chrome.* APIs, no CDP).  New windows do
// not take focus unless asked; only browser_update_window with focused:true raises one.

import { int, str, bool, httpUrl, invalid } from './params.js';

const STATES = new Set(['normal', 'minimized', 'maximized', 'fullscreen']);
const DOWNLOAD_STATES = new Set(['in_progress', 'interrupted', 'complete']);
// A plain blue square: chrome.notifications requires an icon and the caller may give none.
const DEFAULT_ICON = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAYAAABzenr0AAAAL0lEQVR4nO3OIQEAAAgDMMqQjPiEgBg3E/Ornr2kEhAQEBAQEBAQEBAQEBAQSAceAvXIiAZ38xMAAAAASUVORK5CYII=';
const NOTIFICATION_URLS_KEY = 'opentabsNotificationUrls';

const WINDOW_CLOSE_WAIT_MS = 5000;

// Resolves done with true when windows.onRemoved reports windowId, or false after timeoutMs.
function windowRemoved(windowId, timeoutMs) {
  let listener, timer;
  const cancel = () => { chrome.windows.onRemoved.removeListener(listener); clearTimeout(timer); };
  const done = new Promise((resolve) => {
    listener = (id) => { if (id === windowId) { cancel(); resolve(true); } };
    timer = setTimeout(() => { cancel(); resolve(false); }, timeoutMs);
    chrome.windows.onRemoved.addListener(listener);
  });
  return { done, cancel };
}

const windowSummary = (w) => ({
  id: w.id, state: w.state, type: w.type, focused: w.focused, incognito: w.incognito,
  left: w.left, top: w.top, width: w.width, height: w.height,
  tabs: (w.tabs ?? []).map((t) => ({ id: t.id, title: t.title ?? '', url: t.url || t.pendingUrl || '', active: t.active })),
});

const downloadSummary = (d) => ({
  id: d.id, url: d.url, finalUrl: d.finalUrl, filename: d.filename, state: d.state, mime: d.mime,
  bytesReceived: d.bytesReceived, totalBytes: d.totalBytes, fileSize: d.fileSize, error: d.error ?? null,
  startTime: d.startTime, endTime: d.endTime ?? null, exists: d.exists, paused: d.paused,
});

function bounds(params, out) {
  for (const k of ['left', 'top']) {
    const v = params?.[k];
    if (v !== undefined) { if (!Number.isInteger(v)) throw invalid(`Invalid ${k}`); out[k] = v; }
  }
  for (const k of ['width', 'height']) {
    const v = params?.[k];
    if (v !== undefined) { if (!Number.isInteger(v) || v < 1) throw invalid(`Invalid ${k}`); out[k] = v; }
  }
  const state = str(params, 'state', { required: false, max: 20 });
  if (state !== undefined) { if (!STATES.has(state)) throw invalid(`Invalid state '${state}'`); out.state = state; }
  return out;
}

chrome.notifications?.onClicked.addListener(async (notificationId) => {
  const stored = (await chrome.storage.session.get(NOTIFICATION_URLS_KEY))[NOTIFICATION_URLS_KEY] ?? {};
  const url = stored[notificationId];
  if (url) {
    await chrome.tabs.create({ url });
    delete stored[notificationId];
    await chrome.storage.session.set({ [NOTIFICATION_URLS_KEY]: stored });
  }
  chrome.notifications.clear(notificationId);
});

export const commands = {
  'browser.listWindows': async () => ({ windows: (await chrome.windows.getAll({ populate: true })).map(windowSummary) }),

  'browser.createWindow': async (params) => {
    const create = bounds(params, {});
    const url = httpUrl(params, 'url', { required: false });
    if (url !== undefined) create.url = url;
    create.incognito = bool(params, 'incognito', false);
    create.focused = bool(params, 'focused', false);
    // Chrome rejects explicit bounds together with a non-normal state.
    if (create.state && create.state !== 'normal') for (const k of ['left', 'top', 'width', 'height']) delete create[k];
    const w = await chrome.windows.create(create);
    return { window: windowSummary(w) };
  },

  'browser.updateWindow': async (params) => {
    const windowId = int(params, 'windowId', { min: 1 });
    const update = bounds(params, {});
    const focused = bool(params, 'focused', undefined);
    if (focused !== undefined) update.focused = focused;
    if (!Object.keys(update).length) throw invalid('Nothing to change: give state, bounds or focused');
    const w = await chrome.windows.update(windowId, update);
    return { window: windowSummary({ ...w, tabs: (await chrome.tabs.query({ windowId })) }) };
  },

  'browser.closeWindow': async (params) => {
    const windowId = int(params, 'windowId', { min: 1 });
    // chrome.windows.remove resolves before the window has left windows.getAll; answer only
    // once it has, so a caller that lists windows next does not see the closed one.
    const removed = windowRemoved(windowId, WINDOW_CLOSE_WAIT_MS);
    try {
      await chrome.windows.remove(windowId);
    } catch (e) {
      removed.cancel();
      throw e;
    }
    if (!(await removed.done)) {
      const still = await chrome.windows.get(windowId).then(() => true, () => false);
      if (still) throw new Error(`Window ${windowId} was asked to close but is still open after ${WINDOW_CLOSE_WAIT_MS} ms (a beforeunload prompt may be holding it)`);
    }
    return { ok: true, windowId };
  },

  'browser.downloadFile': async (params) => {
    const options = { url: httpUrl(params), saveAs: bool(params, 'saveAs', false) };
    const filename = str(params, 'filename', { required: false, max: 1000 });
    if (filename !== undefined) {
      if (filename.startsWith('/') || filename.split(/[\\/]/).includes('..')) throw invalid('filename must be relative to the downloads folder, without ..');
      options.filename = filename;
    }
    const downloadId = await chrome.downloads.download(options);
    return { downloadId };
  },

  'browser.listDownloads': async (params) => {
    const query = { orderBy: ['-startTime'], limit: Math.min(int(params, 'limit', { required: false, min: 1, fallback: 20 }), 1000) };
    const text = str(params, 'query', { required: false, max: 1000 });
    if (text) query.query = [text];
    const state = str(params, 'state', { required: false, max: 20 });
    if (state !== undefined) { if (!DOWNLOAD_STATES.has(state)) throw invalid(`Invalid state '${state}'`); query.state = state; }
    return { downloads: (await chrome.downloads.search(query)).map(downloadSummary) };
  },

  'browser.getDownloadStatus': async (params) => {
    const id = int(params, 'downloadId');
    const [d] = await chrome.downloads.search({ id });
    if (!d) throw invalid(`No download with id ${id}`);
    return downloadSummary(d);
  },

  'browser.showNotification': async (params) => {
    const title = str(params, 'title', { max: 200 });
    const message = str(params, 'message', { max: 2000 });
    const url = httpUrl(params, 'url', { required: false });
    const options = {
      type: 'basic', title, message, iconUrl: str(params, 'iconUrl', { required: false, max: 8192 }) ?? DEFAULT_ICON,
      requireInteraction: bool(params, 'requireInteraction', false),
    };
    const contextMessage = str(params, 'contextMessage', { required: false, max: 500 });
    if (contextMessage !== undefined) options.contextMessage = contextMessage;
    const notificationId = await chrome.notifications.create(`opentabs-${crypto.randomUUID()}`, options);
    if (url) {
      const stored = (await chrome.storage.session.get(NOTIFICATION_URLS_KEY))[NOTIFICATION_URLS_KEY] ?? {};
      stored[notificationId] = url;
      await chrome.storage.session.set({ [NOTIFICATION_URLS_KEY]: stored });
    }
    return { ok: true, notificationId };
  },
};
