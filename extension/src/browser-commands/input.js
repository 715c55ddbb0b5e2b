// Trusted pointer and keyboard input: the CDP Input domain through chrome.debugger, so the
// page sees what a person's mouse and keyboard produce (isTrusted events, :hover, enter and
// leave on every ancestor, real drag sessions, key events with text).  Nothing here falls
// back to scripted DOM events when the debugger cannot attach: pages that check isTrusted
// would reject those silently, so the caller gets the attach error instead.
//
// Invariants: a sequence that pressed a mouse button releases it even when a step fails (the
// tab navigated, the debugger was detached), and modifier keys are carried as flags on each
// event, never pressed on their own, so no button or modifier stays down after a call.
//
// Pointer input does not depend on which tab is in front.  Chromium answers a mouse move or a
// wheel once the page has drawn the frame it lands in, and a tab that is not shown draws none:
// the renderer falls back to a timer seconds apart, and a wheel's scroll waits for ever.
// A pointer keeps the tab drawing while it works with a screencast of a few pixels (enough
// for a tab Chromium counts as shown but lets idle), and while an event is still unanswered
// it asks for a frame by capturing one pixel of the page, which makes Chromium draw it even
// when it is hidden, without showing it to the person.

import { invalid } from './params.js';

export const BUTTONS = { left: 1, right: 2, middle: 4 };
const MODIFIER_BITS = { Alt: 1, Control: 2, Meta: 4, Shift: 8 };
// Wire shape: {shift, ctrl, alt, meta} booleans; a list of key names (['Control', 'Shift'])
// is accepted too.
const MODIFIER_FLAGS = { shift: 'Shift', ctrl: 'Control', alt: 'Alt', meta: 'Meta' };

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
const SHIFTED_DIGITS = { '!': '1', '@': '2', '#': '3', $: '4', '%': '5', '^': '6', '&': '7', '*': '8', '(': '9', ')': '0' };

export function keyDefinition(key) {
  const named = NAMED_KEYS[key];
  if (named) return { key: named.key ?? key, ...named };
  if (key === '\n') return { key: 'Enter', ...NAMED_KEYS.Enter };
  if ([...key].length === 1) {
    const upper = key.toUpperCase();
    const code = /[a-z]/i.test(key) ? `Key${upper}` : /[0-9]/.test(key) ? `Digit${key}` : SHIFTED_DIGITS[key] ? `Digit${SHIFTED_DIGITS[key]}` : '';
    const keyCode = /[a-z0-9]/i.test(key) ? upper.charCodeAt(0) : 0;
    return { key, code, keyCode, text: key };
  }
  throw invalid(`Unknown key '${key}': use a single character or a key name such as Enter, Tab, Escape, ArrowDown, Backspace, F5`);
}

