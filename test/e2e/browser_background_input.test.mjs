// Real-Chromium tests of pointer input on a tab that is not in front (issue 37): clicks,
// hovering, wheels and drags reach a background tab through the same command handlers the
// server forwards to, the tab the person sees stays in front, and the background tab is never
// activated.  Chromium draws no frames for a tab that is not shown, and pointer events wait
// for frames; the pointer keeps the tab drawing while it works (input.js).  How long the
// input takes is measured in bench/agent, not asserted here.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { startCommandDriver } from './support/command_driver.mjs';

let driver;
let ok;
let openPage;
let pageEval;

before(async () => {
  driver = await startCommandDriver({ tempPrefix: 'ot-bt-background-' });
  ({ ok, openPage, pageEval } = driver);
});

after(async () => {
  await driver?.close();
});

const center = (tabId, selector) => pageEval(tabId, `(() => { const r = document.querySelector(${JSON.stringify(selector)}).getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 }; })()`);

async function expectFrontUnchanged(front, back) {
  assert.equal((await ok('browser.getTabInfo', { tabId: front })).active, true, 'the front tab stays in front');
  assert.equal((await ok('browser.getTabInfo', { tabId: back })).active, false, 'the background tab is never shown');
}

describe('pointer input on a background tab', () => {
  it('turns the wheel, clicks and hovers on a tab behind the one the person sees', async () => {
    const back = await openPage('/interact.html');
    const front = await openPage('/actions.html', { active: true });
    const scroller = await center(back, '#scroller');
    await ok('browser.mouse', { tabId: back, action: 'wheel', x: scroller.x, y: scroller.y, deltaY: 60 });
    assert.equal(await pageEval(back, "document.getElementById('scroller').scrollTop"), 60, 'the wheel scrolled the box under the pointer');
    for (let i = 0; i < 3; i++) await ok('browser.clickElement', { tabId: back, selector: '#btn' });
    await ok('browser.hoverElement', { tabId: back, selector: '#hover-target' });
    const button = await center(back, '#btn');
    await ok('browser.mouse', { tabId: back, action: 'click', x: button.x, y: button.y });
    assert.deepEqual(await pageEval(back, 'window.events'), ['clicked:trusted', 'clicked:trusted', 'clicked:trusted', 'hovered', 'clicked:trusted']);
    await expectFrontUnchanged(front, back);
    await ok('browser.closeTab', { tabId: back });
    await ok('browser.closeTab', { tabId: front });
  });

  it('drags by coordinates and by ref on a background tab', async () => {
    const back = await openPage('/kanban.html');
    const front = await openPage('/actions.html', { active: true });
    const third = await center(back, '#p3');
    const first = await center(back, '#p1');
    await ok('browser.mouse', { tabId: back, action: 'drag', x: third.x, y: third.y, toX: first.x, toY: first.y });
    assert.equal(await pageEval(back, 'window.events.at(-1)'), 'sorted:p3,p1,p2');
    await ok('browser.dragElement', { tabId: back, fromSelector: '#card-a', toSelector: '#done' });
    assert.equal(await pageEval(back, 'window.events.at(-1)'), 'moved:card-a->done:true');
    await expectFrontUnchanged(front, back);
    await ok('browser.closeTab', { tabId: back });
    await ok('browser.closeTab', { tabId: front });
  });
});
