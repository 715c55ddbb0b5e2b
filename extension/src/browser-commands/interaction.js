// Page interaction by CSS selector or snapshot ref, inside same-origin iframes and open shadow
// roots too.  Clicks and key presses are trusted input events sent through CDP
// (Input.dispatchMouseEvent / dispatchKeyEvent) to the tab where it is, without activating it;
// the debugger detaches again after an idle period.  Typing, selecting, hovering and
// scrolling are scripted and need no debugger at all.

import { ProtocolError, ERR_INTERNAL } from '../shared/constants.js';
import { str, tabId as requireTabId, target, invalid } from './params.js';
import { runPageOp } from './page-agent.js';
import { withDebugger, onEvent } from './debugger.js';
import { verifiedDialog, openDialogOf, dialogClosed, describeDialog } from './dialogs.js';

const NAMED_KEYS = {
  Enter: { code: 'Enter', keyCode: 13, text: '\r' }, Tab: { code: 'Tab', keyCode: 9 }, Escape: { code: 'Escape', keyCode: 27 },
  Backspace: { code: 'Backspace', keyCode: 8 }, Delete: { code: 'Delete', keyCode: 46 }, Insert: { code: 'Insert', keyCode: 45 },
  ArrowUp: { code: 'ArrowUp', keyCode: 38 }, ArrowDown: { code: 'ArrowDown', keyCode: 40 },
  ArrowLeft: { code: 'ArrowLeft', keyCode: 37 }, ArrowRight: { code: 'ArrowRight', keyCode: 39 },
  Home: { code: 'Home', keyCode: 36 }, End: { code: 'End', keyCode: 35 }, PageUp: { code: 'PageUp', keyCode: 33 },
  PageDown: { code: 'PageDown', keyCode: 34 }, ' ': { code: 'Space', keyCode: 32, text: ' ' }, Space: { key: ' ', code: 'Space', keyCode: 32, text: ' ' },
  Shift: { code: 'ShiftLeft', keyCode: 16 }, Control: { code: 'ControlLeft', keyCode: 17 }, Alt: { code: 'AltLeft', keyCode: 18 },
  Meta: { code: 'MetaLeft', keyCode: 91 },
};
for (let i = 1; i <= 12; i++) NAMED_KEYS[`F${i}`] = { code: `F${i}`, keyCode: 111 + i };
const MODIFIER_BITS = { Alt: 1, Control: 2, Meta: 4, Shift: 8 };

function keyDefinition(key) {
  const named = NAMED_KEYS[key];
  if (named) return { key: named.key ?? key, ...named };
  if ([...key].length === 1) {
    const upper = key.toUpperCase();
    const code = /[a-z]/i.test(key) ? `Key${upper}` : /[0-9]/.test(key) ? `Digit${key}` : '';
    return { key, code, keyCode: upper.charCodeAt(0), text: key };
  }
  throw invalid(`Unknown key '${key}': use a single character or a key name such as Enter, Tab, Escape, ArrowDown, F5`);
}

// Wire shape (PROTOCOL.md): modifiers {shift, ctrl, alt, meta} booleans, as the OpenTabs
// server sends them.  The older array of key names (['Control', 'Shift']) is still accepted.
const MODIFIER_FLAGS = { shift: 'Shift', ctrl: 'Control', alt: 'Alt', meta: 'Meta' };

function modifierMask(params) {
  const given = params?.modifiers ?? [];
  let mask = 0;
  if (Array.isArray(given)) {
    for (const m of given) {
      if (!(m in MODIFIER_BITS)) throw invalid(`Invalid modifier '${m}': expected Alt, Control, Meta or Shift`);
      mask |= MODIFIER_BITS[m];
    }
    return mask;
  }
  if (typeof given !== 'object') throw invalid('Invalid modifiers parameter: expected {shift, ctrl, alt, meta} booleans');
  for (const [flag, value] of Object.entries(given)) {
    if (!(flag in MODIFIER_FLAGS)) throw invalid(`Invalid modifier '${flag}': expected shift, ctrl, alt or meta`);
    if (typeof value !== 'boolean') throw invalid(`Invalid modifier ${flag}: expected true or false`);
    if (value) mask |= MODIFIER_BITS[MODIFIER_FLAGS[flag]];
  }
  return mask;
}

