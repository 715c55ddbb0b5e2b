// Cookies, history, bookmarks, recently closed sessions and per-origin site data (plain
// chrome.* APIs, no CDP, nothing activated).

import { int, num, str, bool, httpUrl, invalid } from './params.js';

const cookieOut = (c) => ({
  name: c.name, value: c.value, domain: c.domain, path: c.path, secure: c.secure, httpOnly: c.httpOnly,
  sameSite: c.sameSite, session: c.session, expirationDate: c.expirationDate ?? null, hostOnly: c.hostOnly,
});

function trimTree(node, depth, maxDepth) {
  const out = { id: node.id, title: node.title, parentId: node.parentId };
  if (node.url) out.url = node.url;
  if (node.children) {
    if (depth >= maxDepth) out.childCount = node.children.length;
    else out.children = node.children.map((c) => trimTree(c, depth + 1, maxDepth));
  }
  return out;
}

const sessionOut = (s) => {
  if (s.tab) return { type: 'tab', sessionId: s.tab.sessionId, closedAt: s.lastModified * 1000, title: s.tab.title, url: s.tab.url };
  return {
    type: 'window', sessionId: s.window.sessionId, closedAt: s.lastModified * 1000,
    tabs: (s.window.tabs ?? []).map((t) => ({ title: t.title, url: t.url })),
  };
};

// Wire shape (PROTOCOL.md): startTime/endTime are ISO date strings, as the OpenTabs server
// sends them; a number of ms since the epoch is still accepted.
function historyTime(params, name) {
  const v = params?.[name];
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v === 'number') return num(params, name);
  const text = str(params, name, { max: 100 });
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) throw invalid(`Invalid ${name} parameter: expected an ISO date string such as 2024-01-01T00:00:00Z`);
  return ms;
}

export const commands = {
  'browser.getCookies': async (params) => {
    const query = { url: httpUrl(params) };
    const name = str(params, 'name', { required: false, max: 4096 });
    if (name !== undefined) query.name = name;
    const cookies = await chrome.cookies.getAll(query);
    return { cookies: cookies.map(cookieOut) };
  },

  'browser.setCookie': async (params) => {
    const details = { url: httpUrl(params), name: str(params, 'name', { max: 4096 }), value: str(params, 'value', { max: 4096 }) };
    for (const k of ['domain', 'path']) {
      const v = str(params, k, { required: false, max: 4096 });
      if (v !== undefined) details[k] = v;
    }
    for (const k of ['secure', 'httpOnly']) {
      const v = bool(params, k, undefined);
      if (v !== undefined) details[k] = v;
    }
    const exp = num(params, 'expirationDate', { required: false });
    if (exp !== undefined) details.expirationDate = exp;
    const cookie = await chrome.cookies.set(details);
    if (!cookie) throw invalid(`The browser refused the cookie: ${chrome.runtime.lastError?.message ?? 'check domain, path and secure against the url'}`);
    return { cookie: cookieOut(cookie) };
  },

  'browser.deleteCookies': async (params) => {
    const url = httpUrl(params);
    const name = str(params, 'name', { max: 4096 });
    const removed = await chrome.cookies.remove({ url, name });
    return { ok: true, removed: Boolean(removed), name };
  },

  'browser.searchHistory': async (params) => {
    const query = { text: str(params, 'query', { max: 1000 }), maxResults: Math.min(int(params, 'maxResults', { required: false, min: 1, fallback: 100 }), 10_000) };
    const startTime = historyTime(params, 'startTime');
    const endTime = historyTime(params, 'endTime');
    query.startTime = startTime ?? 0;
    if (endTime !== undefined) query.endTime = endTime;
    const items = await chrome.history.search(query);
    return {
      items: items.map((h) => ({ id: h.id, url: h.url, title: h.title, lastVisitTime: h.lastVisitTime, visitCount: h.visitCount, typedCount: h.typedCount })),
    };
  },

  'browser.getVisits': async (params) => {
    const url = str(params, 'url', { max: 8192 });
    const visits = await chrome.history.getVisits({ url });
    return { url, visits: visits.slice(-1000).map((v) => ({ visitId: v.visitId, visitTime: v.visitTime, transition: v.transition, referringVisitId: v.referringVisitId })) };
  },

  'browser.searchBookmarks': async (params) => {
    const results = await chrome.bookmarks.search(str(params, 'query', { max: 1000 }));
    return { bookmarks: results.slice(0, 1000).map((b) => ({ id: b.id, title: b.title, url: b.url ?? null, parentId: b.parentId, dateAdded: b.dateAdded })) };
  },

  'browser.createBookmark': async (params) => {
    const details = { title: str(params, 'title', { max: 1000 }), url: httpUrl(params) };
    const parentId = str(params, 'parentId', { required: false, max: 100 });
    if (parentId !== undefined) details.parentId = parentId;
    const b = await chrome.bookmarks.create(details);
    return { bookmark: { id: b.id, title: b.title, url: b.url, parentId: b.parentId } };
  },

  'browser.listBookmarkTree': async (params) => {
    const parentId = str(params, 'parentId', { required: false, max: 100 });
    const maxDepth = Math.min(int(params, 'maxDepth', { required: false, min: 1, fallback: 5 }), 50);
    const roots = parentId === undefined ? await chrome.bookmarks.getTree() : await chrome.bookmarks.getSubTree(parentId);
    return { tree: roots.map((r) => trimTree(r, 0, maxDepth)) };
  },

  'browser.getRecentlyClosed': async (params) => {
    const maxResults = Math.min(int(params, 'maxResults', { required: false, min: 1, fallback: 10 }), 25);
    const sessions = await chrome.sessions.getRecentlyClosed({ maxResults });
    return { sessions: sessions.map(sessionOut) };
  },

  'browser.restoreSession': async (params) => {
    const restored = await chrome.sessions.restore(str(params, 'sessionId', { max: 200 }));
    if (restored.tab) return { restored: 'tab', tabId: restored.tab.id, url: restored.tab.url, windowId: restored.tab.windowId };
    return { restored: 'window', windowId: restored.window?.id, tabs: (restored.window?.tabs ?? []).map((t) => ({ id: t.id, url: t.url })) };
  },

  'browser.clearSiteData': async (params) => {
    const origin = str(params, 'origin', { max: 2000 });
    let parsed;
    try { parsed = new URL(origin); } catch { throw invalid('Invalid origin: expected e.g. https://example.com'); }
    if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.origin !== origin.replace(/\/$/, '')) {
      throw invalid('Invalid origin: give scheme, host and optional port only, e.g. https://example.com');
    }
    const what = {};
    const map = { cookies: 'cookies', localStorage: 'localStorage', cache: 'cacheStorage', indexedDB: 'indexedDB', serviceWorkers: 'serviceWorkers' };
    for (const [param, type] of Object.entries(map)) if (bool(params, param, true)) what[type] = true;
    if (what.cacheStorage) what.cache = true;
    await chrome.browsingData.remove({ origins: [parsed.origin] }, what);
    return { ok: true, origin: parsed.origin, cleared: Object.keys(what) };
  },
};
