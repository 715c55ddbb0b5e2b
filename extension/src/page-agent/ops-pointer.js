// Page operations about where things are on screen: where a pointer action on an element
// lands, element boxes, what is at a point, the origin of a cross-origin child frame, and
// scrolling.
(() => {
  'use strict';
  const parts = globalThis.__opentabsAgentParts;
  const {
    fail, currentRegistry, describe, resolve, isLive, shadowOf, styleOf, isVisible, centreInTop, scrollIntoViewIfNeeded,
    hitAt, settled, receives,
  } = parts;

  // Scrolls a container, the element given, or the page: to a position, or by a distance.
  function scrollBy(a, target) {
    const container = a.container ? resolve({ selector: a.container }) : target;
    const scroller = container ?? document.scrollingElement ?? document.documentElement;
    const viewport = container ? container.clientHeight : window.innerHeight;
    if (typeof a.position === 'string') {
      scroller.scrollTop = a.position === 'top' ? 0 : scroller.scrollHeight;
    } else if (a.position) {
      if (a.position.x !== undefined && a.position.x !== null) scroller.scrollLeft = a.position.x;
      if (a.position.y !== undefined && a.position.y !== null) scroller.scrollTop = a.position.y;
    } else {
      const d = a.distance ?? viewport;
      const dir = a.direction ?? 'down';
      scroller.scrollBy({ left: dir === 'left' ? -d : dir === 'right' ? d : 0, top: dir === 'up' ? -d : dir === 'down' ? d : 0, behavior: 'instant' });
    }
    return { scrollTop: scroller.scrollTop, scrollLeft: scroller.scrollLeft, scrollHeight: scroller.scrollHeight, clientHeight: scroller.clientHeight };
  }

  // A wheel turn scrolls smoothly over the frames after Chromium answers it.  The extension
  // calls watchWheelScroll() before it sends the wheel (it answers whether the tab is hidden),
  // then reads wheelScrollState() between the frames it asks for until a scroll that started
  // has ended (scrollend) or none started.
  let wheelWatch = null;

  function stopWheelWatch() {
    if (!wheelWatch) return;
    window.removeEventListener('scroll', wheelWatch.onScroll, true);
    window.removeEventListener('scrollend', wheelWatch.onEnd, true);
    wheelWatch = null;
  }

  const ops = {
    watchWheelScroll() {
      stopWheelWatch();
      const watch = { scrolling: false, scrolled: false };
      watch.onScroll = () => { watch.scrolling = true; watch.scrolled = true; };
      watch.onEnd = () => { watch.scrolling = false; };
      window.addEventListener('scroll', watch.onScroll, true);
      window.addEventListener('scrollend', watch.onEnd, true);
      wheelWatch = watch;
      return { hidden: document.visibilityState === 'hidden' };
    },

    // Whether anything scrolled since the watch began and whether it is still scrolling;
    // `stop` ends the watch.
    wheelScrollState(a) {
      const state = { scrolled: Boolean(wheelWatch?.scrolled), scrolling: Boolean(wheelWatch?.scrolling) };
      if (a.stop) stopWheelWatch();
      return state;
    },

    // Where a pointer action on the element lands, once any scroll under way has settled.
    async locate(a) {
      const el = resolve(a);
      if (!isVisible(el)) fail(`Element ${a.ref ?? a.selector} is not visible`);
      scrollIntoViewIfNeeded(el);
      await settled(el);
      let c = centreInTop(el);
      let hit = hitAt(c);
      // In the viewport but clipped by a scrolling container (a feed, a list box): centring it
      // scrolls the container too, then the point is taken again.
      if (!receives(el, hit)) {
        el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
        await settled(el);
        c = centreInTop(el);
        hit = hitAt(c);
      }
      return { ...c, ...describe(el), obscuredBy: receives(el, hit) || !hit ? null : describe(hit), scrollX: window.scrollX, scrollY: window.scrollY };
    },

    // The element at viewport point (x, y) of the top document, through open shadow roots.
    elementAt(a) {
      let hit = document.elementFromPoint(a.x, a.y);
      for (let hops = 0; hit && shadowOf(hit) && hops < 20; hops++) {
        const inner = shadowOf(hit).elementFromPoint(a.x, a.y);
        if (!inner || inner === hit) break;
        hit = inner;
      }
      return hit ? describe(hit) : null;
    },

    // Document coordinates (CSS px of the top document) of an element's border box.
    elementBox(a) {
      const el = resolve(a);
      if (!isVisible(el)) fail(`Element ${a.ref ?? a.selector} is not visible`);
      const r = el.getBoundingClientRect();
      let x = r.left;
      let y = r.top;
      let win = el.ownerDocument.defaultView;
      while (win && win !== window.top && win.frameElement) {
        const fr = win.frameElement.getBoundingClientRect();
        x += fr.left + win.frameElement.clientLeft;
        y += fr.top + win.frameElement.clientTop;
        win = win.parent;
      }
      return { ...describe(el), x: x + window.scrollX, y: y + window.scrollY, width: r.width, height: r.height };
    },

    // Where a cross-origin child frame's viewport starts, in this frame's top-most reachable
    // viewport coordinates (the child is found by its probe token), scrolled into view.
    frameOrigin(a) {
      const el = currentRegistry().probes.get(a.token)?.deref();
      if (!el || !isLive(el)) fail('The frame is no longer in this page; take a new browser_snapshot');
      scrollIntoViewIfNeeded(el);
      const c = centreInTop(el);
      const s = styleOf(el);
      return {
        x: c.x - c.width / 2 + el.clientLeft + parseFloat(s.paddingLeft || '0'),
        y: c.y - c.height / 2 + el.clientTop + parseFloat(s.paddingTop || '0'),
      };
    },

    postFrameProbes(a) {
      const { probes } = currentRegistry();
      for (const token of a.tokens) probes.get(token)?.deref()?.contentWindow?.postMessage({ __opentabsFrameProbe: token }, '*');
      return true;
    },

    scroll(a) {
      const target = a.selector || a.ref ? resolve(a) : null;
      if (target && !a.direction && !a.position) {
        target.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
        return { scrolledIntoView: describe(target), pageX: window.scrollX, pageY: window.scrollY };
      }
      return scrollBy(a, target);
    },
  };

  Object.assign((parts.ops ??= Object.create(null)), ops);
})();
