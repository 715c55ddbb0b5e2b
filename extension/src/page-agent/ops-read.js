// Page operations that read: text and HTML of the page or an element, element queries,
// web storage, one look for an element (for waits), and marking an element for CDP lookups.
(() => {
  'use strict';
  const parts = globalThis.__opentabsAgentParts;
  const { TRUNCATION_MARKER, RefError, fail, describe, resolve, queryAll, nestedRoots, isVisible } = parts;

  // How many characters of web storage one call returns.
  const MAX_STORAGE_CHARS = 200000;

  const cut = (text, max) => (text.length <= max ? { text, truncated: false }
    : { text: `${text.slice(0, max)}\n${TRUNCATION_MARKER}: ${max} of ${text.length} characters shown]`, truncated: true });

  function queryItem(el, attributes) {
    const r = el.getBoundingClientRect();
    const item = { ...describe(el), visible: isVisible(el), rect: { x: Math.round(r.x), y: Math.round(r.y), width: Math.round(r.width), height: Math.round(r.height) } };
    if (attributes?.length) {
      item.attributes = {};
      for (const name of attributes) if (el.hasAttribute(name)) item.attributes[name] = el.getAttribute(name).slice(0, 2000);
    } else if (el.id || el.className) {
      item.attributes = {};
      if (el.id) item.attributes.id = el.id;
      if (typeof el.className === 'string' && el.className) item.attributes.class = el.className.slice(0, 200);
    }
    return item;
  }

  // A token in a data attribute, so CDP's DOM.querySelector finds the element from the root.
  function markForInspection(el) {
    const token = `ot${Math.random().toString(36).slice(2)}`;
    el.setAttribute('data-opentabs-inspect', token);
    return token;
  }

  const ops = {
    fieldValue(a) {
      const el = resolve(a);
      const field = el.tagName === 'INPUT' || el.tagName === 'TEXTAREA';
      return { ...describe(el), value: field ? (el.type === 'password' ? '(hidden)' : el.value) : el.innerText };
    },

    // One look for an element, for waits.js (which polls across navigations): found or not,
    // visible or not.  A bad selector or a refused ref throws; a missing element does not.
    probeElement(a) {
      let el = null;
      try { el = resolve(a); } catch (err) { if (err instanceof RefError || /Invalid selector|empty step/.test(err.message)) throw err; el = null; }
      if (!el) return { found: false };
      return { found: true, ...describe(el), visible: isVisible(el) };
    },

    content(a) {
      const el = a.selector ? resolve(a) : document.body ?? document.documentElement;
      const out = cut(el.innerText ?? el.textContent ?? '', a.maxLength);
      return { title: document.title, url: location.href, content: out.text, truncated: out.truncated };
    },

    html(a) {
      const el = a.selector === 'html' || !a.selector ? document.documentElement : resolve(a);
      const out = cut(el.outerHTML, a.maxLength);
      return { title: document.title, url: location.href, html: out.text, truncated: out.truncated };
    },

    query(a) {
      const els = queryAll(a.selector, a.limit + 1);
      const shown = els.slice(0, a.limit);
      return { count: shown.length, truncated: els.length > a.limit, elements: shown.map((el) => queryItem(el, a.attributes)) };
    },

    storage(a) {
      const store = a.storageType === 'session' ? sessionStorage : localStorage;
      if (a.key !== undefined) return { storageType: a.storageType, key: a.key, value: store.getItem(a.key) };
      const entries = {};
      let chars = 0;
      let truncated = false;
      for (let i = 0; i < store.length; i++) {
        const k = store.key(i);
        const v = store.getItem(k) ?? '';
        if (chars + k.length + v.length > MAX_STORAGE_CHARS) { truncated = true; break; }
        chars += k.length + v.length;
        entries[k] = v;
      }
      return { storageType: a.storageType, origin: location.origin, count: store.length, entries, truncated };
    },

    // Whether the visible text of the page, its open shadow roots and same-origin frames
    // contains a.text (for waits.js).
    textPresent(a) {
      let text = document.body?.innerText ?? '';
      for (const r of nestedRoots(document)) {
        const host = r.body ?? r;
        text += `\n${host.innerText ?? host.textContent ?? ''}`;
      }
      return { present: text.includes(a.text), url: location.href };
    },

    nodePath(a) {
      const el = resolve(a);
      if (el.ownerDocument !== document || el.getRootNode() !== document) fail('CSS inspection works on elements of the top document only (not inside iframes or shadow roots)');
      return { token: markForInspection(el) };
    },

    unmark(a) {
      for (const el of document.querySelectorAll(`[data-opentabs-inspect="${a.token}"]`)) el.removeAttribute('data-opentabs-inspect');
      return true;
    },
  };

  Object.assign(parts, { cut, markForInspection });
  Object.assign((parts.ops ??= Object.create(null)), ops);
})();
