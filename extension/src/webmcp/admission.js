// WebMCP admission: which frames' tool lists the service worker keeps, and how fast pages may
// send them.  Plain logic with no chrome.* calls (background.js does the storage, messaging and
// server reports it decides on), so it is unit-tested in Node (test/extension/webmcp/).
//
// Who is protected from whom:
//  * a frame's list ≤ 512 KiB; an origin ≤ 1 MiB and 16 frames (its own oldest give way);
//  * a tab ≤ 32 frames and 2 MiB: a page with hundreds of tiny iframes from many origins fills
//    its own share and no more (further subframes are refused; the tab's top frame takes the
//    place of the tab's oldest subframe);
//  * a site (a tab's top-level origin, over all its tabs) ≤ 64 frames and 3 MiB;
//  * all frames ≤ 200 and 4 MiB, and when that is full a newcomer takes room from the site
//    holding the most, never from a site holding less than the newcomer's would: however many
//    tabs or sites flood, a site with a few tools always gets them forwarded.
//  * ReportPacer: lists reach the worker only when it grants them, tabs in turn, at most
//    `rate` characters a second in all and each grant counted as at least `minCost`
//    characters (so at most rate/minCost grants a second, however small the lists), so a page
//    within every cap cannot keep the worker from answering the server.  A refused frame is
//    told to ask again no sooner than REFUSED_RETRY_MS.

export const CAPS = Object.freeze({
  frameChars: 512 * 1024,
  originChars: 1024 * 1024,
  originFrames: 16,
  tabChars: 2 * 1024 * 1024,
  tabFrames: 32,
  siteChars: 3 * 1024 * 1024,
  siteFrames: 64,
  totalChars: 4 * 1024 * 1024,
  totalFrames: 200,
});
export const REFUSED_RETRY_MS = 10_000;

const keyOf = (f) => `${f.tabId}:${f.frameId}`;
const oldestFirst = (a, b) => a.at - b.at;

// Decides whether `frame` ({tabId, frameId, origin, site, chars, at}) may be stored next to
// `frames` (Map key -> frame; the frame's own earlier list, if any, is replaced).  Returns
// {refused: reason|null, drop: [frames to forget first]}.  Never drops a frame of another
// tab's site unless that site holds more than the newcomer's site will.
export function admit(frames, frame, caps = CAPS) {
  const key = keyOf(frame);
  const others = [...frames.values()].filter((f) => keyOf(f) !== key);
  const drop = new Set();
  const kept = () => others.filter((f) => !drop.has(f));
  const sum = (list) => list.reduce((n, f) => n + f.chars, 0);

  if (frame.chars > caps.frameChars) return { refused: `tool list larger than ${caps.frameChars} characters; nothing forwarded`, drop: [] };

  // The origin's own oldest frames give way to its newest.
  const sameOrigin = others.filter((f) => f.origin === frame.origin).sort(oldestFirst);
  while (sameOrigin.length > 0 && (sum(sameOrigin) + frame.chars > caps.originChars || sameOrigin.length + 1 > caps.originFrames)) {
    drop.add(sameOrigin.shift());
  }

  // The tab: further subframes are refused; the top frame replaces the tab's oldest subframes.
  const sameTab = kept().filter((f) => f.tabId === frame.tabId).sort(oldestFirst);
  const tabOver = () => sameTab.length + 1 > caps.tabFrames || sum(sameTab) + frame.chars > caps.tabChars;
  if (tabOver()) {
    if (frame.frameId !== 0) {
      return { refused: `this tab already publishes WebMCP tools from ${sameTab.length} frames (${sum(sameTab)} characters; a tab may use ${caps.tabFrames} frames and ${caps.tabChars} characters); this frame's tools were not forwarded`, drop: [] };
    }
    while (sameTab.length > 0 && tabOver()) drop.add(sameTab.shift());
  }

  // The site, over all its tabs.
  const sameSite = kept().filter((f) => f.site === frame.site);
  if (sameSite.length + 1 > caps.siteFrames || sum(sameSite) + frame.chars > caps.siteChars) {
    return { refused: `the tabs of ${frame.site} already publish WebMCP tools from ${sameSite.length} frames (${sum(sameSite)} characters; a site may use ${caps.siteFrames} frames and ${caps.siteChars} characters); this frame's tools were not forwarded`, drop: [] };
  }

  // Everything: the site holding the most gives way, down to the newcomer's site's holding.
  for (;;) {
    const all = kept();
    const framesOver = all.length + 1 > caps.totalFrames;
    const charsOver = sum(all) + frame.chars > caps.totalChars;
    if (!framesOver && !charsOver) break;
    const measure = (list) => (charsOver ? sum(list) : list.length);
    const bySite = new Map();
    for (const f of all) bySite.set(f.site, [...(bySite.get(f.site) ?? []), f]);
    const mine = measure([...(bySite.get(frame.site) ?? []), frame]);
    let biggest = null;
    for (const [site, list] of bySite) {
      if (site !== frame.site && measure(list) > mine && (!biggest || measure(list) > measure(biggest))) biggest = list;
    }
    if (!biggest) {
      return { refused: `the pages open in this browser already publish WebMCP tools from ${all.length} frames (${sum(all)} characters; ${caps.totalFrames} frames and ${caps.totalChars} characters in all), and no site holds more than this one; this frame's tools were not forwarded`, drop: [] };
    }
    drop.add(biggest.sort(oldestFirst)[0]);
  }
  return { refused: null, drop: [...drop] };
}

