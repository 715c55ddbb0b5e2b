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
// start tabs in a probe).  Why not wrap fetch/XMLHttpRequest to learn methods: pages and
// their anti-bot scripts see wrapped natives; the method of a fetch/XHR is reported as
// unknown ("-") instead.  Headers and bodies come from browser_enable_network_capture.
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
      method: initiator === 'beacon' ? 'POST' : GET_ONLY.has(initiator) ? 'GET' : undefined,
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
