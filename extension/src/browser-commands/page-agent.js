// The page side of the browser tools: one self-contained function injected into a tab's
// ISOLATED world with chrome.scripting.executeScript.  It finds elements (CSS selectors that
// may step into same-origin iframes and open shadow roots, or refs from a snapshot), builds
// the accessibility-style snapshot, and performs the scripted interactions.  The ISOLATED
// world keeps the ref registry out of the page's reach and survives between calls for the
// same document, which is what makes refs stable.
//
// Refs are bound to the document they came from: each document's registry draws a random
// tag, and a ref is `e<n>@<tag>` (e.g. e12@k3f9).  Numbering restarts at e1 in every
// document, so without the tag a ref from a page the tab has since left would name some
// other element of the new page; with it, such a ref is refused.  Elements of same-origin
// iframes are registered in the top document's registry, and a ref to one is refused once
// its frame navigated or was removed.
//
// `pageAgent` must not reference anything outside itself: Chrome serialises its source.

import { ProtocolError, ERR_INVALID_PARAMS, ERR_INTERNAL } from '../shared/constants.js';
import { verifiedDialog, nextDialog, blockedError } from './dialogs.js';

export const TRUNCATION_MARKER = '[... truncated';

export function pageAgent(op, args) {
  const TRUNC = '[... truncated';
  const newRegistry = () => {
    // Four base-36 digits (1.7 million tags): short in every ref, and a collision between two
    // documents of one tab is what it would take to misdirect a ref.
    const tag = (crypto.getRandomValues(new Uint32Array(1))[0] % 36 ** 4).toString(36).padStart(4, '0');
    return { document, tag, next: 1, byRef: new Map(), byEl: new WeakMap(), probes: new Map(), probeOf: new WeakMap() };
  };
  // A new document normally brings a new isolated world; the document check also covers a
  // window object that is kept for the next document (initial about:blank).
  if (globalThis.__opentabsRefs?.document !== document) globalThis.__opentabsRefs = newRegistry();
  const registry = globalThis.__opentabsRefs;
  // An agent works in this document: dialog-relay.js (same world) holds its dialogs until the
  // background can answer them.
  globalThis.__opentabsDialogGate = true;
  registry.probes ??= new Map();
  registry.probeOf ??= new WeakMap();
  // A cross-origin frame's probe token: the background posts it to the frame's window and
  // finds out which extension frame received it (content scripts cannot name a frame's id).
  const probeOf = (el) => {
    let token = registry.probeOf.get(el);
    if (!token) {
      token = `p${crypto.getRandomValues(new Uint32Array(2)).join('')}`;
      registry.probeOf.set(el, token);
      registry.probes.set(token, new WeakRef(el));
    }
    return token;
  };

  class AgentError extends Error {}
  // Refusals of a ref: a wait for an element never retries them.
  class RefError extends AgentError {}
  const fail = (message) => { throw new AgentError(message); };
  const failRef = (message) => { throw new RefError(message); };

  const refOf = (el) => {
    let ref = registry.byEl.get(el);
    if (!ref) {
      ref = `e${registry.next++}@${registry.tag}`;
      registry.byEl.set(el, ref);
      registry.byRef.set(ref, new WeakRef(el));
    }
    return ref;
  };

  // Still part of this page: connected, and every frame between it and the top document
  // still shows the document the element belongs to (a frame that navigated or left the page
  // leaves its old document connected to nothing the user sees).
  const isLive = (el) => {
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
  };

  // Open and closed shadow roots alike: content scripts may read closed ones through
  // chrome.dom (the page itself cannot, and nothing here hands them to it).
  const shadowOf = (el) => el.shadowRoot ?? globalThis.chrome?.dom?.openOrClosedShadowRoot?.(el) ?? null;

  const childRootOf = (el) => {
    const shadow = shadowOf(el);
    if (shadow) return shadow;
    if (el.tagName === 'IFRAME' || el.tagName === 'FRAME') {
      let doc = null;
      try { doc = el.contentDocument; } catch { doc = null; }
      if (!doc) fail(`'${el.tagName.toLowerCase()}' is a cross-origin frame; its content cannot be reached`);
      return doc;
    }
    return null;
  };

  // Every open shadow root and same-origin frame document below `root`, breadth first.
  const nestedRoots = (root) => {
    const out = [];
    const queue = [root];
    while (queue.length && out.length < 2000) {
      const r = queue.shift();
      const walker = (r.ownerDocument ?? r).createTreeWalker(r, NodeFilter.SHOW_ELEMENT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        let child = shadowOf(n);
        if (!child && (n.tagName === 'IFRAME' || n.tagName === 'FRAME')) {
          try { child = n.contentDocument; } catch { child = null; }
        }
        if (child) { out.push(child); queue.push(child); }
      }
    }
    return out;
  };

  const querySafe = (root, selector, all) => {
    try {
      return all ? [...root.querySelectorAll(selector)] : root.querySelector(selector);
    } catch (err) {
      return fail(`Invalid selector '${selector}': ${err.message}`);
    }
  };

  // A selector may chain hops with ' >>> ' (into an iframe document or shadow root).  A plain
  // selector that matches nothing in the top document is also tried inside every open shadow
  // root and same-origin iframe, so agents need not know where a widget lives.
  const queryAll = (selector, limit = Infinity) => {
    const hops = selector.split('>>>').map((s) => s.trim());
    if (hops.some((h) => !h)) fail(`Invalid selector '${selector}': empty step around '>>>'`);
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
    const last = hops[hops.length - 1];
    let found = [];
    for (const r of roots) found.push(...querySafe(r, last, true));
    if (!found.length && hops.length === 1) {
      for (const r of nestedRoots(document)) {
        found.push(...querySafe(r, last, true));
        if (found.length >= limit) break;
      }
    }
    return found.slice(0, limit);
  };

  const resolve = ({ selector, ref }) => {
    if (ref) {
      const tag = /^e[0-9]+@([0-9a-z]+)$/.exec(ref)?.[1];
      if (tag !== registry.tag) {
        failRef(`Ref '${ref}' is from another document than the one now in this tab (it navigated or reloaded since that snapshot); take a new browser_snapshot and use its refs`);
      }
      const el = registry.byRef.get(ref)?.deref();
      if (!el) failRef(`Unknown ref '${ref}': take a new browser_snapshot of this page`);
      if (!isLive(el)) failRef(`Ref '${ref}' is stale (the element left the page): take a new browser_snapshot`);
      return el;
    }
    if (!selector) fail('Either selector or ref is required');
    const [el] = queryAll(selector, 1);
    if (!el) fail(`No element matches selector '${selector}'`);
    return el;
  };

  const cut = (text, max) => (text.length <= max ? { text, truncated: false }
    : { text: `${text.slice(0, max)}\n${TRUNC}: ${max} of ${text.length} characters shown]`, truncated: true });

  const styleOf = (el) => (el.ownerDocument.defaultView ?? window).getComputedStyle(el);
  const isVisible = (el) => {
    if (!el.isConnected) return false;
    const s = styleOf(el);
    if (s.display === 'none' || s.visibility === 'hidden' || s.visibility === 'collapse') return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 || r.height > 0 || el.getClientRects().length > 0;
  };

  // Viewport coordinates of an element's centre in the top document (adds frame offsets).
  const centreInTop = (el) => {
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
  };

  const scrollIntoViewIfNeeded = (el) => {
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
  };

  const describe = (el) => {
    const text = (el.innerText ?? el.textContent ?? '').replace(/\s+/g, ' ').trim();
    return { tag: el.tagName.toLowerCase(), ref: refOf(el), text: text.slice(0, 100) };
  };

  // ---- accessibility-style snapshot ------------------------------------------------------
  const INPUT_ROLES = {
    button: 'button', submit: 'button', reset: 'button', image: 'button', checkbox: 'checkbox', radio: 'radio',
    range: 'slider', number: 'spinbutton', search: 'searchbox', email: 'textbox', tel: 'textbox', text: 'textbox',
    url: 'textbox', password: 'textbox', date: 'textbox', 'datetime-local': 'textbox', month: 'textbox',
    time: 'textbox', week: 'textbox', color: 'button', file: 'button',
  };
  const TAG_ROLES = {
    BUTTON: 'button', SELECT: 'combobox', TEXTAREA: 'textbox', OPTION: 'option', NAV: 'navigation', MAIN: 'main',
    HEADER: 'banner', FOOTER: 'contentinfo', ASIDE: 'complementary', FORM: 'form', UL: 'list', OL: 'list',
    LI: 'listitem', TABLE: 'table', TR: 'row', TD: 'cell', TH: 'columnheader', DIALOG: 'dialog', IMG: 'img',
    IFRAME: 'iframe', FRAME: 'iframe', H1: 'heading', H2: 'heading', H3: 'heading', H4: 'heading', H5: 'heading',
    H6: 'heading', SUMMARY: 'button', DETAILS: 'group', FIELDSET: 'group', PROGRESS: 'progressbar', METER: 'meter',
    ARTICLE: 'article', SECTION: 'region',
  };
  const INTERACTIVE = new Set(['button', 'link', 'textbox', 'searchbox', 'checkbox', 'radio', 'combobox', 'listbox',
    'option', 'slider', 'spinbutton', 'switch', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'treeitem']);
  const LANDMARKS = new Set(['banner', 'navigation', 'main', 'complementary', 'contentinfo', 'region', 'form', 'search']);
  const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'META', 'LINK', 'svg', 'SVG']);

  const roleOf = (el) => {
    const explicit = el.getAttribute('role');
    if (explicit) return explicit.split(/\s+/)[0];
    if (el.tagName === 'A' || el.tagName === 'AREA') return el.hasAttribute('href') ? 'link' : null;
    if (el.tagName === 'INPUT') {
      const type = (el.getAttribute('type') || 'text').toLowerCase();
      return type === 'hidden' ? null : (INPUT_ROLES[type] ?? 'textbox');
    }
    if (el.tagName === 'SELECT' && (el.multiple || el.size > 1)) return 'listbox';
    if (el.tagName === 'SECTION' && !el.hasAttribute('aria-label') && !el.hasAttribute('aria-labelledby')) return null;
    if (el.isContentEditable && el.getAttribute('contenteditable') !== null) return 'textbox';
    return TAG_ROLES[el.tagName] ?? null;
  };

  const squash = (s, max = 100) => {
    const t = String(s ?? '').replace(/\s+/g, ' ').trim();
    return t.length > max ? `${t.slice(0, max - 1)}…` : t;
  };

  const nameOf = (el, role) => {
    const aria = el.getAttribute('aria-label');
    if (aria) return squash(aria);
    const labelledBy = el.getAttribute('aria-labelledby');
    if (labelledBy) {
      const doc = el.getRootNode();
      const text = labelledBy.split(/\s+/).map((id) => doc.getElementById?.(id)?.textContent ?? '').join(' ');
      if (text.trim()) return squash(text);
    }
    if (['INPUT', 'SELECT', 'TEXTAREA'].includes(el.tagName)) {
      const labels = el.labels ? [...el.labels] : [];
      // A label's own words: not the options or value of a field nested in it.
      const words = (l) => {
        const copy = l.cloneNode(true);
        for (const n of copy.querySelectorAll('select,textarea,button,datalist')) n.remove();
        return copy.textContent;
      };
      if (labels.length) return squash(labels.map(words).join(' '));
      if (el.tagName === 'INPUT' && ['button', 'submit', 'reset'].includes(el.type)) return squash(el.value);
      return squash(el.getAttribute('placeholder') || el.getAttribute('title') || el.getAttribute('name') || '');
    }
    if (el.tagName === 'IMG') return squash(el.getAttribute('alt') || el.getAttribute('title') || '');
    if (el.tagName === 'TABLE' && el.caption) return squash(el.caption.textContent);
    if (el.tagName === 'FIELDSET') {
      const legend = [...el.children].find((c) => c.tagName === 'LEGEND');
      if (legend) return squash(legend.textContent);
    }
    if (el.tagName === 'IFRAME' || el.tagName === 'FRAME') return squash(el.getAttribute('title') || el.getAttribute('name') || el.getAttribute('src') || '');
    if (['button', 'link', 'heading', 'option', 'tab', 'menuitem', 'listitem', 'cell', 'columnheader', 'label', 'switch',
      'checkbox', 'radio', 'treeitem', 'menuitemcheckbox', 'menuitemradio'].includes(role) || el.tagName === 'SUMMARY') {
      return squash(el.innerText ?? el.textContent);
    }
    return squash(el.getAttribute('title') || '');
  };

  const statesOf = (el, role) => {
    const s = [];
    if (el.tagName === 'INPUT' && (el.type === 'checkbox' || el.type === 'radio')) { if (el.checked) s.push('checked'); } else if (el.getAttribute('aria-checked') === 'true') s.push('checked');
    if (el.disabled || el.getAttribute('aria-disabled') === 'true') s.push('disabled');
    const expanded = el.getAttribute('aria-expanded');
    if (expanded) s.push(expanded === 'true' ? 'expanded' : 'collapsed');
    if (el.tagName === 'DETAILS') s.push(el.open ? 'expanded' : 'collapsed');
    if (el.selected || el.getAttribute('aria-selected') === 'true') s.push('selected');
    if (el.required || el.getAttribute('aria-required') === 'true') s.push('required');
    if (el.readOnly && ['INPUT', 'TEXTAREA'].includes(el.tagName)) s.push('readonly');
    if (el.getAttribute('aria-pressed') === 'true') s.push('pressed');
    if (el === el.ownerDocument.activeElement && role) s.push('focused');
    if (role === 'heading') s.push(`level=${el.tagName.match(/^H(\d)$/)?.[1] ?? el.getAttribute('aria-level') ?? ''}`);
    return s;
  };

  const valueOf = (el, role) => {
    if (el.tagName === 'INPUT' && !['checkbox', 'radio', 'button', 'submit', 'reset', 'image'].includes(el.type)) {
      return el.type === 'password' ? (el.value ? '••••' : '') : el.value;
    }
    if (el.tagName === 'TEXTAREA') return el.value;
    if (el.tagName === 'SELECT') return [...el.selectedOptions].map((o) => o.label).join(', ');
    if (role === 'textbox' && el.isContentEditable) return el.innerText;
    if (el.getAttribute('aria-valuenow')) return el.getAttribute('aria-valuenow');
    return null;
  };

  // Elements that get a ref: what an agent can act on (interactive roles, focusable or
  // script-clickable elements), frames and dialogs, which a snapshot can be scoped to,
  // headings and landmarks, which an agent scrolls to or drops onto, and the drag sources,
  // drop zones and hover targets of `pointerTargets`.  Cells, plain list items and text carry
  // no ref: they are read, not acted on.
  const actionable = (el, role) => INTERACTIVE.has(role) || role === 'heading' || (LANDMARKS.has(role) && (role !== 'form' || nameOf(el, role))) || role === 'iframe' || role === 'dialog' || role === 'alertdialog' ||
    pointerTargets.kind(el) !== null ||
    el.tagName === 'SUMMARY' || el.hasAttribute('onclick') || (el.hasAttribute('tabindex') && el.tabIndex >= 0) ||
    (el.isContentEditable && el.getAttribute('contenteditable') !== null);
  // An element without a role that still looks clickable (its own pointer cursor, an inline
  // handler or a tabindex): listed as "clickable" so an agent can reach it.
  const looksClickable = (el, st) => el.hasAttribute('onclick') || (el.hasAttribute('tabindex') && el.tabIndex >= 0) ||
    (st.cursor === 'pointer' && (!el.parentElement || styleOf(el.parentElement).cursor !== 'pointer'));
  const INTERACTIVE_SELECTOR = 'a[href],button,input:not([type=hidden]),select,textarea,[role],[contenteditable],[onclick],[tabindex],iframe,frame';
  const MAX_OPTIONS = 100;
  // A row of a data table, not of a layout table: short cells without structure of their own,
  // none of them clickable (the day cells of a date picker each need a ref).
  const plainRow = (tr) => [...tr.cells].every((c) => (c.innerText ?? '').length <= 300 &&
    !c.querySelector('table,h1,h2,h3,h4,h5,h6,ul,ol,p,form,fieldset,iframe,frame') && styleOf(c).cursor !== 'pointer');

  // Drag sources, drop zones and hover targets, which have no role of their own.  Listeners
  // added from script cannot be seen from here, so they are recognised by what they show:
  // a drag source by draggable="true", a grab cursor or inline drag handlers; a drop zone by
  // inline drop handlers, aria-dropeffect, words that ask for a drop ("Drop files here"), or
  // as the container of drag sources (and its siblings of the same tag and class: the empty
  // columns of a board); a hover target by a
  // :hover rule of the page's style sheets that names it, or by a hidden, absolutely placed
  // child holding links or buttons (a menu panel its parent opens on mouseenter).
  // A zone that tells the user to drop onto it ("Drop files here"), in its label or own text.
  const saysDrop = (el) => {
    const role = roleOf(el);
    if (role && role !== 'generic' && role !== 'group' && role !== 'region') return false;
    const label = el.getAttribute('aria-label') ?? [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent).join(' ');
    return label.length <= 100 && /\b(drop|drag)\b(?!-?down)/i.test(label);
  };
  const hasHiddenMenu = (el) => {
    for (const child of el.children) {
      const cs = styleOf(child);
      const hidden = cs.display === 'none' || cs.visibility === 'hidden';
      if (hidden && cs.position === 'absolute' && child.querySelector('a[href],button,[role=menuitem],li')) return true;
    }
    return false;
  };
  const pointerTargets = (() => {
    const drops = new Set();
    const hoverSelectors = [];
    const kindOf = new WeakMap();
    return {
      prepare(root) {
        drops.clear();
        hoverSelectors.length = 0;
        for (const src of root.querySelectorAll('[draggable="true"],[ondragstart]')) {
          const parent = src.parentElement;
          if (!parent || parent === root.body || parent === root.documentElement || drops.has(parent)) continue;
          drops.add(parent);
          for (const sib of parent.parentElement?.children ?? []) {
            if (sib.tagName === parent.tagName && sib.className === parent.className) drops.add(sib);
          }
        }
        let rules = 0;
        const scan = (list) => {
          for (const rule of list) {
            if (++rules > 5000) return;
            if (rule.cssRules) scan(rule.cssRules);
            const text = rule.selectorText;
            if (!text || !text.includes(':hover')) continue;
            for (const part of text.split(',')) {
              // The element hovered is the compound the :hover is on: cut what follows it.
              const at = part.indexOf(':hover');
              if (at < 0) continue;
              const target = part.slice(0, at).trim();
              if (target && !/[>+~]$/.test(target)) hoverSelectors.push(target);
            }
          }
        };
        for (const sheet of root.styleSheets ?? []) {
          try { scan(sheet.cssRules); } catch { /* a cross-origin sheet */ }
        }
      },
      kind(el) {
        if (kindOf.has(el)) return kindOf.get(el);
        let kind = null;
        const st = styleOf(el);
        if (el.getAttribute('draggable') === 'true' || el.hasAttribute('ondragstart') || st.cursor === 'grab' || st.cursor === 'move') kind = 'draggable';
        else if (drops.has(el) || el.hasAttribute('ondrop') || el.hasAttribute('ondragover') || el.hasAttribute('aria-dropeffect') || saysDrop(el)) kind = 'drop';
        else if (hoverSelectors.some((sel) => { try { return el.matches(sel); } catch { return false; } }) || hasHiddenMenu(el)) kind = 'hover';
        kindOf.set(el, kind);
        return kind;
      },
    };
  })();

  // refText (browser_find's text, lower-cased): lines holding it get refs even where a snapshot
  // leaves them out (a plain list item, a table cell), since the agent searching for the text
  // means to act on it.
  const snapshot = ({ selector, ref, maxChars, interactiveOnly, refText }) => {
    const holdsText = (text) => Boolean(refText) && (text ?? '').toLowerCase().includes(refText);
    pointerTargets.prepare(document);
    const start = selector || ref ? resolve({ selector, ref }) : document.body ?? document.documentElement;
    const lines = [];
    const frames = [];
    let size = 0;
    let truncated = false;
    let visited = 0;
    const MAX_NODES = 200000;
    const budget = maxChars - 160; // room for the truncation marker
    const emit = (depth, text) => {
      const line = `${'  '.repeat(depth)}- ${text}`;
      if (size + line.length + 1 > budget) { truncated = true; return false; }
      lines.push(line);
      size += line.length + 1;
      return true;
    };
    const childrenOf = (el) => {
      if (el.tagName === 'SLOT') {
        const assigned = el.assignedNodes({ flatten: true });
        return assigned.length ? assigned : [...el.childNodes];
      }
      const shadow = shadowOf(el);
      if (shadow) return [...shadow.childNodes];
      return [...el.childNodes];
    };
    // `quiet`: only actionable elements are listed below here (inside a field's label, a
    // legend or a summarised table row, whose text is already on the line above).
    const walkChildren = (nodes, depth, quiet) => {
      for (const child of nodes) {
        if (truncated) return;
        walk(child, depth, quiet);
      }
    };
    const optionsOf = (select, depth) => {
      const label = (o) => squash(o.label, 80) + (o.disabled ? ' (disabled)' : '');
      const loose = [];
      let shown = 0;
      for (const child of select.children) {
        if (shown >= MAX_OPTIONS) break;
        if (child.tagName === 'OPTION') { loose.push(label(child)); shown++; }
        else if (child.tagName === 'OPTGROUP') {
          if (loose.length && !emit(depth, `options: ${loose.splice(0).join(' | ')}`)) return;
          const items = [...child.children].filter((o) => o.tagName === 'OPTION').slice(0, MAX_OPTIONS - shown).map(label);
          shown += items.length;
          if (!emit(depth, `group ${JSON.stringify(squash(child.label, 80))}: ${items.join(' | ')}`)) return;
        }
      }
      if (loose.length && !emit(depth, `options: ${loose.join(' | ')}`)) return;
      if (select.options.length > shown) emit(depth, `(${select.options.length - shown} more options; browser_select_option lists them when a value does not match)`);
    };
    const walk = (node, depth, quiet) => {
      if (truncated) return;
      if (++visited > MAX_NODES) { truncated = true; return; }
      if (node.nodeType === Node.TEXT_NODE) {
        if (quiet || interactiveOnly) return;
        const parent = node.parentElement;
        const text = squash(node.textContent, 200);
        // visibility: hidden is inherited: the text of a hidden element is not on screen.
        if (!text || !parent || styleOf(parent).visibility === 'hidden') return;
        const prole = roleOf(parent);
        if (prole && ['button', 'link', 'heading', 'option', 'tab', 'menuitem', 'checkbox', 'radio', 'switch', 'columnheader', 'cell', 'listitem', 'treeitem'].includes(prole) && parent.childNodes.length === 1) return;
        emit(depth, `text: ${text}`);
        return;
      }
      if (node.nodeType !== Node.ELEMENT_NODE) {
        if (node.nodeType === Node.DOCUMENT_FRAGMENT_NODE || node.nodeType === Node.DOCUMENT_NODE) walkChildren([...node.childNodes], depth, quiet);
        return;
      }
      const el = node;
      if (SKIP.has(el.tagName)) return;
      if (el.getAttribute('aria-hidden') === 'true') return;
      const st = styleOf(el);
      if (st.display === 'none') return;
      const hiddenSelf = st.visibility === 'hidden';
      let role = hiddenSelf ? null : roleOf(el);
      // Cells of a row that is not summarised (a layout table): their content speaks for itself.
      if ((el.tagName === 'TD' || el.tagName === 'TH') && !el.hasAttribute('role')) role = null;
      // A label that names a field: the field's line carries the name, so the label adds only
      // what else it holds (a link, say).  Likewise a fieldset's legend names its group and a
      // caption its table.
      if (!quiet && ((el.tagName === 'LABEL' && el.control && !role) || (el.tagName === 'LEGEND' && el.parentElement?.tagName === 'FIELDSET') || el.tagName === 'CAPTION')) {
        walkChildren(childrenOf(el), depth, true);
        return;
      }
      if (!role && !hiddenSelf && el !== start && looksClickable(el, st)) role = 'clickable';
      // A drag source, drop zone or hover target without a role of its own.
      const pointerKind = hiddenSelf ? null : pointerTargets.kind(el);
      if (!role && pointerKind) role = pointerKind === 'drop' ? 'group' : 'clickable';
      let childDepth = depth;
      const show = role && role !== 'none' && role !== 'presentation' && role !== 'generic' &&
        (!(interactiveOnly || quiet) || actionable(el, role) || role === 'clickable' || (role === 'heading' && !quiet));
      if (show) {
        // A table row of plain cells is one line: its cells' text joined by " | ".
        if (el.tagName === 'TR' && role === 'row' && !interactiveOnly && !quiet && plainRow(el)) {
          const cells = [...el.cells];
          const header = cells.length > 0 && cells.every((c) => c.tagName === 'TH');
          const cellText = (c) => { const t = squash(c.innerText, 100); return holdsText(t) ? `${t} [ref=${refOf(c)}]` : t; };
          if (!emit(depth, `row${header ? ' [header]' : ''}: ${cells.map(cellText).join(' | ')}`)) return;
          if (el.querySelector(INTERACTIVE_SELECTOR)) walkChildren(childrenOf(el), depth + 1, true);
          return;
        }
        let name = role === 'clickable' ? squash(el.innerText, 100) : nameOf(el, role);
        // A drag source or hover target with a role but no name (an <article> card, a <li>)
        // is named by its visible text when short, so the line an agent searches for carries
        // the ref; a drop zone by its first heading (a board's column title) or its short text.
        let namedByText = false;
        const shortText = (el.innerText ?? '').length <= 100;
        if (!name && pointerKind === 'drop') {
          const heading = el.querySelector('h1,h2,h3,h4,h5,h6');
          if (heading) name = squash(heading.innerText, 100);
        }
        // Longer text stays in the lines below, where none of it is cut.
        if (!name && pointerKind && shortText) {
          name = squash(el.innerText, 100);
          namedByText = Boolean(name);
        }
        const value = valueOf(el, role);
        const states = statesOf(el, role);
        if (pointerKind) states.push(pointerKind);
        let line = `${role}${name ? ` ${JSON.stringify(name)}` : ''}`;
        // A line found by its text whose element holds controls: the control is what to act on.
        const foundHere = holdsText(name) && !el.querySelector(INTERACTIVE_SELECTOR);
        if (actionable(el, role) || role === 'clickable' || foundHere) line += ` [ref=${refOf(el)}]`;
        if (value !== null && value !== '') line += ` value=${JSON.stringify(squash(value, 200))}`;
        if (el.tagName === 'A' && el.getAttribute('href') && !interactiveOnly) line += ` href=${JSON.stringify(squash(el.getAttribute('href'), 120))}`;
        if (states.length) line += ` [${states.join(', ')}]`;
        if (!emit(depth, line)) return;
        childDepth = depth + 1;
        if (el.tagName === 'SELECT') { optionsOf(el, childDepth); return; }
        if (['button', 'link', 'heading', 'option', 'textbox', 'searchbox', 'combobox', 'listbox', 'checkbox', 'radio', 'img', 'slider', 'spinbutton', 'clickable'].includes(role) &&
          !shadowOf(el) && !el.querySelector(INTERACTIVE_SELECTOR)) return;
        if (role === 'clickable' || namedByText) quiet = true;
      }
      if (el.tagName === 'IFRAME' || el.tagName === 'FRAME') {
        let doc = null;
        try { doc = el.contentDocument; } catch { doc = null; }
        if (!doc) {
          // A cross-origin frame: its own agent snapshots it (the caller splices that in at
          // this marker line).
          if (el.contentWindow) {
            const token = probeOf(el);
            if (emit(childDepth, `(frame ${token})`)) frames.push({ line: lines.length - 1, token, depth: childDepth });
          }
          return;
        }
        if (doc.body) walk(doc.body, childDepth, quiet);
        return;
      }
      walkChildren(childrenOf(el), childDepth, quiet);
    };
    walk(start, 0, false);
    let text = lines.join('\n');
    if (truncated) text += `\n${TRUNC}: snapshot reached maxChars=${maxChars} after ${lines.length} lines; scope it with selector or ref, or use interactiveOnly]`;
    return { url: location.href, title: document.title, snapshot: text, truncated, lines: lines.length, frames, tag: registry.tag };
  };

  // ---- operations --------------------------------------------------------------------------
  const setNativeValue = (el, value) => {
    const proto = el.tagName === 'TEXTAREA' ? HTMLTextAreaElement.prototype : el.tagName === 'SELECT' ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
    Object.getOwnPropertyDescriptor(proto, 'value').set.call(el, value);
  };
  const fire = (el, type, init = {}) => el.dispatchEvent(new Event(type, { bubbles: true, cancelable: true, composed: true, ...init }));

  // What would really receive a click at point c of the top viewport, through frames and
  // shadow roots.
  const hitAt = (c) => {
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
      let doc = null;
      try { doc = hit.contentDocument; } catch { doc = null; }
      if (!doc) break;
      const fr = hit.getBoundingClientRect();
      const inner = doc.elementFromPoint(c.x - fr.left - hit.clientLeft, c.y - fr.top - hit.clientTop);
      if (!inner) break;
      hit = inner;
    }
    return hit;
  };
  // A scroll still under way (a wheel turn scrolls smoothly) moves an element after its point
  // was taken: wait until its box reads the same twice a frame apart, for at most half a second.
  const settled = async (el) => {
    let last = JSON.stringify(el.getBoundingClientRect());
    for (let frames = 0; frames < 30; frames++) {
      await new Promise((done) => setTimeout(done, 16));
      const now = JSON.stringify(el.getBoundingClientRect());
      if (now === last) return;
      last = now;
    }
  };
  const receives = (el, hit) => Boolean(hit) && (hit === el || el.contains(hit) || (hit.contains?.(el) === false && Boolean(shadowOf(el)?.contains(hit))));

  const ops = {
    snapshot,

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

    focus(a) {
      const el = resolve(a);
      el.focus();
      return describe(el);
    },

    // Focuses a field for typing through the keyboard: the caret goes to the end, or with
    // a.clear the whole content is selected so the typed text replaces it.
    prepareTyping(a) {
      const el = resolve(a);
      const field = el.tagName === 'INPUT' || el.tagName === 'TEXTAREA';
      if (!field && !el.isContentEditable) fail(`Element ${a.ref ?? a.selector} (${el.tagName.toLowerCase()}) is not a text field or contenteditable; type into a field, or press keys with browser_press_key`);
      if (field && (el.disabled || el.readOnly)) fail(`Element ${a.ref ?? a.selector} is ${el.disabled ? 'disabled' : 'read-only'}`);
      scrollIntoViewIfNeeded(el);
      el.focus();
      const doc = el.ownerDocument;
      const hadText = field ? el.value !== '' : el.innerText.trim() !== '';
      if (field) {
        const end = el.value.length;
        // Inputs of type email or number have no selection API.
        try { if (a.clear) el.setSelectionRange(0, end); else el.setSelectionRange(end, end); } catch { if (a.clear) el.select(); }
      } else {
        const range = doc.createRange();
        range.selectNodeContents(el);
        if (!a.clear) range.collapse(false);
        const sel = doc.getSelection();
        sel.removeAllRanges();
        sel.addRange(range);
      }
      const focusRoot = el.getRootNode(); // a shadow root's activeElement names its own focus
      if (focusRoot.activeElement !== el && !el.contains(focusRoot.activeElement)) fail(`Element ${a.ref ?? a.selector} did not take focus`);
      return { ...describe(el), hadText };
    },

    fieldValue(a) {
      const el = resolve(a);
      const field = el.tagName === 'INPUT' || el.tagName === 'TEXTAREA';
      return { ...describe(el), value: field ? (el.type === 'password' ? '(hidden)' : el.value) : el.innerText };
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

    select(a) {
      const el = resolve(a);
      if (el.tagName !== 'SELECT') fail(`Element ${a.ref ?? a.selector} is a <${el.tagName.toLowerCase()}>, not a <select>`);
      if (a.value === undefined && a.label === undefined) fail('Give value or label');
      const opt = [...el.options].find((o) => (a.value !== undefined ? o.value === a.value : o.label.trim() === a.label.trim()));
      if (!opt) {
        const available = [...el.options].slice(0, 30).map((o) => `${o.value} (${o.label})`).join(', ');
        fail(`No option with ${a.value !== undefined ? `value '${a.value}'` : `label '${a.label}'`}; options: ${available}`);
      }
      el.focus();
      opt.selected = true;
      fire(el, 'input');
      fire(el, 'change');
      return { ...describe(el), value: el.value, label: opt.label };
    },

    scroll(a) {
      const target = a.selector || a.ref ? resolve(a) : null;
      if (target && !a.direction && !a.position) {
        target.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
        return { scrolledIntoView: describe(target), pageX: window.scrollX, pageY: window.scrollY };
      }
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
      return {
        count: shown.length,
        truncated: els.length > a.limit,
        elements: shown.map((el) => {
          const r = el.getBoundingClientRect();
          const item = { ...describe(el), visible: isVisible(el), rect: { x: Math.round(r.x), y: Math.round(r.y), width: Math.round(r.width), height: Math.round(r.height) } };
          if (a.attributes?.length) {
            item.attributes = {};
            for (const name of a.attributes) if (el.hasAttribute(name)) item.attributes[name] = el.getAttribute(name).slice(0, 2000);
          } else if (el.id || el.className) {
            item.attributes = {};
            if (el.id) item.attributes.id = el.id;
            if (typeof el.className === 'string' && el.className) item.attributes.class = el.className.slice(0, 200);
          }
          return item;
        }),
      };
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
        if (chars + k.length + v.length > 200000) { truncated = true; break; }
        chars += k.length + v.length;
        entries[k] = v;
      }
      return { storageType: a.storageType, origin: location.origin, count: store.length, entries, truncated };
    },

    nodePath(a) {
      // For CDP DOM lookups: mark the element so DOM.querySelector can find it from the root.
      const el = resolve(a);
      if (el.ownerDocument !== document || el.getRootNode() !== document) fail('CSS inspection works on elements of the top document only (not inside iframes or shadow roots)');
      const token = `ot${Math.random().toString(36).slice(2)}`;
      el.setAttribute('data-opentabs-inspect', token);
      return { token };
    },

    // Where a cross-origin child frame's viewport starts, in this frame's top-most reachable
    // viewport coordinates (the child is found by its probe token), scrolled into view.
    frameOrigin(a) {
      const el = registry.probes.get(a.token)?.deref();
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
      for (const token of a.tokens) registry.probes.get(token)?.deref()?.contentWindow?.postMessage({ __opentabsFrameProbe: token }, '*');
      return true;
    },

    unmark(a) {
      for (const el of document.querySelectorAll(`[data-opentabs-inspect="${a.token}"]`)) el.removeAttribute('data-opentabs-inspect');
      return true;
    },

    // ---- actions.js: waits for text, multi-field fill, element boxes, file inputs ----------
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

    fillForm(a) {
      // Resolve every field first, so a bad field changes nothing.
      const targets = a.fields.map((f, i) => {
        let el;
        try { el = resolve(f); } catch (err) {
          if (err instanceof AgentError) fail(`fields[${i}]: ${err.message}`);
          throw err;
        }
        const what = f.ref ?? f.selector;
        const kind = el.tagName === 'INPUT' && ['checkbox', 'radio'].includes(el.type) ? 'check'
          : el.tagName === 'SELECT' ? 'select'
          : (el.tagName === 'INPUT' && !['button', 'submit', 'reset', 'image', 'file', 'hidden'].includes(el.type)) || el.tagName === 'TEXTAREA' ? 'text'
          : el.isContentEditable ? 'editable' : null;
        if (!kind) fail(`fields[${i}] (${what}) is a <${el.tagName.toLowerCase()}${el.type ? ` type=${el.type}` : ''}>, not a fillable field`);
        if (el.disabled) fail(`fields[${i}] (${what}) is disabled`);
        if (kind === 'text' && el.readOnly) fail(`fields[${i}] (${what}) is read-only`);
        let option = null;
        if (kind === 'select') {
          const v = String(f.value);
          option = [...el.options].find((o) => o.value === v) ?? [...el.options].find((o) => o.label.trim() === v.trim());
          if (!option) fail(`fields[${i}] (${what}): no option with value or label ${JSON.stringify(v)}; options: ${[...el.options].slice(0, 30).map((o) => `${o.value} (${o.label})`).join(', ')}`);
        }
        let checked = null;
        if (kind === 'check') {
          const v = f.value;
          if (v === true || v === 'true' || v === 'on' || v === 'checked') checked = true;
          else if (v === false || v === 'false' || v === 'off' || v === '') checked = false;
          else fail(`fields[${i}] (${what}) is a ${el.type}: give true or false`);
        }
        return { el, kind, option, checked, value: f.value };
      });
      const out = [];
      for (const t of targets) {
        const { el } = t;
        el.focus();
        if (t.kind === 'check') {
          // A real click toggles it and runs the page's handlers; a radio cannot be unchecked by a click.
          if (el.checked !== t.checked) {
            if (t.checked || el.type === 'checkbox') el.click();
            else { el.checked = false; fire(el, 'input'); fire(el, 'change'); }
          }
          out.push({ ...describe(el), checked: el.checked });
        } else if (t.kind === 'select') {
          t.option.selected = true;
          fire(el, 'input');
          fire(el, 'change');
          out.push({ ...describe(el), value: el.value, label: t.option.label });
        } else if (t.kind === 'text') {
          setNativeValue(el, String(t.value));
          el.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText', data: String(t.value) }));
          fire(el, 'change');
          out.push({ ...describe(el), value: el.type === 'password' ? '(hidden)' : el.value });
        } else {
          const doc = el.ownerDocument;
          doc.execCommand('selectAll');
          doc.execCommand('insertText', false, String(t.value));
          out.push({ ...describe(el), value: el.innerText });
        }
      }
      return { filled: out.length, fields: out };
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

    markFileInput(a) {
      const el = resolve(a);
      if (el.tagName !== 'INPUT' || el.type !== 'file') fail(`Element ${a.ref ?? a.selector} is a <${el.tagName.toLowerCase()}${el.type ? ` type=${el.type}` : ''}>, not an <input type=file>`);
      if (el.disabled) fail(`Element ${a.ref ?? a.selector} is disabled`);
      if (el.ownerDocument !== document || el.getRootNode() !== document) fail('File upload works on inputs of the top document only (not inside iframes or shadow roots)');
      if (!el.multiple && a.count > 1) fail(`Element ${a.ref ?? a.selector} takes one file (no multiple attribute); ${a.count} were given`);
      const token = `ot${Math.random().toString(36).slice(2)}`;
      el.setAttribute('data-opentabs-inspect', token);
      return { ...describe(el), token };
    },
  };

  const fn = ops[op];
  if (!fn) return { __error: `unknown page operation ${op}` };
  try {
    const value = fn(args ?? {});
    if (value && typeof value.then === 'function') {
      return value.then((v) => ({ value: v }), (err) => ({ __error: err instanceof AgentError ? err.message : `${err?.name ?? 'Error'}: ${err?.message ?? err}`, __expected: err instanceof AgentError }));
    }
    return { value };
  } catch (err) {
    return { __error: err instanceof AgentError ? err.message : `${err?.name ?? 'Error'}: ${err?.message ?? err}`, __expected: err instanceof AgentError };
  }
}