const modifierFlags = (mask) => Object.fromEntries(Object.entries(MODIFIER_FLAGS).map(([flag, name]) => [flag, Boolean(mask & MODIFIER_BITS[name])]));

const describeTarget = (t) => (t.ref ? `ref ${t.ref}` : `'${t.selector}'`);

const BUTTONS = { left: 1, right: 2, middle: 4 };

async function click(params) {
  const tabId = requireTabId(params);
  const t = target(params);
  // Ours (the OpenTabs wire has neither): button left|right|middle, doubleClick.
  const button = str(params, 'button', { required: false, max: 10, fallback: 'left' });
  if (!(button in BUTTONS)) throw invalid("Invalid button: expected 'left', 'right' or 'middle'");
  const doubleClick = params?.doubleClick === true;
  if (params?.doubleClick !== undefined && typeof params.doubleClick !== 'boolean') throw invalid('Invalid doubleClick: expected true or false');
  const where = await runPageOp(tabId, 'locate', t);
  if (where.obscuredBy) {
    throw new ProtocolError(ERR_INTERNAL, `Element ${describeTarget(t)} is covered by <${where.obscuredBy.tag}> "${where.obscuredBy.text}" (ref ${where.obscuredBy.ref}) at its centre; the click would land there`);
  }
  const x = where.x;
  const y = where.y;
  try {
    let dialog = null;
    await withDebugger(tabId, async (send) => {
      // Page events on, so a dialog the click opens is seen (and can be answered with
      // browser_handle_dialog).  A dialog blocks the page, and with it the pending
      // mouseReleased, so the click returns as soon as one opens.
      await send('Page.enable');
      let stop = () => {};
      const opened = new Promise((resolve) => {
        stop = onEvent(tabId, (method, p) => { if (method === 'Page.javascriptDialogOpening') resolve(p); });
      });
      try {
        await send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y, button: 'none' });
        if (doubleClick) {
          await send('Input.dispatchMouseEvent', { type: 'mousePressed', x, y, button, buttons: BUTTONS[button], clickCount: 1 });
          await send('Input.dispatchMouseEvent', { type: 'mouseReleased', x, y, button, buttons: 0, clickCount: 1 });
        }
        const clickCount = doubleClick ? 2 : 1;
        await send('Input.dispatchMouseEvent', { type: 'mousePressed', x, y, button, buttons: BUTTONS[button], clickCount });
        const released = send('Input.dispatchMouseEvent', { type: 'mouseReleased', x, y, button, buttons: 0, clickCount });
        released.catch(() => {});
        const first = await Promise.race([released.then(() => null), opened]);
        if (first) dialog = { type: first.type, message: first.message, defaultPrompt: first.defaultPrompt };
      } finally {
        stop();
      }
    });
    const out = { clicked: true, trusted: true, button, doubleClick, tag: where.tag, ref: where.ref, text: where.text, x: Math.round(x), y: Math.round(y) };
    if (dialog) out.dialog = { ...dialog, note: 'A JavaScript dialog is open; answer it with browser_handle_dialog' };
    return out;
  } catch (err) {
    if (!/Cannot attach the debugger/.test(String(err?.message)) || button !== 'left' || doubleClick) throw err;
    // Another debugger (DevTools) owns the tab: fall back to a scripted click and say so.
    const el = await runPageOp(tabId, 'syntheticClick', t);
    return { clicked: true, trusted: false, note: 'debugger unavailable; used a scripted click', ...el };
  }
}

async function pressKey(params) {
  const tabId = requireTabId(params);
  const key = str(params, 'key', { max: 40 });
  const def = keyDefinition(key);
  const modifiers = modifierMask(params);
  const t = target(params, { required: false });
  let focused = null;
  if (t.selector !== undefined || t.ref !== undefined) focused = await runPageOp(tabId, 'focus', t);
  // Text is only produced without command modifiers (Ctrl+A selects rather than typing "a").
  const text = def.text !== undefined && !(modifiers & (MODIFIER_BITS.Control | MODIFIER_BITS.Alt | MODIFIER_BITS.Meta))
    ? (modifiers & MODIFIER_BITS.Shift && def.text.length === 1 ? def.text.toUpperCase() : def.text) : undefined;
  const base = { key: def.key, code: def.code, windowsVirtualKeyCode: def.keyCode, nativeVirtualKeyCode: def.keyCode, modifiers };
  await withDebugger(tabId, async (send) => {
    await send('Page.enable');
    await send('Input.dispatchKeyEvent', text !== undefined ? { ...base, type: 'keyDown', text, unmodifiedText: text } : { ...base, type: 'rawKeyDown' });
    await send('Input.dispatchKeyEvent', { ...base, type: 'keyUp' });
  });
  return { pressed: key, modifiers: modifierFlags(modifiers), target: focused };
}

