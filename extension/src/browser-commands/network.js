// Network capture (requests, responses with text bodies, WebSocket frames, console), request
// interception (Fetch domain) and throttling, all through CDP on the tab.  Each feature holds
// the debugger session while it is on and releases it when turned off, so the infobar goes
// away (after the idle period) as soon as nothing needs it.  Buffers are bounded; sensitive
// header values are redacted before they are stored.

import { int, str, num, bool, tabId as requireTabId, invalid } from './params.js';
import { hold, release, holds, send, onEvent, onDetached } from './debugger.js';
import { lightRequests, lightRequest, lightConsole } from './light-capture.js';

const MAX_BODY_CHARS = 100_000;
const MAX_CONSOLE_TEXT = 5_000;
const MAX_FRAME_CHARS = 20_000;
const SENSITIVE_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'x-auth-token', 'x-csrf-token']);
const TEXT_MIME = /^(text\/|application\/(json|javascript|ecmascript|xml|xhtml\+xml|x-www-form-urlencoded|graphql|ld\+json|.*\+json|.*\+xml))/i;

const captures = new Map(); // tabId -> capture state
const intercepts = new Map(); // tabId -> {patterns, paused: Map}

const redact = (headers) => {
  const out = {};
  for (const [k, v] of Object.entries(headers ?? {})) out[k] = SENSITIVE_HEADERS.has(k.toLowerCase()) ? '[redacted]' : String(v);
  return out;
};

const clip = (s, max) => (s.length > max ? `${s.slice(0, max)}[... truncated: ${max} of ${s.length} characters]` : s);

function remoteObjectText(o) {
  if (!o) return '';
  if (o.type === 'string') return o.value;
  if ('value' in o) return typeof o.value === 'object' ? JSON.stringify(o.value) : String(o.value);
  if (o.unserializableValue) return o.unserializableValue;
  if (o.preview?.properties) {
    const props = o.preview.properties.map((p) => `${p.name}: ${p.value}`).join(', ');
    return o.subtype === 'array' ? `[${props}]` : `{${props}}`;
  }
  return o.description ?? o.type;
}

function pushBounded(list, item, max) {
  list.push(item);
  if (list.length > max) list.splice(0, list.length - max);
}

function captureListener(tabId, cap) {
  return (method, p) => {
    switch (method) {
      case 'Network.requestWillBeSent': {
        if (cap.urlFilter && !p.request.url.includes(cap.urlFilter)) return;
        const prior = cap.requests.get(p.requestId);
        if (prior && p.redirectResponse) {
          prior.status = p.redirectResponse.status;
          prior.statusText = p.redirectResponse.statusText;
          prior.responseHeaders = redact(p.redirectResponse.headers);
          prior.redirectURL = p.request.url;
          cap.requests.delete(p.requestId);
          cap.requests.set(`${p.requestId}:redirect:${cap.seq++}`, prior);
        }
        const entry = {
          requestId: p.requestId, url: p.request.url, method: p.request.method, type: p.type,
          requestHeaders: redact(p.request.headers), timestamp: Math.round((p.wallTime ?? Date.now() / 1000) * 1000),
          startMonotonic: p.timestamp,
        };
        if (typeof p.request.postData === 'string') entry.requestBody = clip(p.request.postData, MAX_BODY_CHARS);
        cap.requests.set(p.requestId, entry);
        while (cap.requests.size > cap.maxRequests) cap.requests.delete(cap.requests.keys().next().value);
        return;
      }
      case 'Network.responseReceived': {
        const e = cap.requests.get(p.requestId);
        if (!e) return;
        e.status = p.response.status;
        e.statusText = p.response.statusText;
        e.responseHeaders = redact(p.response.headers);
        e.mimeType = p.response.mimeType;
        e.protocol = p.response.protocol;
        e.remoteAddress = p.response.remoteIPAddress ? `${p.response.remoteIPAddress}:${p.response.remotePort}` : undefined;
        return;
      }
      case 'Network.loadingFinished': {
        const e = cap.requests.get(p.requestId);
        if (!e) return;
        e.encodedDataLength = p.encodedDataLength;
        e.durationMs = Math.round((p.timestamp - e.startMonotonic) * 1000);
        if (e.mimeType && TEXT_MIME.test(e.mimeType)) {
          send(tabId, 'Network.getResponseBody', { requestId: p.requestId }).then((b) => {
            e.responseBody = clip(b.base64Encoded ? atob(b.body) : b.body, MAX_BODY_CHARS);
          }, () => { /* body evicted or unavailable */ });
        }
        return;
      }
      case 'Network.loadingFailed': {
        const e = cap.requests.get(p.requestId);
        if (!e) return;
        e.failed = true;
        e.errorText = p.errorText;
        e.durationMs = Math.round((p.timestamp - e.startMonotonic) * 1000);
        return;
      }
      case 'Network.webSocketCreated':
        cap.sockets.set(p.requestId, p.url);
        return;
      case 'Network.webSocketFrameSent':
      case 'Network.webSocketFrameReceived':
        pushBounded(cap.frames, {
          url: cap.sockets.get(p.requestId) ?? '', requestId: p.requestId,
          direction: method.endsWith('Sent') ? 'sent' : 'received', opcode: p.response.opcode,
          data: clip(p.response.payloadData ?? '', MAX_FRAME_CHARS), timestamp: Date.now(),
        }, cap.maxWsFrames);
        return;
      case 'Runtime.consoleAPICalled':
        pushBounded(cap.console, {
          level: p.type === 'warning' ? 'warn' : p.type, text: clip((p.args ?? []).map(remoteObjectText).join(' '), MAX_CONSOLE_TEXT),
          timestamp: Math.round(p.timestamp), url: p.stackTrace?.callFrames?.[0]?.url, line: p.stackTrace?.callFrames?.[0]?.lineNumber,
        }, cap.maxConsoleLogs);
        return;
      case 'Runtime.exceptionThrown': {
        const d = p.exceptionDetails ?? {};
        pushBounded(cap.console, {
          level: 'error', text: clip(d.exception?.description ?? d.text ?? 'Uncaught exception', MAX_CONSOLE_TEXT),
          timestamp: Math.round(p.timestamp), url: d.url, line: d.lineNumber, exception: true,
        }, cap.maxConsoleLogs);
        return;
      }
      default:
    }
  };
}