// Documents of cross-origin frames whose refs a snapshot handed out, per tab: ref tag ->
// {frameId, documentId, token, parent} (token: the frame's probe token in its parent document;
// parent: the parent's entry, null for the top document).  A ref with such a tag is run in that document (by
// documentId, so a frame that navigated since refuses it); any other ref or selector runs in
// the top frame.  Kept in memory only: after a service-worker restart such refs are refused
// like refs of a document that went away (take a new snapshot).
const MAX_FRAME_DOCS_PER_TAB = 200;
const frameDocs = new Map();

export function rememberFrameDocument(tabId, tag, info) {
  if (!tag || !info?.documentId) return;
  let docs = frameDocs.get(tabId);
  if (!docs) { docs = new Map(); frameDocs.set(tabId, docs); }
  docs.delete(tag);
  docs.set(tag, info);
  while (docs.size > MAX_FRAME_DOCS_PER_TAB) docs.delete(docs.keys().next().value);
}

globalThis.chrome?.tabs?.onRemoved?.addListener((tabId) => frameDocs.delete(tabId));

const tagOfRef = (ref) => (typeof ref === 'string' ? /^e[0-9]+@([0-9a-z]+)$/.exec(ref)?.[1] : undefined);

export function frameOfRef(tabId, ref) {
  const tag = tagOfRef(ref);
  return tag ? frameDocs.get(tabId)?.get(tag) ?? null : null;
}