async function handleDialog(params) {
  const tabId = requireTabId(params);
  const action = str(params, 'action', { max: 10 });
  if (action !== 'accept' && action !== 'dismiss') throw invalid("Invalid action: expected 'accept' or 'dismiss'");
  const promptText = str(params, 'promptText', { required: false, max: 10_000 });
  return withDebugger(tabId, async (send) => {
    // No Page.enable here: it waits for the renderer, which the open dialog blocks.
    const answered = openDialogOf(tabId); // before the answer: closing it clears the record
    try {
      await send('Page.handleJavaScriptDialog', promptText === undefined ? { accept: action === 'accept' } : { accept: action === 'accept', promptText });
    } catch (err) {
      if (!/No dialog is showing/i.test(String(err?.message))) throw err;
      // The page may still be blocked by a dialog the debugger never saw open (one that
      // opened while no agent drove the tab): CDP cannot answer that one.
      const unseen = await verifiedDialog(tabId);
      if (unseen) {
        throw new ProtocolError(ERR_INTERNAL, `Tab ${tabId} shows a JavaScript ${describeDialog(unseen)} that opened before the extension watched the tab, so it can only be answered in the browser window`);
      }
      throw invalid(`No JavaScript dialog is open in tab ${tabId}`);
    }
    dialogClosed(tabId);
    return answered ? { handled: true, action, dialog: { type: answered.type, message: answered.message } } : { handled: true, action };
  });
}

export const commands = {
  'browser.clickElement': click,
  'browser.pressKey': pressKey,
  'browser.handleDialog': handleDialog,

  'browser.typeText': async (params) => runPageOp(requireTabId(params), 'type', {
    ...target(params), text: str(params, 'text', { max: 100_000 }), clear: params?.clear === true,
  }),

  'browser.selectOption': async (params) => {
    const value = str(params, 'value', { required: false, max: 10_000 });
    const label = str(params, 'label', { required: false, max: 10_000 });
    if (value === undefined && label === undefined) throw invalid('Give value or label');
    return runPageOp(requireTabId(params), 'select', { ...target(params), value, label });
  },

  'browser.hoverElement': async (params) => runPageOp(requireTabId(params), 'hover', target(params)),

  'browser.scroll': async (params) => {
    const direction = str(params, 'direction', { required: false, max: 10 });
    if (direction !== undefined && !['up', 'down', 'left', 'right'].includes(direction)) throw invalid('Invalid direction');
    // Wire shape: position {x?, y?} (absolute offsets in pixels); 'top' and 'bottom' are still accepted.
    let position = params?.position;
    if (position !== undefined && position !== null) {
      if (typeof position === 'string') {
        if (!['top', 'bottom'].includes(position)) throw invalid("Invalid position: expected {x, y} or 'top'/'bottom'");
      } else if (typeof position === 'object' && !Array.isArray(position)) {
        const { x, y, ...rest } = position;
        if (Object.keys(rest).length) throw invalid('Invalid position: only x and y are allowed');
        for (const v of [x, y]) if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v))) throw invalid('Invalid position: x and y are numbers');
        position = { x, y };
      } else {
        throw invalid("Invalid position: expected {x, y} or 'top'/'bottom'");
      }
    } else {
      position = undefined;
    }
    const distance = params?.distance;
    if (distance !== undefined && (!Number.isInteger(distance) || distance < 1)) throw invalid('Invalid distance: expected a positive integer');
    return runPageOp(requireTabId(params), 'scroll', {
      ...target(params, { required: false }), direction, position, distance,
      container: str(params, 'container', { required: false, max: 4000 }),
    });
  },
};