function requireCapture(tabId) {
  const cap = captures.get(tabId);
  if (!cap) throw invalid(`Network capture is not active on tab ${tabId}: call browser_enable_network_capture first`);
  return cap;
}

const publicRequest = ({ startMonotonic, ...rest }) => rest;

async function enableCapture(params) {
  const tabId = requireTabId(params);
  if (captures.has(tabId)) throw invalid(`Network capture is already active on tab ${tabId}; call browser_disable_network_capture first to restart it`);
  const cap = {
    maxRequests: Math.min(int(params, 'maxRequests', { required: false, min: 1, fallback: 100 }), 5000),
    maxConsoleLogs: Math.min(int(params, 'maxConsoleLogs', { required: false, min: 1, fallback: 500 }), 10_000),
    maxWsFrames: Math.min(int(params, 'maxWsFrames', { required: false, min: 1, fallback: 200 }), 10_000),
    urlFilter: str(params, 'urlFilter', { required: false, max: 2000 }),
    requests: new Map(), console: [], frames: [], sockets: new Map(), seq: 0, startedAt: Date.now(),
  };
  await hold(tabId, 'capture');
  captures.set(tabId, cap);
  cap.unlisten = onEvent(tabId, captureListener(tabId, cap));
  cap.unDetach = onDetached(tabId, (reason) => { captures.delete(tabId); cap.detachReason = reason; });
  try {
    await send(tabId, 'Network.enable', { maxPostDataSize: 65_536 });
    await send(tabId, 'Runtime.enable');
  } catch (err) {
    captures.delete(tabId);
    cap.unlisten();
    release(tabId, 'capture');
    throw err;
  }
  return { ok: true, tabId, maxRequests: cap.maxRequests, maxConsoleLogs: cap.maxConsoleLogs, maxWsFrames: cap.maxWsFrames, urlFilter: cap.urlFilter ?? null };
}

async function disableCapture(params) {
  const tabId = requireTabId(params);
  const cap = requireCapture(tabId);
  captures.delete(tabId);
  cap.unlisten?.();
  cap.unDetach?.();
  await send(tabId, 'Runtime.disable').catch(() => {});
  if (!holds(tabId, 'throttle')) await send(tabId, 'Network.disable').catch(() => {});
  release(tabId, 'capture');
  return { ok: true, tabId, requestsDropped: cap.requests.size };
}

function pausedList(tabId) {
  const ic = intercepts.get(tabId);
  return ic ? [...ic.paused.values()] : undefined;
}