// Runs one page operation (ISOLATED world) and returns {value, frameId, documentId}, or
// throws a ProtocolError with the page's explanation.  `where` is {frameId} or a remembered
// frame document; by default the ref's frame document, else the top frame.
export async function runPageOpIn(tabId, op, args, where) {
  const frame = where ?? frameOfRef(tabId, args?.ref);
  const target = frame?.documentId ? { tabId, documentIds: [frame.documentId] }
    : frame?.frameId !== undefined ? { tabId, frameIds: [frame.frameId] } : { tabId };
  // A tab blocked by a JavaScript dialog cannot run anything: say so at once, naming the
  // dialog, rather than wait for the dispatch timeout; likewise when one opens meanwhile.
  const blocked = await verifiedDialog(tabId);
  if (blocked) throw blockedError(tabId, blocked);
  const dialog = nextDialog(tabId);
  let results;
  try {
    results = await Promise.race([
      chrome.scripting.executeScript({ target, world: 'ISOLATED', func: pageAgent, args: [op, args ?? {}] }),
      dialog.promise.then((d) => { throw blockedError(tabId, d); }),
    ]);
  } catch (err) {
    if (err instanceof ProtocolError) throw err;
    if (frame?.documentId && args?.ref) {
      throw new ProtocolError(ERR_INVALID_PARAMS, `Ref '${args.ref}' is from a frame document that is no longer in this tab (the frame navigated or was removed); take a new browser_snapshot and use its refs`);
    }
    throw new ProtocolError(ERR_INTERNAL, `Cannot run in tab ${tabId}${frame ? ` (frame ${frame.frameId})` : ''}: ${err?.message ?? err}`);
  } finally {
    dialog.cancel();
  }
  const first = results?.[0];
  const out = first?.result;
  if (!out) throw new ProtocolError(ERR_INTERNAL, `No result from tab ${tabId} (the page may have navigated)`);
  if (out.__error) throw new ProtocolError(out.__expected ? ERR_INVALID_PARAMS : ERR_INTERNAL, out.__error);
  return { value: out.value, frameId: first.frameId ?? frame?.frameId ?? 0, documentId: first.documentId, frame };
}

// Runs one page operation and returns its value.  An element located inside a cross-origin
// frame gets the frame's offset added, so its x/y are viewport coordinates of the tab (what
// CDP input events take: the browser routes them into the frame).
export async function runPageOp(tabId, op, args) {
  const { value, frame } = await runPageOpIn(tabId, op, args);
  if (op === 'locate' && frame) {
    let child = frame;
    for (let hops = 0; child && hops < 10; hops++) {
      const parent = child.parent;
      const { value: origin } = await runPageOpIn(tabId, 'frameOrigin', { token: child.token }, parent ?? { frameId: 0 });
      value.x += origin.x;
      value.y += origin.y;
      child = parent;
    }
  }
  return value;
}
