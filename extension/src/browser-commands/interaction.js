// Page interaction by CSS selector, snapshot ref or viewport coordinates, inside iframes and
// shadow roots too.  Clicks, hovering, typing, key presses and coordinate input are trusted
// input sent through CDP (input.js) to the tab where it is, without activating it; the
// debugger detaches again after an idle period (debugger.js).  Selecting an option and
// scrolling are scripted and need no debugger.

import { ProtocolError, ERR_INTERNAL } from '../shared/constants.js';
import { str, bool, tabId as requireTabId, target, invalid } from './params.js';
import { runPageOp } from './page-agent.js';
import { withDebugger, onEvent } from './debugger.js';
import { verifiedDialog, openDialogOf, dialogClosed, describeDialog, dialogSummary, dialogAfterAnswer } from './dialogs.js';
import {
  keyDefinition, modifierMask, modifierFlags, buttonParam, viewportSize, requireInViewport, pointer, askFrame, pressKeyEvents, typeKeys,
} from './input.js';

const MAX_SLOW_CHARS = 2_000;
const DRAG_STEPS = 10;

const describeTarget = (t) => (t.ref ? `ref ${t.ref}` : `'${t.selector}'`);

// Where a pointer action on an element lands: its visible centre, scrolled into view, or an
// error naming what covers it.
async function aimAt(tabId, t, verb) {
  const where = await runPageOp(tabId, 'locate', t);
  if (where.obscuredBy) {
    throw new ProtocolError(ERR_INTERNAL, `Element ${describeTarget(t)} is covered by <${where.obscuredBy.tag}> "${where.obscuredBy.text}" (ref ${where.obscuredBy.ref}) at its centre; the ${verb} would land there. Close or scroll away what covers it, or act on that element`);
  }
  return where;
}

const landed = (where) => ({ tag: where.tag, ref: where.ref, text: where.text, x: Math.round(where.x), y: Math.round(where.y) });

// Runs `steps` (trusted input) and returns null, or the JavaScript dialog one of them opened.
// Page events are on so the opening is seen: a dialog blocks the page, and with it the
// answer to the event that opened it (and the steps after it, which go on once the dialog is
// answered), so the action returns as soon as one opens.
async function inputUntilDialog(tabId, send, steps) {
  await send('Page.enable');
  let stop = () => {};
  const opened = new Promise((resolve) => {
    stop = onEvent(tabId, (method, p) => { if (method === 'Page.javascriptDialogOpening') resolve(p); });
  });
  const done = steps();
  done.catch(() => {});
  try {
    const first = await Promise.race([done.then(() => null), opened]);
    return first ? { type: first.type, message: first.message, defaultPrompt: first.defaultPrompt, note: 'A JavaScript dialog is open; answer it with browser_handle_dialog' } : null;
  } finally {
    stop();
  }
}

// A trusted click at (x, y): move, press, release (twice for a double click).  With a
// dialog open the rest of the sequence, and the pointer's finish, run once it is answered.
function clickAt(tabId, send, { x, y, button, clickCount, modifiers }) {
  const mouse = pointer(send, modifiers);
  return inputUntilDialog(tabId, send, async () => {
    try {
      await mouse.move(x, y);
      for (let n = 1; n < clickCount; n++) {
        await mouse.press(button, n);
        await mouse.release(n);
      }
      await mouse.press(button, clickCount);
      await mouse.release(clickCount);
    } finally {
      await mouse.finish();
    }
  });
}

function clickCountParam(params) {
  if (params?.doubleClick !== undefined && typeof params.doubleClick !== 'boolean') throw invalid('Invalid doubleClick: expected true or false');
  return params?.doubleClick === true ? 2 : 1;
}

async function click(params) {
  const tabId = requireTabId(params);
  const t = target(params);
  const button = buttonParam(params);
  const clickCount = clickCountParam(params);
  const modifiers = modifierMask(params);
  const where = await aimAt(tabId, t, 'click');
  const dialog = await withDebugger(tabId, (send) => clickAt(tabId, send, { x: where.x, y: where.y, button, clickCount, modifiers }));
  const out = { clicked: true, trusted: true, button, doubleClick: clickCount === 2, modifiers: modifierFlags(modifiers), ...landed(where) };
  if (dialog) out.dialog = dialog;
  return out;
}

async function hover(params) {
  const tabId = requireTabId(params);
  const where = await aimAt(tabId, target(params), 'hover');
  await withDebugger(tabId, async (send) => {
    const p = pointer(send);
    try { await p.move(where.x, where.y); } finally { await p.finish(); }
  });
  return { hovered: true, trusted: true, ...landed(where) };
}

async function pressKey(params) {
  const tabId = requireTabId(params);
  const key = str(params, 'key', { max: 40 });
  const def = keyDefinition(key);
  const modifiers = modifierMask(params);
  const t = target(params, { required: false });
  let focused = null;
  if (t.selector !== undefined || t.ref !== undefined) focused = await runPageOp(tabId, 'focus', t);
  const dialog = await withDebugger(tabId, (send) => inputUntilDialog(tabId, send, () => pressKeyEvents(send, def, modifiers)));
  const out = { pressed: key, modifiers: modifierFlags(modifiers), target: focused };
  if (dialog) out.dialog = dialog;
  return out;
}

