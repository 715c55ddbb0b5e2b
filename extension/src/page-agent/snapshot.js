// The accessibility-style snapshot: one line per element worth naming, indented by depth,
// with refs on what an agent can act on.  One walk's state (lines, size, frames, pointer
// targets) lives in an object made per snapshot and handed down the walk.
(() => {
  'use strict';
  const parts = globalThis.__opentabsAgentParts;
  const {
    TRUNCATION_MARKER, currentRegistry, refOf, probeOf, resolve, shadowOf, frameDocumentOf, styleOf, createPointerTargets,
    INTERACTIVE, LANDMARKS, INTERACTIVE_SELECTOR, roleOf, squash, nameOf, statesOf, valueOf, looksClickable, plainRow,
  } = parts;

  const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'META', 'LINK', 'svg', 'SVG']);
  const MAX_OPTIONS = 100;
  const MAX_NODES = 200000;
  // Room kept for the truncation marker.
  const MARKER_ROOM = 160;
  // A text whose parent has one of these roles and no other child is that parent's name.
  const TEXT_NAMED_ROLES = ['button', 'link', 'heading', 'option', 'tab', 'menuitem', 'checkbox', 'radio', 'switch',
    'columnheader', 'cell', 'listitem', 'treeitem'];
  // Roles whose line says all there is, unless they hold controls or a shadow root.
  const LEAF_ROLES = ['button', 'link', 'heading', 'option', 'textbox', 'searchbox', 'combobox', 'listbox', 'checkbox',
    'radio', 'img', 'slider', 'spinbutton', 'clickable'];

  // Elements that get a ref: what an agent can act on (interactive roles, focusable or
  // script-clickable elements), frames and dialogs, which a snapshot can be scoped to,
  // headings and landmarks, which an agent scrolls to or drops onto, and the drag sources,
  // drop zones and hover targets of the pointer targets.  Cells, plain list items and text
  // carry no ref: they are read, not acted on.
  const actionable = (el, role, pointers) => INTERACTIVE.has(role) || role === 'heading' ||
    (LANDMARKS.has(role) && (role !== 'form' || nameOf(el, role))) || role === 'iframe' || role === 'dialog' || role === 'alertdialog' ||
    pointers.kind(el) !== null ||
    el.tagName === 'SUMMARY' || el.hasAttribute('onclick') || (el.hasAttribute('tabindex') && el.tabIndex >= 0) ||
    (el.isContentEditable && el.getAttribute('contenteditable') !== null);

  // refText (browser_find's text, lower-cased): lines holding it get refs even where a snapshot
  // leaves them out (a plain list item, a table cell), since the agent searching for the text
  // means to act on it.
  const holdsText = (walk, text) => Boolean(walk.refText) && (text ?? '').toLowerCase().includes(walk.refText);

  function emit(walk, depth, text) {
    const line = `${'  '.repeat(depth)}- ${text}`;
    if (walk.size + line.length + 1 > walk.budget) { walk.truncated = true; return false; }
    walk.lines.push(line);
    walk.size += line.length + 1;
    return true;
  }

  function childrenOf(el) {
    if (el.tagName === 'SLOT') {
      const assigned = el.assignedNodes({ flatten: true });
      return assigned.length ? assigned : [...el.childNodes];
    }
    const shadow = shadowOf(el);
    if (shadow) return [...shadow.childNodes];
    return [...el.childNodes];
  }

  // `quiet`: only actionable elements are listed below here (inside a field's label, a
  // legend or a summarised table row, whose text is already on the line above).
  function walkChildren(walk, nodes, depth, quiet) {
    for (const child of nodes) {
      if (walk.truncated) return;
      walkNode(walk, child, depth, quiet);
    }
  }

  function optionsOf(walk, select, depth) {
    const label = (o) => squash(o.label, 80) + (o.disabled ? ' (disabled)' : '');
    const loose = [];
    let shown = 0;
    for (const child of select.children) {
      if (shown >= MAX_OPTIONS) break;
      if (child.tagName === 'OPTION') { loose.push(label(child)); shown++; }
      else if (child.tagName === 'OPTGROUP') {
        if (loose.length && !emit(walk, depth, `options: ${loose.splice(0).join(' | ')}`)) return;
        const items = [...child.children].filter((o) => o.tagName === 'OPTION').slice(0, MAX_OPTIONS - shown).map(label);
        shown += items.length;
        if (!emit(walk, depth, `group ${JSON.stringify(squash(child.label, 80))}: ${items.join(' | ')}`)) return;
      }
    }
    if (loose.length && !emit(walk, depth, `options: ${loose.join(' | ')}`)) return;
    if (select.options.length > shown) emit(walk, depth, `(${select.options.length - shown} more options; browser_select_option lists them when a value does not match)`);
  }

  function walkText(walk, node, depth, quiet) {
    if (quiet || walk.interactiveOnly) return;
    const parent = node.parentElement;
    const text = squash(node.textContent, 200);
    // visibility: hidden is inherited: the text of a hidden element is not on screen.
    if (!text || !parent || styleOf(parent).visibility === 'hidden') return;
    const parentRole = roleOf(parent);
    if (parentRole && TEXT_NAMED_ROLES.includes(parentRole) && parent.childNodes.length === 1) return;
    emit(walk, depth, `text: ${text}`);
  }

  function walkNode(walk, node, depth, quiet) {
    if (walk.truncated) return;
    if (++walk.visited > MAX_NODES) { walk.truncated = true; return; }
    if (node.nodeType === Node.TEXT_NODE) { walkText(walk, node, depth, quiet); return; }
    if (node.nodeType === Node.ELEMENT_NODE) { walkElement(walk, node, depth, quiet); return; }
    if (node.nodeType === Node.DOCUMENT_FRAGMENT_NODE || node.nodeType === Node.DOCUMENT_NODE) walkChildren(walk, [...node.childNodes], depth, quiet);
  }

  // The role an element shows before clickability and pointer targets are considered.
  function ownRole(el, hiddenSelf) {
    if (hiddenSelf) return null;
    // Cells of a row that is not summarised (a layout table): their content speaks for itself.
    if ((el.tagName === 'TD' || el.tagName === 'TH') && !el.hasAttribute('role')) return null;
    return roleOf(el);
  }

  // A label that names a field: the field's line carries the name, so the label adds only
  // what else it holds (a link, say).  Likewise a fieldset's legend names its group and a
  // caption its table.
  const namesAnother = (el, role) => (el.tagName === 'LABEL' && el.control && !role) ||
    (el.tagName === 'LEGEND' && el.parentElement?.tagName === 'FIELDSET') || el.tagName === 'CAPTION';

  const shown = (walk, el, role, quiet) => Boolean(role) && role !== 'none' && role !== 'presentation' && role !== 'generic' &&
    (!(walk.interactiveOnly || quiet) || actionable(el, role, walk.pointers) || role === 'clickable' || (role === 'heading' && !quiet));

  function walkElement(walk, el, depth, quiet) {
    if (SKIP.has(el.tagName)) return;
    if (el.getAttribute('aria-hidden') === 'true') return;
    const st = styleOf(el);
    if (st.display === 'none') return;
    const hiddenSelf = st.visibility === 'hidden';
    let role = ownRole(el, hiddenSelf);
    if (!quiet && namesAnother(el, role)) { walkChildren(walk, childrenOf(el), depth, true); return; }
    if (!role && !hiddenSelf && el !== walk.start && looksClickable(el, st)) role = 'clickable';
    // A drag source, drop zone or hover target without a role of its own.
    const pointerKind = hiddenSelf ? null : walk.pointers.kind(el);
    if (!role && pointerKind) role = pointerKind === 'drop' ? 'group' : 'clickable';
    let childDepth = depth;
    let childQuiet = quiet;
    if (shown(walk, el, role, quiet)) {
      const below = emitElement(walk, el, role, pointerKind, depth, quiet);
      if (!below) return;
      childDepth = depth + 1;
      childQuiet = below.quiet;
    }
    if (el.tagName === 'IFRAME' || el.tagName === 'FRAME') { walkFrame(walk, el, childDepth, childQuiet); return; }
    walkChildren(walk, childrenOf(el), childDepth, childQuiet);
  }

  // Writes an element's line (and its options or row); returns null when nothing below it is
  // to be walked, else {quiet} for its children.
  function emitElement(walk, el, role, pointerKind, depth, quiet) {
    if (el.tagName === 'TR' && role === 'row' && !walk.interactiveOnly && !quiet && plainRow(el)) {
      emitRow(walk, el, depth);
      return null;
    }
    const { name, namedByText } = lineName(el, role, pointerKind);
    if (!emit(walk, depth, elementLine(walk, el, role, name, pointerKind))) return null;
    if (el.tagName === 'SELECT') { optionsOf(walk, el, depth + 1); return null; }
    if (LEAF_ROLES.includes(role) && !shadowOf(el) && !el.querySelector(INTERACTIVE_SELECTOR)) return null;
    return { quiet: quiet || role === 'clickable' || namedByText };
  }

  // A table row of plain cells is one line: its cells' text joined by " | ".
  function emitRow(walk, tr, depth) {
    const cells = [...tr.cells];
    const header = cells.length > 0 && cells.every((c) => c.tagName === 'TH');
    const cellText = (c) => { const t = squash(c.innerText, 100); return holdsText(walk, t) ? `${t} [ref=${refOf(c)}]` : t; };
    if (!emit(walk, depth, `row${header ? ' [header]' : ''}: ${cells.map(cellText).join(' | ')}`)) return;
    if (tr.querySelector(INTERACTIVE_SELECTOR)) walkChildren(walk, childrenOf(tr), depth + 1, true);
  }

  // A drag source or hover target with a role but no name (an <article> card, a <li>) is
  // named by its visible text when short, so the line an agent searches for carries the ref;
  // a drop zone by its first heading (a board's column title) or its short text.  Longer text
  // stays in the lines below, where none of it is cut.
  function lineName(el, role, pointerKind) {
    let name = role === 'clickable' ? squash(el.innerText, 100) : nameOf(el, role);
    let namedByText = false;
    const shortText = (el.innerText ?? '').length <= 100;
    if (!name && pointerKind === 'drop') {
      const heading = el.querySelector('h1,h2,h3,h4,h5,h6');
      if (heading) name = squash(heading.innerText, 100);
    }
    if (!name && pointerKind && shortText) {
      name = squash(el.innerText, 100);
      namedByText = Boolean(name);
    }
    return { name, namedByText };
  }

  function elementLine(walk, el, role, name, pointerKind) {
    const value = valueOf(el, role);
    const states = statesOf(el, role);
    if (pointerKind) states.push(pointerKind);
    let line = `${role}${name ? ` ${JSON.stringify(name)}` : ''}`;
    // A line found by its text whose element holds controls: the control is what to act on.
    const foundHere = holdsText(walk, name) && !el.querySelector(INTERACTIVE_SELECTOR);
    if (actionable(el, role, walk.pointers) || role === 'clickable' || foundHere) line += ` [ref=${refOf(el)}]`;
    if (value !== null && value !== '') line += ` value=${JSON.stringify(squash(value, 200))}`;
    if (el.tagName === 'A' && el.getAttribute('href') && !walk.interactiveOnly) line += ` href=${JSON.stringify(squash(el.getAttribute('href'), 120))}`;
    if (states.length) line += ` [${states.join(', ')}]`;
    return line;
  }

  function walkFrame(walk, frame, depth, quiet) {
    const doc = frameDocumentOf(frame);
    if (doc) {
      if (doc.body) walkNode(walk, doc.body, depth, quiet);
      return;
    }
    // A cross-origin frame: its own agent snapshots it (the caller splices that in at this
    // marker line).
    if (!frame.contentWindow) return;
    const token = probeOf(frame);
    if (emit(walk, depth, `(frame ${token})`)) walk.frames.push({ line: walk.lines.length - 1, token, depth });
  }

  function snapshot({ selector, ref, maxChars, interactiveOnly, refText }) {
    const pointers = createPointerTargets();
    pointers.prepare(document);
    const start = selector || ref ? resolve({ selector, ref }) : document.body ?? document.documentElement;
    const walk = {
      start, interactiveOnly, refText, pointers, lines: [], frames: [], size: 0, truncated: false, visited: 0,
      budget: maxChars - MARKER_ROOM,
    };
    walkNode(walk, start, 0, false);
    let text = walk.lines.join('\n');
    if (walk.truncated) text += `\n${TRUNCATION_MARKER}: snapshot reached maxChars=${maxChars} after ${walk.lines.length} lines; scope it with selector or ref, or use interactiveOnly]`;
    return {
      url: location.href, title: document.title, snapshot: text, truncated: walk.truncated, lines: walk.lines.length,
      frames: walk.frames, tag: currentRegistry().tag,
    };
  }

  (parts.ops ??= Object.create(null)).snapshot = snapshot;
})();
