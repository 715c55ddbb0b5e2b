// Finding elements for the page agent: CSS selectors that may step into same-origin iframes
// and shadow roots, refs from a snapshot, and whether an element is still part of the page.
(() => {
  'use strict';
  const parts = globalThis.__opentabsAgentParts;
  const { fail, failRef, currentRegistry, tagOfRef } = parts;

  // Still part of this page: connected, and every frame between it and the top document
  // still shows the document the element belongs to (a frame that navigated or left the page
  // leaves its old document connected to nothing the user sees).
  function isLive(el) {
    if (!el.isConnected) return false;
    let doc = el.ownerDocument;
    for (let hops = 0; doc !== document; hops++) {
      let frame = null;
      try { frame = doc.defaultView?.frameElement ?? null; } catch { frame = null; }
      if (!frame || hops > 50 || !frame.isConnected) return false;
      let shown = null;
      try { shown = frame.contentDocument; } catch { shown = null; }
      if (shown !== doc) return false;
      doc = frame.ownerDocument;
    }
    return true;
  }

  // Open and closed shadow roots alike: content scripts may read closed ones through
  // chrome.dom (the page itself cannot, and nothing here hands them to it).
  const shadowOf = (el) => el.shadowRoot ?? globalThis.chrome?.dom?.openOrClosedShadowRoot?.(el) ?? null;

  // A frame element's document, or null when it is cross-origin (or has none).
  function frameDocumentOf(frame) {
    try { return frame.contentDocument; } catch { return null; }
  }

  function childRootOf(el) {
    const shadow = shadowOf(el);
    if (shadow) return shadow;
    if (el.tagName === 'IFRAME' || el.tagName === 'FRAME') {
      const doc = frameDocumentOf(el);
      if (!doc) fail(`'${el.tagName.toLowerCase()}' is a cross-origin frame; its content cannot be reached`);
      return doc;
    }
    return null;
  }

  // Every open shadow root and same-origin frame document below `root`, breadth first.
  function nestedRoots(root) {
    const out = [];
    const queue = [root];
    while (queue.length && out.length < 2000) {
      const r = queue.shift();
      const walker = (r.ownerDocument ?? r).createTreeWalker(r, NodeFilter.SHOW_ELEMENT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        let child = shadowOf(n);
        if (!child && (n.tagName === 'IFRAME' || n.tagName === 'FRAME')) child = frameDocumentOf(n);
        if (child) { out.push(child); queue.push(child); }
      }
    }
    return out;
  }

  function querySafe(root, selector, all) {
    try {
      return all ? [...root.querySelectorAll(selector)] : root.querySelector(selector);
    } catch (err) {
      return fail(`Invalid selector '${selector}': ${err.message}`);
    }
  }

  // The hops of a selector chained with ' >>> ' (each into an iframe document or shadow root).
  function selectorHops(selector) {
    const hops = selector.split('>>>').map((s) => s.trim());
    if (hops.some((h) => !h)) fail(`Invalid selector '${selector}': empty step around '>>>'`);
    return hops;
  }

  // The roots the last hop of a chained selector is matched in.
  function rootsOfHops(hops) {
    let roots = [document];
    for (let i = 0; i < hops.length - 1; i++) {
      const next = [];
      for (const r of roots) {
        for (const host of querySafe(r, hops[i], true)) {
          const child = childRootOf(host);
          if (child) next.push(child);
        }
      }
      if (!next.length) fail(`No iframe or shadow host matches '${hops.slice(0, i + 1).join(' >>> ')}'`);
      roots = next;
    }
    return roots;
  }

  // A plain selector that matches nothing in the top document is also tried inside every
  // open shadow root and same-origin iframe, so agents need not know where a widget lives.
  function queryAll(selector, limit = Infinity) {
    const hops = selectorHops(selector);
    const roots = rootsOfHops(hops);
    const last = hops[hops.length - 1];
    const found = [];
    for (const r of roots) found.push(...querySafe(r, last, true));
    if (!found.length && hops.length === 1) {
      for (const r of nestedRoots(document)) {
        found.push(...querySafe(r, last, true));
        if (found.length >= limit) break;
      }
    }
    return found.slice(0, limit);
  }

  function resolveRef(ref) {
    const registry = currentRegistry();
    if (tagOfRef(ref) !== registry.tag) {
      failRef(`Ref '${ref}' is from another document than the one now in this tab (it navigated or reloaded since that snapshot); take a new browser_snapshot and use its refs`);
    }
    const el = registry.byRef.get(ref)?.deref();
    if (!el) failRef(`Unknown ref '${ref}': take a new browser_snapshot of this page`);
    if (!isLive(el)) failRef(`Ref '${ref}' is stale (the element left the page): take a new browser_snapshot`);
    return el;
  }

  function resolve({ selector, ref }) {
    if (ref) return resolveRef(ref);
    if (!selector) fail('Either selector or ref is required');
    const [el] = queryAll(selector, 1);
    if (!el) fail(`No element matches selector '${selector}'`);
    return el;
  }

  Object.assign(parts, { isLive, shadowOf, frameDocumentOf, nestedRoots, queryAll, resolve });
})();