// Typing focuses the field (caret at the end, or everything selected with clear), then
// enters the text through the browser's input pipeline: by default one trusted text
// insertion (beforeinput and input, as an IME or paste sends) of all but the last character,
// which is then typed as a key (keydown, keypress, input, keyup), so a page that reads the
// field on a key event (an autocomplete listening to keyup) sees the whole text; with slowly
// one key at a time for pages that react to each key.
async function typeQuickly(send, text) {
  const chars = [...text];
  const last = chars.pop();
  // A line break stays text: as a key it would be Enter, which submits forms.
  const asKey = !/[\r\n\t]/.test(last);
  const inserted = asKey ? chars.join('') : text;
  if (inserted) await send('Input.insertText', { text: inserted });
  if (asKey) await pressKeyEvents(send, keyDefinition(last));
}

async function typeText(params) {
  const tabId = requireTabId(params);
  const t = target(params);
  const text = str(params, 'text', { max: 100_000 });
  const clear = bool(params, 'clear', false);
  const slowly = bool(params, 'slowly', false);
  if (slowly && text.length > MAX_SLOW_CHARS) throw invalid(`slowly types at most ${MAX_SLOW_CHARS} characters; type the rest without slowly`);
  const field = await runPageOp(tabId, 'prepareTyping', { ...t, clear });
  const dialog = await withDebugger(tabId, (send) => inputUntilDialog(tabId, send, async () => {
    if (clear && field.hadText) await pressKeyEvents(send, keyDefinition('Delete'));
    if (slowly) await typeKeys(send, text);
    else if (text) await typeQuickly(send, text);
  }));
  // A key that opened a dialog holds the rest of the typing until the dialog is answered.
  if (dialog) return { trusted: true, slowly, dialog };
  const after = await runPageOp(tabId, 'fieldValue', t);
  return { typed: text.length, trusted: true, slowly, ...after };
}

// Coordinate input for canvas-like UIs: x, y are CSS pixels of the viewport (what a viewport
// screenshot shows, at scale 1).
const MOUSE_ACTIONS = new Set(['click', 'move', 'drag', 'wheel']);
// A tab that is not shown has no up-to-date map of its scrolling boxes in the compositor, so
// Chromium may scroll the page where a shown tab would scroll the box under the pointer.
const HIDDEN_WHEEL_NOTE = 'The tab is not shown: Chromium may have scrolled the page rather than a scrolling box under the pointer. To scroll a box use browser_scroll with its selector or ref; for a wheel a page must see on that box, show the tab with browser_focus_tab first';

function coordinate(params, name, { required = true } = {}) {
  const v = params?.[name];
  if (v === undefined || v === null) {
    if (required) throw invalid(`Missing ${name}`);
    return undefined;
  }
  if (typeof v !== 'number' || !Number.isFinite(v)) throw invalid(`Invalid ${name}: expected a number of CSS pixels`);
  return v;
}

// A wheel's scroll is animated over the frames after Chromium answers the wheel, and a tab
// that is not shown draws them only when asked: ask for frames until a scroll that started
// has ended, or none started within WHEEL_START_FRAMES, so the answer describes the page at
// rest.  Bounded by WHEEL_SETTLE_FRAMES (each ask is bounded too).
const WHEEL_START_FRAMES = 4;
const WHEEL_SETTLE_FRAMES = 30;
async function wheelScrollSettled(tabId, send) {
  const state = (stop) => runPageOp(tabId, 'wheelScrollState', { stop }).catch(() => null);
  for (let frame = 0; frame < WHEEL_SETTLE_FRAMES; frame++) {
    const now = await state(false);
    if (!now || (now.scrolled && !now.scrolling) || (!now.scrolled && frame >= WHEEL_START_FRAMES)) break;
    await askFrame(send);
  }
  await state(true);
}