// Hands out permissions to send a tool list ("grants"): tabs in turn, at most `rate`
// characters a second over all tabs, a grant costing at least `minCost` (a list larger than
// what is saved up waits until the bucket is full enough, the bucket holding at most `burst`).  `request`
// resolves when the frame may send; `cancelTab` resolves a closed tab's waiting requests with
// false.  Lives on the worker's single thread; the timer functions are injectable for tests.
export class ReportPacer {
  constructor({ rate = 512 * 1024, burst = 512 * 1024, minCost = 64 * 1024, now = () => Date.now(), setTimer = (fn, ms) => setTimeout(fn, ms), clearTimer = (t) => clearTimeout(t) } = {}) {
    Object.assign(this, { rate, burst, minCost, now, setTimer, clearTimer });
    this.tokens = burst;
    this.at = now();
    this.tabs = new Map();     // tabId -> [{frameKey, chars, resolve}] in arrival order
    this.timer = null;   // (a browser's setTimeout must not be called as this.setTimer's method)
  }

  // Waits for the frame's turn; a newer request of the same frame replaces its older one
  // (which resolves false: the frame then has nothing older to send).
  request(tabId, frameKey, chars) {
    return new Promise((resolve) => {
      const queue = this.tabs.get(tabId) ?? [];
      const older = queue.findIndex((r) => r.frameKey === frameKey);
      if (older >= 0) queue.splice(older, 1)[0].resolve(false);
      queue.push({ frameKey, chars: Math.min(Math.max(chars, this.minCost), this.burst), resolve });
      this.tabs.set(tabId, queue);
      this.pump();
    });
  }

  cancelTab(tabId) {
    for (const r of this.tabs.get(tabId) ?? []) r.resolve(false);
    this.tabs.delete(tabId);
  }

  get waiting() {
    let n = 0;
    for (const q of this.tabs.values()) n += q.length;
    return n;
  }

  pump() {
    if (this.timer) return;
    for (;;) {
      const now = this.now();
      this.tokens = Math.min(this.burst, this.tokens + ((now - this.at) * this.rate) / 1000);
      this.at = now;
      const [tabId, queue] = this.tabs.entries().next().value ?? [];
      if (queue === undefined) return;
      const next = queue[0];
      if (this.tokens < next.chars) {
        const ms = Math.ceil(((next.chars - this.tokens) * 1000) / this.rate);
        this.timer = this.setTimer(() => { this.timer = null; this.pump(); }, ms);
        return;
      }
      this.tokens -= next.chars;
      queue.shift();
      // Tabs take turns: this tab goes to the back of the line.
      this.tabs.delete(tabId);
      if (queue.length > 0) this.tabs.set(tabId, queue);
      next.resolve(true);
    }
  }
}
