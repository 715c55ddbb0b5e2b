// Unit tests of the trusted-input helpers (extension/src/browser-commands/input.js): key
// definitions, modifier and button parameters, the viewport check, and the CDP Input event
// sequences a pointer and a keyboard send, recorded from a `send` function instead of the
// debugger.  The events' effect on real pages is covered by test/e2e/browser_trusted.test.mjs.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { importExtension } from '../support.mjs';

const { keyDefinition, modifierMask, modifierFlags, buttonParam, requireInViewport, pointer, pressKeyEvents, typeKeys } =
  await importExtension('browser-commands/input.js');
const { ERR_INVALID_PARAMS } = await importExtension('shared/constants.js');

// A `send` that records what would go to chrome.debugger.sendCommand, optionally failing
// on the n-th call (a tab that navigated away mid-sequence).
function recorder({ failAt } = {}) {
  const sent = [];
  const send = async (method, params) => {
    sent.push({ method, ...params });
    if (sent.length === failAt) throw new Error('Target closed');
    return {};
  };
  return { sent, send };
}

const invalidParams = (pattern) => (e) => e.code === ERR_INVALID_PARAMS && pattern.test(e.message);

describe('key definitions', () => {
  it('letters, digits, shifted digits and named keys carry code, keyCode and text', () => {
    assert.deepEqual(keyDefinition('a'), { key: 'a', code: 'KeyA', keyCode: 65, text: 'a' });
    assert.deepEqual(keyDefinition('7'), { key: '7', code: 'Digit7', keyCode: 55, text: '7' });
    assert.equal(keyDefinition('#').code, 'Digit3');
    assert.deepEqual(keyDefinition('Enter'), { key: 'Enter', code: 'Enter', keyCode: 13, text: '\r' });
    assert.equal(keyDefinition('\n').key, 'Enter');
    assert.equal(keyDefinition('Space').key, ' ');
    assert.equal(keyDefinition('F12').keyCode, 123);
    assert.equal(keyDefinition('é').text, 'é', 'a character without a key code still types');
  });

  it('an unknown key name is refused, naming the forms that work', () => {
    assert.throws(() => keyDefinition('Return'), invalidParams(/Unknown key 'Return'.*single character or a key name such as Enter/));
  });
});

describe('modifiers and buttons', () => {
  it('accepts flags and key-name lists, refuses anything else by name', () => {
    assert.equal(modifierMask({}), 0);
    assert.equal(modifierMask({ modifiers: { ctrl: true, shift: true, alt: false } }), 2 | 8);
    assert.equal(modifierMask({ modifiers: ['Meta', 'Alt'] }), 4 | 1);
    assert.deepEqual(modifierFlags(2 | 8), { shift: true, ctrl: true, alt: false, meta: false });
    assert.throws(() => modifierMask({ modifiers: ['Hyper'] }), invalidParams(/Invalid modifier 'Hyper'/));
    assert.throws(() => modifierMask({ modifiers: { cmd: true } }), invalidParams(/Invalid modifier 'cmd'/));
    assert.throws(() => modifierMask({ modifiers: { ctrl: 'yes' } }), invalidParams(/modifier ctrl: expected true or false/));
    assert.throws(() => modifierMask({ modifiers: 3 }), invalidParams(/expected \{shift, ctrl, alt, meta\}/));
  });

  it('a button is left, right or middle', () => {
    assert.equal(buttonParam({}), 'left');
    assert.equal(buttonParam({ button: 'middle' }), 'middle');
    assert.throws(() => buttonParam({ button: 'back' }), invalidParams(/Invalid button/));
  });
});

describe('the viewport check', () => {
  it('names the point, the viewport and what to do next', () => {
    const viewport = { width: 800, height: 600 };
    requireInViewport([['click', 0, 0], ['drop', 799.5, 599]], viewport);
    assert.throws(() => requireInViewport([['to', 400, 600]], viewport),
      invalidParams(/^to \(400, 600\) is outside the viewport, which is 800x600 CSS px.*scroll first/));
    assert.throws(() => requireInViewport([['from', -1, 10]], viewport), invalidParams(/from \(-1, 10\)/));
    assert.throws(() => requireInViewport([['from', Number.NaN, 10]], viewport), invalidParams(/outside the viewport/));
  });
});