async function mouse(params) {
  const tabId = requireTabId(params);
  const action = str(params, 'action', { max: 10 });
  if (!MOUSE_ACTIONS.has(action)) throw invalid(`Invalid action '${action}': expected click, move, drag or wheel`);
  const x = coordinate(params, 'x');
  const y = coordinate(params, 'y');
  const toX = coordinate(params, 'toX', { required: action === 'drag' });
  const toY = coordinate(params, 'toY', { required: action === 'drag' });
  const deltaX = coordinate(params, 'deltaX', { required: false }) ?? 0;
  const deltaY = coordinate(params, 'deltaY', { required: false }) ?? 0;
  if (action === 'wheel' && !deltaX && !deltaY) throw invalid('wheel needs deltaX or deltaY (pixels; positive scrolls down or right)');
  const button = buttonParam(params);
  const clickCount = clickCountParam(params);
  const modifiers = modifierMask(params);
  const out = { action, trusted: true, x, y };
  await withDebugger(tabId, async (send) => {
    const viewport = await viewportSize(send);
    requireInViewport(action === 'drag' ? [['x, y', x, y], ['toX, toY', toX, toY]] : [['x, y', x, y]], viewport);
    out.viewport = viewport;
    if (action === 'click') {
      const dialog = await clickAt(tabId, send, { x, y, button, clickCount, modifiers });
      if (dialog) out.dialog = dialog;
      return;
    }
    const p = pointer(send, modifiers);
    let watching = false;
    try {
      await p.move(x, y);
      if (action === 'wheel') {
        watching = await runPageOp(tabId, 'watchWheelScroll').catch(() => false);
        await p.wheel(deltaX, deltaY);
        if (watching) await wheelScrollSettled(tabId, send);
        // Chromium keeps a dispatched wheel's scroll gesture open and plays the wheel again on
        // the next mouse event (a later click's press would land after a second scroll):
        // a move where the wheel turned closes the gesture here.
        await p.move(x, y);
      }
      if (action === 'drag') {
        await p.press(button);
        await p.move(toX, toY, DRAG_STEPS);
        await p.release();
        Object.assign(out, { toX, toY });
      }
      if (p.unansweredNote) out.note = p.unansweredNote;
      // A shown tab that was idle has frames asked for too: the note is for hidden ones (or
      // when the page could not say).
      else if (action === 'wheel' && p.askedFrames && (watching?.hidden ?? true)) out.note = HIDDEN_WHEEL_NOTE;
    } finally {
      await p.finish();
    }
  });
  const at = action === 'drag' ? { x: toX, y: toY } : { x, y };
  out.element = await runPageOp(tabId, 'elementAt', at).catch(() => null);
  return out;
}

// How long an answer waits for a dialog the page reported but the browser has not shown yet:
// the page's script holds it until the debugger watches the tab (dialog-relay.js's gate).
const DIALOG_SHOWN_WAIT_MS = 3_000;

async function handleDialog(params) {
  const tabId = requireTabId(params);
  const action = str(params, 'action', { max: 10 });
  if (action !== 'accept' && action !== 'dismiss') throw invalid("Invalid action: expected 'accept' or 'dismiss'");
  const promptText = str(params, 'promptText', { required: false, max: 10_000 });
  const answer = promptText === undefined ? { accept: action === 'accept' } : { accept: action === 'accept', promptText };
  const answered = await withDebugger(tabId, async (send) => {
    // No Page.enable here: it waits for the renderer, which the open dialog blocks.
    const reported = openDialogOf(tabId); // before the answer: closing it clears the record
    let stop = () => {};
    const shown = new Promise((resolve) => {
      stop = onEvent(tabId, (method) => { if (method === 'Page.javascriptDialogOpening') resolve(true); });
    });
    try {
      await send('Page.handleJavaScriptDialog', answer);
    } catch (err) {
      if (!/No dialog is showing/i.test(String(err?.message))) throw err;
      // Reported by the page but still held at its gate: answer it once the browser shows it.
      let timer;
      const appeared = reported && await Promise.race([shown, new Promise((resolve) => { timer = setTimeout(() => resolve(false), DIALOG_SHOWN_WAIT_MS); })]);
      clearTimeout(timer);
      if (!appeared || !(await send('Page.handleJavaScriptDialog', answer).then(() => true, () => false))) {
        // The page may still be blocked by a dialog the debugger never saw open (one that
        // opened while no agent drove the tab): CDP cannot answer that one.
        const unseen = await verifiedDialog(tabId);
        if (unseen) {
          throw new ProtocolError(ERR_INTERNAL, `Tab ${tabId} shows a JavaScript ${describeDialog(unseen)} that opened before the extension watched the tab, so it can only be answered in the browser window`);
        }
        throw invalid(`No JavaScript dialog is open in tab ${tabId}`);
      }
    } finally {
      stop();
    }
    if (reported) dialogClosed(tabId, reported);
    return reported;
  });
  const out = answered ? { handled: true, action, dialog: { type: answered.type, message: answered.message } } : { handled: true, action };
  const next = await dialogAfterAnswer(tabId);
  if (next) out.nextDialog = { ...dialogSummary(next), note: 'The page opened another dialog; answer it with browser_handle_dialog' };
  return out;
}

export const commands = {
  'browser.clickElement': click,
  'browser.pressKey': pressKey,
  'browser.handleDialog': handleDialog,
  'browser.hoverElement': hover,
  'browser.typeText': typeText,
  'browser.mouse': mouse,

  'browser.selectOption': async (params) => {
    const value = str(params, 'value', { required: false, max: 10_000 });
    const label = str(params, 'label', { required: false, max: 10_000 });
    if (value === undefined && label === undefined) throw invalid('Give value or label');
    return runPageOp(requireTabId(params), 'select', { ...target(params), value, label });
  },

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