async function intercept(params) {
  const tabId = requireTabId(params);
  const raw = params?.urlPatterns ?? ['*'];
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > 50 || !raw.every((p) => typeof p === 'string' && p.length > 0 && p.length <= 2000)) {
    throw invalid('Invalid urlPatterns: expected 1-50 non-empty strings');
  }
  await hold(tabId, 'intercept');
  let ic = intercepts.get(tabId);
  if (!ic) {
    ic = { paused: new Map() };
    intercepts.set(tabId, ic);
    ic.unlisten = onEvent(tabId, (method, p) => {
      if (method !== 'Fetch.requestPaused') return;
      ic.paused.set(p.requestId, {
        requestId: p.requestId, url: p.request.url, method: p.request.method, resourceType: p.resourceType,
        headers: redact(p.request.headers), pausedAt: Date.now(),
      });
      while (ic.paused.size > 500) ic.paused.delete(ic.paused.keys().next().value);
    });
    ic.unDetach = onDetached(tabId, () => intercepts.delete(tabId));
  }
  ic.patterns = raw;
  await send(tabId, 'Fetch.enable', { patterns: raw.map((urlPattern) => ({ urlPattern, requestStage: 'Request' })) });
  return { ok: true, tabId, urlPatterns: raw };
}

function requirePaused(tabId, requestId) {
  const ic = intercepts.get(tabId);
  if (!ic) throw invalid(`Interception is not active on tab ${tabId}: call browser_intercept_requests first`);
  if (!ic.paused.has(requestId)) throw invalid(`No paused request ${requestId} on tab ${tabId}`);
  return ic;
}

const utf8Base64 = (text) => {
  const bytes = new TextEncoder().encode(text);
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
};

const PRESETS = {
  offline: { offline: true, latency: 0, downloadThroughput: 0, uploadThroughput: 0 },
  'slow-3g': { offline: false, latency: 2000, downloadThroughput: 50_000, uploadThroughput: 50_000 },
  // The OpenTabs extension's presets ('3g', '4g', 'wifi' are the wire names, PROTOCOL.md).
  '3g': { offline: false, latency: 100, downloadThroughput: 750_000, uploadThroughput: 250_000 },
  '4g': { offline: false, latency: 20, downloadThroughput: 4_000_000, uploadThroughput: 3_000_000 },
  wifi: { offline: false, latency: 2, downloadThroughput: 30_000_000, uploadThroughput: 15_000_000 },
  // Older name, still accepted: Chrome DevTools' "Fast 3G".  The server sends it as explicit values.
  'fast-3g': { offline: false, latency: 563, downloadThroughput: 180_000, uploadThroughput: 84_375 },
};