describe('pointer sequences', () => {
  it('a drag moves in steps with the button held, then releases it where it ends', async () => {
    const { sent, send } = recorder();
    const p = pointer(send, 8);
    await p.move(10, 20);
    await p.press('left');
    await p.move(30, 60, 2);
    await p.release();
    await p.finish();
    // The tab keeps drawing while the pointer works (a tab not in front too).
    assert.equal(sent[0].method, 'Page.startScreencast');
    assert.equal(sent.at(-1).method, 'Page.stopScreencast');
    const events = sent.filter((e) => e.method === 'Input.dispatchMouseEvent');
    assert.deepEqual(events.map((e) => [e.type, e.x, e.y, e.button, e.buttons]), [
      ['mouseMoved', 10, 20, 'none', 0],
      ['mousePressed', 10, 20, 'left', 1],
      ['mouseMoved', 20, 40, 'left', 1],
      ['mouseMoved', 30, 60, 'left', 1],
      ['mouseReleased', 30, 60, 'left', 0],
    ]);
    assert.ok(events.every((e) => e.modifiers === 8));
  });

  it('asks for frames while a move is unanswered, as on a tab that is not shown, and stops once it is', async () => {
    const sent = [];
    let answerMove;
    const send = async (method, params) => {
      sent.push({ method, ...params });
      if (method === 'Input.dispatchMouseEvent') return new Promise((resolve) => { answerMove = resolve; });
      if (method === 'Page.captureScreenshot' && sent.filter((e) => e.method === method).length === 2) answerMove({});
      return {};
    };
    const p = pointer(send);
    await p.move(3, 4);
    const frames = sent.filter((e) => e.method === 'Page.captureScreenshot');
    assert.equal(frames.length, 2);
    assert.deepEqual(frames[0].clip, { x: 0, y: 0, width: 1, height: 1, scale: 1 });
    assert.equal(p.askedFrames, true);
    assert.equal(p.unansweredNote, undefined);
  });

  it('finish() releases a button a failed step left pressed, and only then', async () => {
    const { sent, send } = recorder({ failAt: 4 }); // the screencast, a move, a press, a move
    const p = pointer(send);
    await p.move(5, 5);
    await p.press('right');
    await assert.rejects(p.move(50, 50), /Target closed/);
    await p.finish();
    assert.deepEqual(sent.filter((e) => e.method === 'Input.dispatchMouseEvent').at(-1), { method: 'Input.dispatchMouseEvent', modifiers: 0, type: 'mouseReleased', x: 5, y: 5, button: 'right', buttons: 0, clickCount: 1 });
    const count = sent.length;
    await p.finish();
    assert.equal(sent.length, count, 'nothing held: nothing sent');
  });
});

describe('keyboard sequences', () => {
  it('typing sends keyDown with text and keyUp per character', async () => {
    const { sent, send } = recorder();
    await typeKeys(send, 'Hi\n');
    assert.deepEqual(sent.map((e) => [e.type, e.key, e.text]), [
      ['keyDown', 'H', 'H'], ['keyUp', 'H', undefined],
      ['keyDown', 'i', 'i'], ['keyUp', 'i', undefined],
      ['keyDown', '\r', '\r'], ['keyUp', '\r', undefined],
    ]);
  });

  it('Shift uppercases the text; Control, Alt and Meta type nothing (a shortcut)', async () => {
    const shifted = recorder();
    await pressKeyEvents(shifted.send, keyDefinition('a'), 8);
    assert.equal(shifted.sent[0].text, 'A');
    const shortcut = recorder();
    await pressKeyEvents(shortcut.send, keyDefinition('a'), 2);
    assert.deepEqual(shortcut.sent.map((e) => [e.type, e.key, e.text, e.modifiers]), [['rawKeyDown', 'a', undefined, 2], ['keyUp', 'a', undefined, 2]]);
  });
});
