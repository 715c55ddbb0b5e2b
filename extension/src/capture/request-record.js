// Always-on light request record (see browser-commands/light-capture.js).  Runs in every
// top-level http(s) page's MAIN world at document_start, next to console-hook.js, and keeps
// summaries of the page's last MAX_ENTRIES requests in a ring inside the page, from the
// page's own Resource Timing entries (a buffered PerformanceObserver, so requests made before
// this script ran are included, starting with the document itself).
//
// Why not chrome.webRequest: with that permission's listeners, a tab that loaded while the
// extension was starting (a browser launched with start URLs, restored tabs) was seen to stay
// out of the extension's reach — chrome.tabs reported its URL as "" and scripting was refused —
// so plugins never became ready in it (e2e extension-lifecycle failed 2 of 2 runs; 2 of 6
// start tabs in a probe).  Resource Timing has no method, so fetch and XMLHttpRequest.open are
// wrapped (as console-hook.js wraps console) by functions that only note the method of the URL
// they are given and then call the original with the same this and arguments; the entry
// Resource Timing reports for that URL later takes the oldest noted method.  A document's
// method stays unknown ("-"): a page cannot tell whether it was the answer to a form POST.
// Chrome delivers a document's navigation entry twice (at document start, buffered, and again
// complete after load); the second delivery updates the first row.  Headers and bodies come
// from browser_enable_network_capture.
(() => {
  const KEY = Symbol.for('opentabs.requestRing');
  if (globalThis[KEY]) return;
  const MAX_ENTRIES = 500;
  const MAX_URL = 2048;
  // Ids carry a per-document prefix: an id read from one page never names a request of the
  // page that replaced it in the tab.
  const prefix = `r${Math.random().toString(36).slice(2, 6)}.`;
  const ring = [];
  let seq = 0;
  let dropped = 0;

  // Resource Timing initiator types in the resource-type names the other tools use (CDP's).
  const TYPES = {
    navigation: 'Document', iframe: 'Document', frame: 'Document', script: 'Script', link: 'Other',
    css: 'Other', img: 'Image', image: 'Image', input: 'Image', fetch: 'Fetch', xmlhttprequest: 'XHR',
    beacon: 'Ping', video: 'Media', audio: 'Media', track: 'TextTrack', object: 'Other', embed: 'Other',
    other: 'Other',
  };
  // Initiators whose requests are always GET; fetch, XHR and navigations may be anything.
  const GET_ONLY = new Set(['script', 'link', 'css', 'img', 'image', 'input', 'video', 'audio', 'track', 'iframe', 'frame', 'object', 'embed']);
  const ms = (v) => Math.max(0, Math.round(v));

  // Methods of fetch/XHR calls whose Resource Timing entry has not come yet, by absolute URL.
  const MAX_PENDING = 200;
  const pendingMethods = new Map();
  let pendingCount = 0;
  const apply = Reflect.apply;
  function noteMethod(method, url) {
    const absolute = new URL(String(url), location.href).href.slice(0, MAX_URL);
    if (pendingCount >= MAX_PENDING) {
      // Calls whose entries never came (blocked, still streaming): the oldest URL's go first.
      const [oldest, list] = pendingMethods.entries().next().value;
      pendingCount -= list.length;
      pendingMethods.delete(oldest);
    }
    const list = pendingMethods.get(absolute);
    if (list) list.push(String(method).toUpperCase().slice(0, 20));
    else pendingMethods.set(absolute, [String(method).toUpperCase().slice(0, 20)]);
    pendingCount += 1;
  }
  function takeMethod(url) {
    const list = pendingMethods.get(url);
    if (!list) return undefined;
    pendingCount -= 1;
    const method = list.shift();
    if (!list.length) pendingMethods.delete(url);
    return method;
  }
  const nativeFetch = globalThis.fetch;
  if (typeof nativeFetch === 'function') {
    // One declared parameter, as the native has (fetch.length is 1).
    globalThis.fetch = function fetch(input) {
      try {
        const init = arguments[1];
        const isRequest = typeof Request === 'function' && input instanceof Request;
        noteMethod(init?.method ?? (isRequest ? input.method : 'GET'), isRequest ? input.url : input);
      } catch { /* an unparsable URL: the native call reports it */ }
      return apply(nativeFetch, this, arguments);
    };
  }
  const nativeOpen = globalThis.XMLHttpRequest?.prototype.open;
  if (typeof nativeOpen === 'function') {
    globalThis.XMLHttpRequest.prototype.open = function open(method, url) {
      try { noteMethod(method, url); } catch { /* as above */ }
      return apply(nativeOpen, this, arguments);
    };
  }
  let documentEntry = null;
  const span = (from, to) => (from > 0 && to >= from ? ms(to - from) : undefined);

  function record(e) {
    const initiator = e.entryType === 'navigation' ? 'navigation' : e.initiatorType || 'other';
    let type = TYPES[initiator] ?? 'Other';
    if (initiator === 'link' || initiator === 'css') {
      if (/\.css(?:[?#]|$)/i.test(e.name)) type = 'Stylesheet';
      else if (/\.(?:woff2?|ttf|otf|eot)(?:[?#]|$)/i.test(e.name)) type = 'Font';
      else if (/\.(?:png|jpe?g|gif|webp|avif|svg|ico)(?:[?#]|$)/i.test(e.name)) type = 'Image';
    }
    const status = Number(e.responseStatus) || undefined; // 0: not exposed (cross-origin) or failed
    const entry = {
      requestId: `${prefix}${++seq}`,
      method: initiator === 'beacon' ? 'POST' : GET_ONLY.has(initiator) ? 'GET'
        : initiator === 'fetch' || initiator === 'xmlhttprequest' ? takeMethod(String(e.name).slice(0, MAX_URL)) : undefined,
      url: String(e.name).slice(0, MAX_URL),
      type,
      status,
      timestamp: Math.round(performance.timeOrigin + e.startTime),
      durationMs: e.responseEnd > 0 ? ms(e.responseEnd - e.startTime) : undefined,
      // transferSize is 0 for a cached or cross-origin response; encodedBodySize then says more.
      size: e.transferSize > 0 ? e.transferSize : e.encodedBodySize > 0 ? e.encodedBodySize : undefined,
      fromCache: e.transferSize === 0 && e.decodedBodySize > 0 ? true : undefined,
      protocol: e.nextHopProtocol || undefined,
      initiatorType: initiator,
      timing: {
        dnsMs: span(e.domainLookupStart, e.domainLookupEnd),
        connectMs: span(e.connectStart, e.connectEnd),
        tlsMs: span(e.secureConnectionStart, e.connectEnd),
        waitingMs: span(e.requestStart, e.responseStart),
        downloadMs: span(e.responseStart, e.responseEnd),
      },
    };
    if (e.serverTiming?.length) entry.serverTiming = e.serverTiming.slice(0, 10).map((t) => ({ name: String(t.name).slice(0, 100), durationMs: t.duration, description: String(t.description).slice(0, 200) }));
    if (e.renderBlockingStatus === 'blocking') entry.renderBlocking = true;
    if (initiator === 'navigation') {
      if (documentEntry) {
        const { requestId, ...complete } = entry;
        Object.assign(documentEntry, complete);
        return;
      }
      documentEntry = entry;
    }
    ring.push(entry);
    if (ring.length > MAX_ENTRIES) dropped += ring.splice(0, ring.length - MAX_ENTRIES).length;
  }

  try {
    const observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        try { record(e); } catch { /* a malformed entry is skipped, never breaks the page */ }
      }
    });
    observer.observe({ type: 'navigation', buffered: true });
    observer.observe({ type: 'resource', buffered: true });
  } catch { /* no PerformanceObserver: no record */ }

  Object.defineProperty(globalThis, KEY, {
    value: Object.freeze({
      read(clear) {
        const out = { requests: ring.slice(), dropped };
        if (clear) ring.length = 0;
        return out;
      },
      get(requestId) {
        return ring.find((r) => r.requestId === requestId) ?? null;
      },
    }),
    enumerable: false,
  });
})();