export const commands = {
  'browser.enableNetworkCapture': enableCapture,
  'browser.disableNetworkCapture': disableCapture,

  // While capture is off, the page's always-on record (source "light": no headers or bodies).
  'browser.getNetworkRequests': async (params) => {
    const tabId = requireTabId(params);
    const paused = pausedList(tabId);
    const cap = captures.get(tabId);
    const clear = bool(params, 'clear', false);
    let out;
    if (cap) {
      out = { requests: [...cap.requests.values()].map(publicRequest), source: 'debugger' };
      if (clear) cap.requests.clear();
    } else {
      const record = await lightRequests(tabId, { clear });
      out = { requests: record?.requests ?? [], source: 'light' };
      if (record?.dropped) out.dropped = record.dropped;
      if (!record) out.note = `No request record in tab ${tabId} (the page was loaded before the extension, or is not http(s)); reload it, or call browser_enable_network_capture`;
    }
    return paused ? { ...out, pausedRequests: paused } : out;
  },

  // Ours: one request in full (headers, bodies when captured), by the id from the list.
  'browser.getNetworkRequest': async (params) => {
    const tabId = requireTabId(params);
    const requestId = str(params, 'requestId', { max: 200 });
    const cap = captures.get(tabId);
    const captured = cap && (cap.requests.get(requestId) ?? [...cap.requests.values()].find((r) => r.requestId === requestId));
    if (captured) return { request: publicRequest(captured), source: 'debugger' };
    const light = await lightRequest(tabId, requestId);
    if (light) return { request: light, source: 'light' };
    const paused = intercepts.get(tabId)?.paused.get(requestId);
    if (paused) return { request: paused, source: 'paused' };
    throw invalid(`No request ${requestId} recorded for tab ${tabId} (ids come from browser_get_network_requests)`);
  },

  'browser.getWebSocketFrames': async (params) => {
    const cap = requireCapture(requireTabId(params));
    const frames = [...cap.frames];
    if (bool(params, 'clear', false)) cap.frames.length = 0;
    return { frames };
  },

  'browser.getConsoleLogs': async (params) => {
    const tabId = requireTabId(params);
    const cap = captures.get(tabId);
    const level = str(params, 'level', { required: false, max: 10 });
    const clear = bool(params, 'clear', false);
    // 'all' (the OpenTabs default) and no level both mean every message.
    const pick = (list) => (level && level !== 'all' ? list.filter((l) => l.level === level) : [...list]);
    if (cap) {
      const logs = pick(cap.console);
      if (clear) cap.console.length = 0;
      return { logs, source: 'debugger' };
    }
    // Capture off: the page's own always-on ring (console-hook.js).
    const ring = await lightConsole(tabId, { clear });
    if (!ring) return { logs: [], source: 'light', note: `No console record in tab ${tabId} (the page was loaded before the extension, or is not http(s)); reload it, or call browser_enable_network_capture` };
    return { logs: pick(ring), source: 'light' };
  },

  'browser.clearConsoleLogs': async (params) => {
    const tabId = requireTabId(params);
    const cap = captures.get(tabId);
    let cleared = 0;
    if (cap) {
      cleared = cap.console.length;
      cap.console.length = 0;
    }
    const ring = await lightConsole(tabId, { clear: true });
    if (!cap) cleared = ring?.length ?? 0;
    return { ok: true, cleared };
  },

  'browser.interceptRequests': intercept,

  'browser.fulfillRequest': async (params) => {
    const tabId = requireTabId(params);
    const requestId = str(params, 'requestId', { max: 200 });
    const status = int(params, 'status', { min: 100 });
    if (status > 599) throw invalid('Invalid status: expected 100-599');
    const headers = params?.headers ?? {};
    if (typeof headers !== 'object' || Array.isArray(headers) || !Object.values(headers).every((v) => typeof v === 'string')) throw invalid('Invalid headers: expected an object of strings');
    const body = str(params, 'body', { required: false, max: 10_000_000, fallback: '' });
    const ic = requirePaused(tabId, requestId);
    await send(tabId, 'Fetch.fulfillRequest', {
      requestId, responseCode: status,
      responseHeaders: Object.entries(headers).map(([name, value]) => ({ name, value })), body: utf8Base64(body),
    });
    ic.paused.delete(requestId);
    return { ok: true, requestId, status };
  },

  'browser.failRequest': async (params) => {
    const tabId = requireTabId(params);
    const requestId = str(params, 'requestId', { max: 200 });
    const errorReason = str(params, 'errorReason', { required: false, max: 40, fallback: 'Failed' });
    const ic = requirePaused(tabId, requestId);
    await send(tabId, 'Fetch.failRequest', { requestId, errorReason });
    ic.paused.delete(requestId);
    return { ok: true, requestId, errorReason };
  },

  'browser.stopIntercepting': async (params) => {
    const tabId = requireTabId(params);
    const ic = intercepts.get(tabId);
    if (!ic) return { ok: true, tabId, wasActive: false };
    intercepts.delete(tabId);
    ic.unlisten?.();
    ic.unDetach?.();
    const stillPaused = [...ic.paused.keys()];
    for (const requestId of stillPaused) await send(tabId, 'Fetch.continueRequest', { requestId }).catch(() => {});
    await send(tabId, 'Fetch.disable').catch(() => {});
    release(tabId, 'intercept');
    return { ok: true, tabId, wasActive: true, continued: stillPaused.length };
  },

  'browser.throttleNetwork': async (params) => {
    const tabId = requireTabId(params);
    const preset = str(params, 'preset', { required: false, max: 20 });
    if (preset !== undefined && !PRESETS[preset]) throw invalid(`Invalid preset '${preset}'`);
    const conditions = { ...(PRESETS[preset] ?? { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 }) };
    for (const k of ['latency', 'downloadThroughput', 'uploadThroughput']) {
      const v = num(params, k, { required: false });
      if (v !== undefined) conditions[k] = v;
    }
    if (preset === undefined && ['latency', 'downloadThroughput', 'uploadThroughput'].every((k) => params?.[k] === undefined)) {
      throw invalid('Give a preset or at least one of latency, downloadThroughput, uploadThroughput');
    }
    await hold(tabId, 'throttle');
    await send(tabId, 'Network.enable');
    await send(tabId, 'Network.emulateNetworkConditions', conditions);
    return { ok: true, tabId, conditions };
  },

  'browser.clearNetworkThrottle': async (params) => {
    const tabId = requireTabId(params);
    if (!holds(tabId, 'throttle')) return { ok: true, tabId, wasThrottled: false };
    await send(tabId, 'Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    if (!captures.has(tabId)) await send(tabId, 'Network.disable').catch(() => {});
    release(tabId, 'throttle');
    return { ok: true, tabId, wasThrottled: true };
  },
};

