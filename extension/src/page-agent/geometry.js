// Where elements are for the page agent: computed style and visibility, positions in the
// top document's viewport across frames, scrolling into view, and what a pointer at a point
// would really hit.
(() => {
  'use strict';
  const parts = globalThis.__opentabsAgentParts;
  const { shadowOf, frameDocumentOf } = parts;

  const styleOf = (el) => (el.ownerDocument.defaultView ?? window).getComputedStyle(el);

  function isVisible(el) {
    if (!el.isConnected) return false;
    const s = styleOf(el);
    if (s.display === 'none' || s.visibility === 'hidden' || s.visibility === 'collapse') return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 || r.height > 0 || el.getClientRects().length > 0;
  }

  // Viewport coordinates of an element's centre in the top document (adds frame offsets).
  function centreInTop(el) {
    const r = el.getBoundingClientRect();
    let x = r.left + r.width / 2;
    let y = r.top + r.height / 2;
    let win = el.ownerDocument.defaultView;
    while (win && win !== window.top && win.frameElement) {
      const fr = win.frameElement.getBoundingClientRect();
      const fs = styleOf(win.frameElement);
      x += fr.left + win.frameElement.clientLeft + parseFloat(fs.paddingLeft || '0');
      y += fr.top + win.frameElement.clientTop + parseFloat(fs.paddingTop || '0');
      win = win.parent;
    }
    return { x, y, width: r.width, height: r.height };
  }

  function scrollIntoViewIfNeeded(el) {
    const r = el.getBoundingClientRect();
    const win = el.ownerDocument.defaultView;
    if (r.top < 0 || r.left < 0 || r.bottom > win.innerHeight || r.right > win.innerWidth) {
      el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
    }
    // Frames: make sure the frame itself is in view of its parent.
    let w = win;
    while (w && w !== window.top && w.frameElement) {
      const fr = w.frameElement.getBoundingClientRect();
      if (fr.top < 0 || fr.bottom > w.parent.innerHeight) w.frameElement.scrollIntoView({ block: 'center', behavior: 'instant' });
      w = w.parent;
    }
  }

  // What would really receive a click at point c of the top viewport, through frames and
  // shadow roots.
  function hitAt(c) {
    let hit = document.elementFromPoint(c.x, c.y);
    for (let hops = 0; hit && hops < 20; hops++) {
      const hitShadow = shadowOf(hit);
      if (hitShadow) {
        const inner = hitShadow.elementFromPoint(c.x, c.y);
        if (!inner || inner === hit) break;
        hit = inner;
        continue;
      }
      if (hit.tagName !== 'IFRAME') break;
      const doc = frameDocumentOf(hit);
      if (!doc) break;
      const fr = hit.getBoundingClientRect();
      const inner = doc.elementFromPoint(c.x - fr.left - hit.clientLeft, c.y - fr.top - hit.clientTop);
      if (!inner) break;
      hit = inner;
    }
    return hit;
  }

  // A scroll still under way (a wheel turn scrolls smoothly) moves an element after its point
  // was taken: wait until its box reads the same twice a frame apart, for at most half a second.
  // A tab that is not shown draws no frames, so nothing scrolls there until frames are asked
  // for, and Chromium runs its timers at most once a second: waiting would cost up to a
  // second per action (a click by selector took 31–1,066 ms there, 40 ms in front) and could
  // not see anything move.
  async function settled(el) {
    if (el.ownerDocument.visibilityState === 'hidden') return;
    let last = JSON.stringify(el.getBoundingClientRect());
    for (let frames = 0; frames < 30; frames++) {
      await new Promise((done) => setTimeout(done, 16));
      const now = JSON.stringify(el.getBoundingClientRect());
      if (now === last) return;
      last = now;
    }
  }

  // Whether a pointer event aimed at `el` that lands on `hit` reaches it.
  const receives = (el, hit) => Boolean(hit) && (hit === el || el.contains(hit) || (hit.contains?.(el) === false && Boolean(shadowOf(el)?.contains(hit))));

  Object.assign(parts, { styleOf, isVisible, centreInTop, scrollIntoViewIfNeeded, hitAt, settled, receives });
})();