export function modifierMask(params) {
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

export const modifierFlags = (mask) => Object.fromEntries(Object.entries(MODIFIER_FLAGS).map(([flag, name]) => [flag, Boolean(mask & MODIFIER_BITS[name])]));

export function buttonParam(params) {
  const button = params?.button ?? 'left';
  if (!(button in BUTTONS)) throw invalid("Invalid button: expected 'left', 'right' or 'middle'");
  return button;
}

// The layout viewport in CSS pixels: what a screenshot of the viewport shows.
export async function viewportSize(send) {
  const m = await send('Page.getLayoutMetrics');
  const v = m.cssLayoutViewport ?? m.layoutViewport;
  return { width: v.clientWidth, height: v.clientHeight };
}

export function requireInViewport(points, viewport) {
  for (const [name, x, y] of points) {
    if (!(x >= 0 && y >= 0 && x < viewport.width && y < viewport.height)) {
      throw invalid(`${name} (${x}, ${y}) is outside the viewport, which is ${viewport.width}x${viewport.height} CSS px with (0, 0) at its top-left; scroll first (browser_scroll or action wheel) or use coordinates from a new screenshot`);
    }
  }
}

// A screencast of a few pixels whose frames are never asked for: a tab that is shown but
// idle (one behind the front tab in a headless window) then draws as one being captured.
const KEEP_DRAWING = { format: 'jpeg', quality: 1, maxWidth: 8, maxHeight: 8, everyNthFrame: 1_000 };
const ONE_PIXEL = { format: 'jpeg', quality: 1, clip: { x: 0, y: 0, width: 1, height: 1, scale: 1 } };
// How long an event may wait for a frame the page draws by itself (a shown tab draws about
// every 16 ms) before the pointer asks for one, and how many it asks for at most.
const OWN_FRAME_WAIT_MS = 30;
const MAX_ASKED_FRAMES = 40;
const FRAME_BOUND_EVENTS = new Set(['mouseMoved', 'mouseWheel']);

// A capture of a page that has not drawn since it was hidden can wait long: each ask is
// bounded and the next one tries again.
const ASK_FRAME_MS = 500;
export const askFrame = (send) => {
  let timer;
  return Promise.race([
    send('Page.captureScreenshot', ONE_PIXEL).catch(() => {}),
    new Promise((resolve) => { timer = setTimeout(resolve, ASK_FRAME_MS); }),
  ]).finally(() => clearTimeout(timer));
};

// Waits for the event's answer, asking for frames meanwhile.  `asked`: frames had to be asked
// for (the tab draws none); `answered`: false when Chromium still had not answered after
// MAX_ASKED_FRAMES (the event was sent; the caller says so instead of waiting on).
async function answeredWithFrames(send, answer) {
  let answered = false;
  let asked = 0;
  answer.then(() => { answered = true; }, () => { answered = true; });
  for (; asked < MAX_ASKED_FRAMES && !answered; asked++) {
    let timer;
    await Promise.race([answer.catch(() => {}), new Promise((resolve) => { timer = setTimeout(resolve, OWN_FRAME_WAIT_MS); })]);
    clearTimeout(timer);
    if (!answered) await Promise.race([answer.catch(() => {}), askFrame(send)]);
  }
  if (!answered) return { asked: true, answered: false };
  await answer;
  return { asked: asked > 0, answered: true };
}

// A pointer on one tab.  press() and release() track the held button so finish() can
// release it whatever happened in between.
export function pointer(send, modifiers = 0) {
  let held = null;
  let at = { x: 0, y: 0 };
  let unanswered = 0;
  let askedFrames = false;
  let drawing = null;
  const mouse = async (p) => {
    drawing ??= send('Page.startScreencast', KEEP_DRAWING).catch(() => {});
    await drawing;
    const answer = send('Input.dispatchMouseEvent', { modifiers, ...p });
    if (!FRAME_BOUND_EVENTS.has(p.type)) return answer;
    answer.catch(() => {});
    const outcome = await answeredWithFrames(send, answer);
    if (!outcome.answered) unanswered++;
    askedFrames ||= outcome.asked;
    return outcome;
  };
  return {
    async move(x, y, steps = 1) {
      const from = at;
      for (let i = 1; i <= steps; i++) {
        const px = from.x + ((x - from.x) * i) / steps;
        const py = from.y + ((y - from.y) * i) / steps;
        await mouse({ type: 'mouseMoved', x: px, y: py, button: held ?? 'none', buttons: held ? BUTTONS[held] : 0 });
      }
      at = { x, y };
    },
    async press(button = 'left', clickCount = 1) {
      held = button;
      await mouse({ type: 'mousePressed', x: at.x, y: at.y, button, buttons: BUTTONS[button], clickCount });
    },
    // The release's promise: a click that opens a JavaScript dialog blocks it until the
    // dialog is answered, so callers may race it.
    release(clickCount = 1) {
      const button = held;
      held = null;
      return mouse({ type: 'mouseReleased', x: at.x, y: at.y, button, buttons: 0, clickCount });
    },
    // The scroll the wheel starts is animated afterwards: see wheelScrollSettled (interaction.js).
    async wheel(deltaX, deltaY) {
      await mouse({ type: 'mouseWheel', x: at.x, y: at.y, deltaX, deltaY });
    },
    get position() { return at; },
    // Whether the tab drew no frames of its own while this pointer worked (it is not shown).
    get askedFrames() { return askedFrames; },
    // What the caller tells the agent when Chromium did not confirm a move or wheel.
    get unansweredNote() {
      return unanswered ? `Chromium did not confirm ${unanswered} pointer move or wheel event(s) before this answer, as happens on a tab that is not shown; check the page's state, and if it did not react, show the tab with browser_focus_tab and try again` : undefined;
    },
    // Releases a button a failed sequence left pressed and lets the tab stop drawing.  The
    // stop is not awaited: a dialog the click opened may block the page until it is answered.
    async finish() {
      if (held) await this.release().catch(() => {});
      if (drawing) send('Page.stopScreencast').catch(() => {});
      drawing = null;
    },
  };
}

// Key events for one key: keyDown (with text when it types) and keyUp.
export async function pressKeyEvents(send, def, modifiers = 0) {
  const command = modifiers & (MODIFIER_BITS.Control | MODIFIER_BITS.Alt | MODIFIER_BITS.Meta);
  // Text is only produced without command modifiers (Ctrl+A selects rather than typing "a").
  const text = def.text !== undefined && !command
    ? (modifiers & MODIFIER_BITS.Shift && def.text.length === 1 ? def.text.toUpperCase() : def.text) : undefined;
  const base = { key: text ?? def.key, code: def.code, windowsVirtualKeyCode: def.keyCode, nativeVirtualKeyCode: def.keyCode, modifiers };
  await send('Input.dispatchKeyEvent', text !== undefined ? { ...base, type: 'keyDown', text, unmodifiedText: text } : { ...base, type: 'rawKeyDown' });
  await send('Input.dispatchKeyEvent', { ...base, type: 'keyUp' });
}

// Types `text` one key at a time, as a keyboard does: keydown, keypress/beforeinput/input and
// keyup per character.
export async function typeKeys(send, text) {
  for (const ch of text) await pressKeyEvents(send, ch === '\n' ? keyDefinition('Enter') : keyDefinition(ch));
}
