// What an element is, in the terms of an accessibility tree: its role, accessible name,
// states and value, as the snapshot lists them, and which elements look clickable without a
// role of their own.
(() => {
  'use strict';
  const parts = globalThis.__opentabsAgentParts;
  const { styleOf } = parts;

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
  // Roles whose accessible name is their text.
  const NAMED_BY_TEXT = ['button', 'link', 'heading', 'option', 'tab', 'menuitem', 'listitem', 'cell', 'columnheader',
    'label', 'switch', 'checkbox', 'radio', 'treeitem', 'menuitemcheckbox', 'menuitemradio'];
  const INTERACTIVE_SELECTOR = 'a[href],button,input:not([type=hidden]),select,textarea,[role],[contenteditable],[onclick],[tabindex],iframe,frame';

  function roleOf(el) {
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
  }

  // Whitespace collapsed, cut to `max` characters with an ellipsis.
  function squash(s, max = 100) {
    const t = String(s ?? '').replace(/\s+/g, ' ').trim();
    return t.length > max ? `${t.slice(0, max - 1)}…` : t;
  }

  // A label's own words: not the options or value of a field nested in it.
  function labelWords(label) {
    const copy = label.cloneNode(true);
    for (const n of copy.querySelectorAll('select,textarea,button,datalist')) n.remove();
    return copy.textContent;
  }

  function nameOfField(el) {
    const labels = el.labels ? [...el.labels] : [];
    if (labels.length) return squash(labels.map(labelWords).join(' '));
    if (el.tagName === 'INPUT' && ['button', 'submit', 'reset'].includes(el.type)) return squash(el.value);
    return squash(el.getAttribute('placeholder') || el.getAttribute('title') || el.getAttribute('name') || '');
  }

  function nameOfLabelledBy(el) {
    const labelledBy = el.getAttribute('aria-labelledby');
    if (!labelledBy) return '';
    const doc = el.getRootNode();
    const text = labelledBy.split(/\s+/).map((id) => doc.getElementById?.(id)?.textContent ?? '').join(' ');
    return text.trim() ? squash(text) : '';
  }

  function nameOf(el, role) {
    const aria = el.getAttribute('aria-label');
    if (aria) return squash(aria);
    const labelled = nameOfLabelledBy(el);
    if (labelled) return labelled;
    if (['INPUT', 'SELECT', 'TEXTAREA'].includes(el.tagName)) return nameOfField(el);
    if (el.tagName === 'IMG') return squash(el.getAttribute('alt') || el.getAttribute('title') || '');
    if (el.tagName === 'TABLE' && el.caption) return squash(el.caption.textContent);
    if (el.tagName === 'FIELDSET') {
      const legend = [...el.children].find((c) => c.tagName === 'LEGEND');
      if (legend) return squash(legend.textContent);
    }
    if (el.tagName === 'IFRAME' || el.tagName === 'FRAME') return squash(el.getAttribute('title') || el.getAttribute('name') || el.getAttribute('src') || '');
    if (NAMED_BY_TEXT.includes(role) || el.tagName === 'SUMMARY') return squash(el.innerText ?? el.textContent);
    return squash(el.getAttribute('title') || '');
  }

  function isChecked(el) {
    if (el.tagName === 'INPUT' && (el.type === 'checkbox' || el.type === 'radio')) return el.checked;
    return el.getAttribute('aria-checked') === 'true';
  }

  function statesOf(el, role) {
    const s = [];
    if (isChecked(el)) s.push('checked');
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
  }

  function valueOf(el, role) {
    if (el.tagName === 'INPUT' && !['checkbox', 'radio', 'button', 'submit', 'reset', 'image'].includes(el.type)) {
      return el.type === 'password' ? (el.value ? '••••' : '') : el.value;
    }
    if (el.tagName === 'TEXTAREA') return el.value;
    if (el.tagName === 'SELECT') return [...el.selectedOptions].map((o) => o.label).join(', ');
    if (role === 'textbox' && el.isContentEditable) return el.innerText;
    if (el.getAttribute('aria-valuenow')) return el.getAttribute('aria-valuenow');
    return null;
  }

  // An element without a role that still looks clickable (its own pointer cursor, an inline
  // handler or a tabindex): listed as "clickable" so an agent can reach it.
  const looksClickable = (el, st) => el.hasAttribute('onclick') || (el.hasAttribute('tabindex') && el.tabIndex >= 0) ||
    (st.cursor === 'pointer' && (!el.parentElement || styleOf(el.parentElement).cursor !== 'pointer'));

  // A row of a data table, not of a layout table: short cells without structure of their own,
  // none of them clickable (the day cells of a date picker each need a ref).
  const plainRow = (tr) => [...tr.cells].every((c) => (c.innerText ?? '').length <= 300 &&
    !c.querySelector('table,h1,h2,h3,h4,h5,h6,ul,ol,p,form,fieldset,iframe,frame') && styleOf(c).cursor !== 'pointer');

  Object.assign(parts, {
    INTERACTIVE, LANDMARKS, INTERACTIVE_SELECTOR, roleOf, squash, nameOf, statesOf, valueOf, looksClickable, plainRow,
  });
})();
