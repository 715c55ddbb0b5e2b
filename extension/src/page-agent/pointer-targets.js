// Drag sources, drop zones and hover targets, which have no role of their own.  Listeners
// added from script cannot be seen from here, so they are recognised by what they show:
// a drag source by draggable="true", a grab cursor or inline drag handlers; a drop zone by
// inline drop handlers, aria-dropeffect, words that ask for a drop ("Drop files here"), or
// as the container of drag sources (and its siblings of the same tag and class: the empty
// columns of a board); a hover target by a :hover rule of the page's style sheets that names
// it, or by a hidden, absolutely placed child holding links or buttons (a menu panel its
// parent opens on mouseenter).
//
// A set of pointer targets belongs to one snapshot: it is made, prepared for the document and
// dropped with it, so nothing it learnt leaks into the next call.
(() => {
  'use strict';
  const parts = globalThis.__opentabsAgentParts;
  const { styleOf, roleOf } = parts;

  // How many style rules are read for :hover selectors, so a huge style sheet costs little.
  const MAX_STYLE_RULES = 5000;

  // A zone that tells the user to drop onto it ("Drop files here"), in its label or own text.
  function saysDrop(el) {
    const role = roleOf(el);
    if (role && role !== 'generic' && role !== 'group' && role !== 'region') return false;
    const label = el.getAttribute('aria-label') ?? [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent).join(' ');
    return label.length <= 100 && /\b(drop|drag)\b(?!-?down)/i.test(label);
  }

  function hasHiddenMenu(el) {
    for (const child of el.children) {
      const cs = styleOf(child);
      const hidden = cs.display === 'none' || cs.visibility === 'hidden';
      if (hidden && cs.position === 'absolute' && child.querySelector('a[href],button,[role=menuitem],li')) return true;
    }
    return false;
  }

  // The containers of the document's drag sources, and their siblings of the same tag and class.
  function dropZonesOf(root) {
    const drops = new Set();
    for (const src of root.querySelectorAll('[draggable="true"],[ondragstart]')) {
      const parent = src.parentElement;
      if (!parent || parent === root.body || parent === root.documentElement || drops.has(parent)) continue;
      drops.add(parent);
      for (const sib of parent.parentElement?.children ?? []) {
        if (sib.tagName === parent.tagName && sib.className === parent.className) drops.add(sib);
      }
    }
    return drops;
  }

  // The selectors of the elements hovered in a selector list's :hover parts.  The element
  // hovered is the compound the :hover is on: what follows it is cut, and a part whose
  // :hover follows a combinator names no element.
  function hoveredSelectors(selectorText) {
    const out = [];
    for (const part of selectorText.split(',')) {
      const at = part.indexOf(':hover');
      if (at < 0) continue;
      const target = part.slice(0, at).trim();
      if (target && !/[>+~]$/.test(target)) out.push(target);
    }
    return out;
  }

  // Every hovered selector of the style sheets (rules nested in @media and the like included),
  // skipping sheets whose rules cannot be read (cross-origin ones).
  function hoverSelectorsOf(styleSheets) {
    const selectors = [];
    let rules = 0;
    const scan = (list) => {
      for (const rule of list) {
        if (++rules > MAX_STYLE_RULES) return;
        if (rule.cssRules) scan(rule.cssRules);
        const text = rule.selectorText;
        if (text && text.includes(':hover')) selectors.push(...hoveredSelectors(text));
      }
    };
    for (const sheet of styleSheets ?? []) {
      try { scan(sheet.cssRules); } catch { /* a cross-origin sheet */ }
    }
    return selectors;
  }

  function matchesAny(el, selectors) {
    return selectors.some((sel) => { try { return el.matches(sel); } catch { return false; } });
  }

  function kindOfElement(el, drops, hoverSelectors) {
    const st = styleOf(el);
    if (el.getAttribute('draggable') === 'true' || el.hasAttribute('ondragstart') || st.cursor === 'grab' || st.cursor === 'move') return 'draggable';
    if (drops.has(el) || el.hasAttribute('ondrop') || el.hasAttribute('ondragover') || el.hasAttribute('aria-dropeffect') || saysDrop(el)) return 'drop';
    if (matchesAny(el, hoverSelectors) || hasHiddenMenu(el)) return 'hover';
    return null;
  }

  // kind(el): 'draggable', 'drop', 'hover' or null, remembered per element for this set.
  function createPointerTargets() {
    let drops = new Set();
    let hoverSelectors = [];
    const kindOf = new WeakMap();
    return {
      prepare(root) {
        drops = dropZonesOf(root);
        hoverSelectors = hoverSelectorsOf(root.styleSheets);
      },
      kind(el) {
        if (!kindOf.has(el)) kindOf.set(el, kindOfElement(el, drops, hoverSelectors));
        return kindOf.get(el);
      },
    };
  }

  Object.assign(parts, { hoveredSelectors, hoverSelectorsOf, createPointerTargets });
})();
