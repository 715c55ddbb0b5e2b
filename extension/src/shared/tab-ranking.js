// Order in which tool.dispatch tries candidate tabs when no tabId is given (protocol §3.7):
// active tab in the focused window (3) > active tab elsewhere (2) > tab in the focused window (1)
// > others (0); equal ranks keep their original order.  Pure.

export function rankTabs(tabs, focusedWindowId) {
  const rank = (t) => (t.active && t.windowId === focusedWindowId ? 3
    : t.active ? 2
      : t.windowId === focusedWindowId ? 1 : 0);
  return tabs.map((t, i) => ({ t, i, r: rank(t) })).sort((a, b) => b.r - a.r || a.i - b.i).map((x) => x.t);
}
