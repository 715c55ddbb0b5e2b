// Per-method sliding-window rate limiter for requests arriving from the server (protocol
// §3.10): at most N calls of one method within any 1 s window.  Pure: time is passed in.

export const RATE_LIMITS = {
  'browser.screenshotTab': 2,
  'browser.enableNetworkCapture': 2,
  'browser.executeScript': 15,
  'tool.dispatch': 30,
};
export const DEFAULT_RATE_LIMIT = 20;
export const RATE_EXEMPT = new Set(['extension.reload', 'sync.full', 'plugin.update', 'plugin.uninstall']);
const WINDOW_MS = 1_000;

export class RateLimiter {
  constructor(limits = RATE_LIMITS, defaultLimit = DEFAULT_RATE_LIMIT) {
    this.limits = limits;
    this.defaultLimit = defaultLimit;
    this.calls = new Map(); // method -> timestamps (ms) inside the window
  }

  // Records a call at `now` and returns true, or returns false when over the limit.
  allow(method, now) {
    if (RATE_EXEMPT.has(method)) return true;
    const limit = this.limits[method] ?? this.defaultLimit;
    const recent = (this.calls.get(method) ?? []).filter((t) => now - t < WINDOW_MS);
    if (recent.length >= limit) {
      this.calls.set(method, recent);
      return false;
    }
    recent.push(now);
    this.calls.set(method, recent);
    return true;
  }

  // The error text for a refused call: the §3.10 wire prefix `Rate limited: <method>`, then
  // the limit and when the next call will be accepted, so an agent can wait instead of guess.
  refusal(method, now) {
    const limit = this.limits[method] ?? this.defaultLimit;
    const oldest = (this.calls.get(method) ?? [])[0] ?? now;
    const retryMs = Math.max(1, WINDOW_MS - (now - oldest));
    return `Rate limited: ${method} (at most ${limit} call${limit === 1 ? '' : 's'} per second; retry in ${retryMs} ms)`;
  }
}
