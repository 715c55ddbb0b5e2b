// Real-Chromium tests of what the agent benchmark's pages written after the code found missing
// (bench/agent/tasks_unseen.mjs): a menu panel hidden with visibility:hidden (its bar item needs
// a hover ref, its hidden entries must not be listed), refs from browser_find for the plain
// list items and table cells a page's delegated handlers act on, and a click on a button that
// is inside the viewport but clipped by its scrolling container, and a wheel turn that the next
// click played again (a feed that loads on the wheel scrolled away under the click).  The handlers run in a harness
// page added to a copy of the real extension (support/command_driver.mjs); every action is
// checked by reading what the page's own trusted-only listeners recorded.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { startCommandDriver } from './support/command_driver.mjs';

let driver;
let ok;
let openPage;
let pageEval;

const refIn = (line) => /\[ref=(e\d+@[0-9a-z]{4})\]/.exec(line ?? '')?.[1] ?? assert.fail(`no ref on ${line}`);
const lineOf = (text, pattern) => text.split('\n').find((l) => pattern.test(l)) ?? assert.fail(`no line matching ${pattern} in\n${text}`);

before(async () => {
  driver = await startCommandDriver({ tempPrefix: 'ot-bt-unseen-' });
  ({ ok, openPage, pageEval } = driver);
});

after(async () => {
  await driver?.close();
});

describe('pages nobody tuned for', () => {
  it('a bar item whose panel is hidden by visibility gets a hover ref; the fly-out opens on a real hover', async () => {
    const tab = await openPage('/unseen.html');
    const { snapshot: snap } = await ok('browser.snapshot', { tabId: tab });
    assert.ok(!/Undo|Convert to/.test(snap), `text of a visibility:hidden panel is listed:\n${snap}`);
    await ok('browser.hoverElement', { tabId: tab, ref: refIn(lineOf(snap, /"Tools.*\[hover\]/)) });
    const { matches: convert } = await ok('browser.findText', { tabId: tab, text: 'Convert to…' });
    await ok('browser.hoverElement', { tabId: tab, ref: refIn(convert.find((m) => m.includes('"Convert to…"'))) });
    const { matches: entry } = await ok('browser.findText', { tabId: tab, text: 'Portable document' });
    await ok('browser.clickElement', { tabId: tab, ref: refIn(entry.find((m) => m.includes('"Portable document"'))) });
    assert.deepEqual(await pageEval(tab, 'window.seen'), ['convert:pdf']);
    await ok('browser.closeTab', { tabId: tab });
  });

  it('browser_find gives refs to the list items and table cells holding the text', async () => {
    const tab = await openPage('/unseen.html');
    const { snapshot: snap } = await ok('browser.snapshot', { tabId: tab });
    assert.match(snap, /- listitem "Water"\n/, 'a plain list item stays without a ref in a snapshot');
    assert.match(snap, /- row: Spade \| 3\n/, 'a table row stays one line without refs in a snapshot');
    const { matches: water } = await ok('browser.findText', { tabId: tab, text: 'Water' });
    await ok('browser.clickElement', { tabId: tab, ref: refIn(water[0]) });
    const { matches: three } = await ok('browser.findText', { tabId: tab, text: '3' });
    const row = three.find((m) => m.startsWith('- row: Spade'));
    assert.match(row, /^- row: Spade \| 3 \[ref=e\d+@[0-9a-z]{4}\]$/);
    await ok('browser.clickElement', { tabId: tab, ref: refIn(row), doubleClick: true });
    assert.deepEqual(await pageEval(tab, 'window.seen'), ['step:Water', 'edit:Spade']);
    await ok('browser.closeTab', { tabId: tab });
  });

  it('a click on a button clipped by its scrolling container scrolls it into the container first', async () => {
    const tab = await openPage('/unseen.html');
    assert.equal(await pageEval(tab, "(() => { const b = document.getElementById('deep').getBoundingClientRect(); const box = document.getElementById('box').getBoundingClientRect(); return b.bottom < innerHeight && b.top > box.bottom; })()"), true,
      'the button starts inside the viewport but below its container\'s visible part');
    const { matches } = await ok('browser.findText', { tabId: tab, text: 'Deep button' });
    await ok('browser.clickElement', { tabId: tab, ref: refIn(matches[0]) });
    assert.deepEqual(await pageEval(tab, 'window.seen'), ['deep']);
    await ok('browser.closeTab', { tabId: tab });
  });

  it('a wheel turn reaches the page once: the next click neither replays it nor misses', async () => {
    const tab = await openPage('/unseen.html');
    const feed = await pageEval(tab, "(() => { const r = document.getElementById('feed').getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 }; })()");
    for (let turn = 0; turn < 4; turn++) await ok('browser.mouse', { tabId: tab, action: 'wheel', x: feed.x, y: feed.y, deltaY: 1000 });
    const { matches } = await ok('browser.findText', { tabId: tab, text: 'Post 8' });
    const post = await ok('browser.snapshot', { tabId: tab, selector: '#feed' });
    const lines = post.snapshot.split('\n');
    const like = lines.slice(lines.findIndex((l) => l.includes('Post 8'))).find((l) => /button "Like"/.test(l));
    assert.equal(matches.length, 1);
    await ok('browser.clickElement', { tabId: tab, ref: refIn(like) });
    const seen = await pageEval(tab, 'window.seen');
    assert.deepEqual(seen, ['wheel', 'wheel', 'wheel', 'wheel', 'like:8']);
    await ok('browser.closeTab', { tabId: tab });
  });
});
