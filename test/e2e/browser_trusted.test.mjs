// Real-Chromium tests of issue 23 on the extension side: waits that follow the tab into the
// next document, open_tab waiting for the load, a plain timed wait, trusted pointer and
// keyboard input through the CDP Input domain (hover that CSS and ancestors see, modifier
// clicks, coordinate clicks, moves, drags and wheel, typing with key events), refs for drag
// sources, drop zones, hover targets, headings and landmarks, drops of files and data from
// outside the page, bad input (a debugger already attached, a page that navigates mid-drag,
// an unknown key), and the smaller point-7 tools.
// The handlers run in a harness page added to a copy of the real extension (the same command
// registry the background uses; see support/command_driver.mjs); every action is checked by
// reading the page's own state.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { waitFor } from './support/harness.mjs';
import { startCommandDriver } from './support/command_driver.mjs';

let driver;
let site;
let call;
let ok;
let fails;
let openPage;
let pageEval;

// A call that must answer within `ms`: the old in-page waits hung when their document went
// away, and a hang must fail the test rather than stall it.
async function within(ms, promise, what) {
  let timer;
  const late = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms); });
  try { return await Promise.race([promise, late]); } finally { clearTimeout(timer); }
}

before(async () => {
  driver = await startCommandDriver({ tempPrefix: 'ot-bt-trusted-' });
  ({ site, call, ok, fails, openPage, pageEval } = driver);
});

after(async () => {
  await driver?.close();
});

describe('waits that survive navigation', () => {
  it('a text wait sent while the click navigates finds the text in the next document', async () => {
    const tab = await openPage('/signin.html');
    await ok('browser.clickElement', { tabId: tab, selector: '#signin' });
    const r = await within(15_000, call('browser.waitForText', { tabId: tab, text: 'Welcome back', timeout: 10_000 }), 'browser.waitForText');
    assert.ok(!('error' in r), r.error);
    assert.equal(r.result.appeared, 'Welcome back');
    assert.deepEqual(await pageEval(tab, "[location.pathname, document.querySelector('h1').textContent]"), ['/slow-welcome', 'Welcome back']);
    await ok('browser.closeTab', { tabId: tab });
  });

  it('an element wait and a textGone wait follow the tab too; a ref of the old document is refused', async () => {
    const tab = await openPage('/signin.html');
    const note = (await ok('browser.queryElements', { tabId: tab, selector: '#note' })).elements[0].ref;
    await ok('browser.clickElement', { tabId: tab, selector: '#signin' });
    const gone = await within(15_000, call('browser.waitForText', { tabId: tab, textGone: 'Not signed in yet', timeout: 10_000 }), 'textGone');
    assert.ok(!('error' in gone), gone.error);
    const r = await within(15_000, call('browser.waitForElement', { tabId: tab, selector: '#inbox', visible: true, timeout: 10_000 }), 'browser.waitForElement');
    assert.ok(!('error' in r), r.error);
    assert.equal(r.result.text, 'Inbox (3)');
    assert.equal(await pageEval(tab, "document.getElementById('inbox').textContent"), 'Inbox (3)');
    await fails('browser.waitForElement', { tabId: tab, ref: note, timeout: 2000 }, /from another document/);
    await fails('browser.waitForElement', { tabId: tab, selector: '#never', timeout: 300 }, /Timed out after \d+ ms waiting for '#never'/);
    await fails('browser.waitForElement', { tabId: tab, selector: 'a[', timeout: 300 }, /Invalid selector/);
    await ok('browser.closeTab', { tabId: tab });
  });

  it('open_tab waits for the load when asked; a plain timed wait pauses', async () => {
    const opened = await ok('browser.openTab', { url: `${site.url}/slow.html`, waitUntil: 'load' });
    assert.equal(opened.waitedFor, 'load');
    assert.deepEqual(await pageEval(opened.id, '[document.readyState, window.loadFired === true]'), ['complete', true]);
    const before = await pageEval(opened.id, 'performance.now()');
    assert.deepEqual(await ok('browser.wait', { tabId: opened.id, ms: 300 }), { waitedMs: 300 });
    assert.ok((await pageEval(opened.id, 'performance.now()')) - before >= 300);
    await fails('browser.wait', { ms: 60_000 }, /at most 25000/);
    await ok('browser.closeTab', { tabId: opened.id });
  });
});

describe('trusted input through the Input domain', () => {
  const events = (tab) => pageEval(tab, 'window.events');

  it('hover moves the real pointer: the parent gets a trusted mouseenter and :hover applies', async () => {
    const tab = await openPage('/trusted.html');
    const r = await ok('browser.hoverElement', { tabId: tab, selector: '#file' });
    assert.equal(r.trusted, true);
    assert.deepEqual(await pageEval(tab, "[document.getElementById('file').matches(':hover'), getComputedStyle(document.getElementById('file-sub')).display]"), [true, 'block']);
    assert.ok((await events(tab)).includes('enter:file'));
    // The submenu item can now be clicked; moving there keeps the menu open (its parent stays hovered).
    await ok('browser.clickElement', { tabId: tab, selector: '#new-item' });
    assert.ok((await events(tab)).includes('menu:new'));
    await ok('browser.hoverElement', { tabId: tab, selector: '#edit' });
    assert.equal(await pageEval(tab, "getComputedStyle(document.getElementById('file-sub')).display"), 'none');
    await ok('browser.closeTab', { tabId: tab });
  });

  it('clicks with modifier keys and the middle button, and leaves no modifier held', async () => {
    const tab = await openPage('/trusted.html');
    const r = await ok('browser.clickElement', { tabId: tab, selector: '#mod', modifiers: { ctrl: true, shift: true } });
    assert.deepEqual(r.modifiers, { shift: true, ctrl: true, alt: false, meta: false });
    assert.equal((await events(tab)).at(-1), 'click:ctrlshift:true');
    await ok('browser.clickElement', { tabId: tab, selector: '#mod' });
    assert.equal((await events(tab)).at(-1), 'click::true');
    await ok('browser.clickElement', { tabId: tab, selector: '#aux', button: 'middle' });
    assert.equal((await events(tab)).at(-1), 'auxclick:1:true');
    await fails('browser.clickElement', { tabId: tab, selector: '#mod', modifiers: { hyper: true } }, /Invalid modifier 'hyper'/);
    await ok('browser.closeTab', { tabId: tab });
  });

  it('types with real key events: slowly fires a keyup per character, the default a trusted insertion ending in a key press', async () => {
    const tab = await openPage('/trusted.html');
    const r = await ok('browser.typeText', { tabId: tab, selector: '#city', text: 'Par', slowly: true });
    assert.equal(r.value, 'Par');
    assert.deepEqual(await pageEval(tab, "[window.keyups, [...document.querySelectorAll('#suggest li')].map((l) => l.textContent)]"), [3, ['Paris', 'Parma']]);
    // Without slowly a keyup-only autocomplete still hears a key once the whole text is in.
    await pageEval(tab, 'window.cityEvents = []');
    const quick = await ok('browser.typeText', { tabId: tab, selector: '#city', text: 'Pra', clear: true });
    assert.equal(quick.value, 'Pra');
    assert.deepEqual(await pageEval(tab, "[window.keyups, [...document.querySelectorAll('#suggest li')].map((l) => l.textContent)]"), [5, ['Prague']]);
    assert.deepEqual((await pageEval(tab, 'window.cityEvents')).slice(-4), ['keydown', 'keypress', 'input', 'keyup']);
    await ok('browser.typeText', { tabId: tab, selector: '#city', text: 'é', clear: true });
    assert.equal(await pageEval(tab, "document.getElementById('city').value"), 'é');
    await ok('browser.typeText', { tabId: tab, selector: '#editor', text: 'two\nlines', clear: true });
    const t = await ok('browser.typeText', { tabId: tab, selector: '#name', text: 'Ada', clear: true });
    assert.equal(t.value, 'Ada');
    assert.deepEqual(await pageEval(tab, "[document.getElementById('name').value, window.inputs.at(-1)]"), ['Ada', 'insertText:true']);
    await ok('browser.typeText', { tabId: tab, selector: '#name', text: ' L.' });
    assert.equal(await pageEval(tab, "document.getElementById('name').value"), 'Ada L.');
    await ok('browser.typeText', { tabId: tab, selector: '#editor', text: 'Hello', clear: true });
    assert.equal(await pageEval(tab, "document.getElementById('editor').innerText.trim()"), 'Hello');
    await fails('browser.typeText', { tabId: tab, selector: '#mod', text: 'x' }, /not a text field/);
    await fails('browser.pressKey', { tabId: tab, key: 'Hyper' }, /Unknown key 'Hyper'/);
    await ok('browser.pressKey', { tabId: tab, key: 'Escape' });
    assert.equal((await events(tab)).at(-1), 'escape:true');
    await ok('browser.closeTab', { tabId: tab });
  });

  it('clicks, drags and wheels at viewport coordinates; refuses points outside the viewport', async () => {
    const tab = await openPage('/trusted.html');
    const box = await pageEval(tab, "(() => { const r = document.getElementById('pad').getBoundingClientRect(); return [r.left + 1, r.top + 1]; })()");
    const [left, top] = box;
    const c = await ok('browser.mouse', { tabId: tab, action: 'click', x: left + 40, y: top + 30 });
    assert.equal(c.element.tag, 'canvas');
    assert.equal((await events(tab)).at(-1), 'canvas-click:40,30');
    await ok('browser.mouse', { tabId: tab, action: 'drag', x: left + 10, y: top + 10, toX: left + 200, toY: top + 100 });
    // A press and release on one element is also a click, as with a real mouse.
    assert.deepEqual((await events(tab)).slice(-2), ['stroke:10,10->200,100:true', 'canvas-click:200,100']);
    const s = await pageEval(tab, "(() => { const r = document.getElementById('scroller').getBoundingClientRect(); return [r.left + 20, r.top + 20]; })()");
    await ok('browser.mouse', { tabId: tab, action: 'wheel', x: s[0], y: s[1], deltaY: 120 });
    // The answer comes once the smooth scroll has ended, so the box is already where it stops.
    assert.equal(await pageEval(tab, "document.getElementById('scroller').scrollTop"), 120, 'the wheel scrolled the box to its end before answering');
    assert.equal((await events(tab)).at(-1), 'wheel:120:true');
    const [w, h] = await pageEval(tab, '[innerWidth, innerHeight]');
    await fails('browser.mouse', { tabId: tab, action: 'click', x: w + 5, y: 10 }, new RegExp(`outside the viewport, which is ${w}x${h} CSS px`));
    await fails('browser.mouse', { tabId: tab, action: 'drag', x: 10, y: 10 }, /Missing toX/);
    await fails('browser.mouse', { tabId: tab, action: 'wheel', x: 10, y: 10 }, /wheel needs deltaX or deltaY/);
    // No button stays pressed after any of these: the next move carries no buttons.
    await pageEval(tab, "(window.moveButtons = null, addEventListener('pointermove', (e) => { window.moveButtons = e.buttons; }), true)");
    await ok('browser.mouse', { tabId: tab, action: 'move', x: 5, y: 5 });
    assert.equal(await pageEval(tab, 'window.moveButtons'), 0);
    await ok('browser.closeTab', { tabId: tab });
  });

  it('names why the debugger cannot attach and releases it after use', async () => {
    const page = await driver.browser.context.newPage();
    await page.goto('chrome://version');
    const tabs = await ok('browser.listTabs', {});
    const chromeTab = (tabs.tabs ?? tabs).find((t) => t.url.startsWith('chrome://version')).id;
    await fails('browser.mouse', { tabId: chromeTab, action: 'click', x: 10, y: 10 }, /Cannot attach the debugger to tab \d+: .*browser page such as chrome:\/\//);
    await page.close();
    const tab = await openPage('/trusted.html');
    await ok('browser.hoverElement', { tabId: tab, selector: '#edit' });
    assert.ok((await driver.harness.evaluate(() => globalThis.btAttached())).some((a) => a.tabId === tab));
    await waitFor(async () => !(await driver.harness.evaluate(() => globalThis.btAttached())).some((a) => a.tabId === tab), 'the debugger to detach after use', 15_000);
    await ok('browser.closeTab', { tabId: tab });
  });
});

describe('bad input leaves the tab as it was', () => {
  it('names another debugger holding the tab, and acts once it is gone', async () => {
    const tab = await openPage('/trusted.html');
    // A second attach path of the same extension: Chrome refuses our attach exactly as when
    // another client holds the tab.
    await driver.harness.evaluate((id) => chrome.debugger.attach({ tabId: id }, '1.3'), tab);
    try {
      await fails('browser.hoverElement', { tabId: tab, selector: '#file' }, /Cannot attach the debugger to tab \d+: .*already attached.*\(another debugger, e\.g\. DevTools or another extension, is attached to this tab; close it and try again\)/);
      assert.ok(!(await driver.harness.evaluate(() => globalThis.btAttached())).some((a) => a.tabId === tab), 'no session left half-open');
    } finally {
      await driver.harness.evaluate((id) => chrome.debugger.detach({ tabId: id }), tab);
    }
    await ok('browser.hoverElement', { tabId: tab, selector: '#file' });
    assert.equal(await pageEval(tab, 'window.events.at(-1)'), 'enter:file');
    await ok('browser.closeTab', { tabId: tab });
  });

  it('ends a drag whose page navigates away with an error and the button released', async () => {
    const tab = await openPage('/nav-drag.html');
    await fails('browser.dragElement', { tabId: tab, fromSelector: '#card', toSelector: '#zone' }, /navigated during the drag .*the mouse button was released/);
    await waitFor(async () => (await ok('browser.getTabInfo', { tabId: tab })).status === 'complete' && (await pageEval(tab, 'location.search')) === '?moved', 'the next document');
    assert.deepEqual(await pageEval(tab, 'window.events'), [], 'nothing dropped on the new page');
    await ok('browser.mouse', { tabId: tab, action: 'move', x: 30, y: 30 });
    await ok('browser.mouse', { tabId: tab, action: 'move', x: 40, y: 35 });
    assert.equal(await pageEval(tab, 'window.lastButtons'), 0, 'no button held');
    await ok('browser.clickElement', { tabId: tab, selector: '#again' });
    assert.deepEqual(await pageEval(tab, 'window.events'), ['click:true']);
    // In this document the card stays: a drop whose handler changes the URL is a success.
    assert.equal((await ok('browser.dragElement', { tabId: tab, fromSelector: '#card', toSelector: '#zone' })).html5Drop, true);
    assert.deepEqual(await pageEval(tab, '[window.events, location.search]'), [['click:true', 'drop'], '?dropped']);
    await ok('browser.closeTab', { tabId: tab });
  });

  it('names the key forms it accepts for a key that does not exist, and holds no modifier', async () => {
    const tab = await openPage('/trusted.html');
    await fails('browser.pressKey', { tabId: tab, key: 'Entr', selector: '#name' }, /Unknown key 'Entr': use a single character or a key name such as Enter, Tab, Escape/);
    await ok('browser.clickElement', { tabId: tab, selector: '#mod' });
    assert.equal(await pageEval(tab, 'window.events.at(-1)'), 'click::true');
    await ok('browser.closeTab', { tabId: tab });
  });
});

describe('drops from outside the page', () => {
  it('drops files and text onto an element as trusted drag events the page reads', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ot-drop-'));
    const file = path.join(dir, 'notes.txt');
    fs.writeFileSync(file, 'dropped notes');
    try {
      const tab = await openPage('/drop.html');
      const r = await ok('browser.dragElement', { tabId: tab, toSelector: '#zone', files: [file] });
      assert.deepEqual(r.files, ['notes.txt']);
      await waitFor(async () => (await pageEval(tab, 'window.drops.length')) === 1, 'the page to read the file');
      assert.deepEqual(await pageEval(tab, 'window.drops[0]'), { trusted: true, entered: true, files: [{ name: 'notes.txt', text: 'dropped notes' }], data: {} });
      await ok('browser.dragElement', { tabId: tab, toSelector: '#zone', data: { 'text/plain': 'hello', 'text/uri-list': 'https://example.com/a' } });
      await waitFor(async () => (await pageEval(tab, 'window.drops.length')) === 2, 'the second drop');
      const second = await pageEval(tab, 'window.drops[1]');
      assert.equal(second.trusted, true);
      assert.deepEqual(second.files, []);
      assert.equal(second.data['text/plain'], 'hello');
      assert.equal(second.data['text/uri-list'], 'https://example.com/a');
      await fails('browser.dragElement', { tabId: tab, toSelector: '#zone', data: { 'not a type': 'x' } }, /is not a MIME type/);
      await fails('browser.dragElement', { tabId: tab, toSelector: '#zone', files: ['notes.txt'] }, /absolute file paths/);
      await fails('browser.dragElement', { tabId: tab, fromSelector: '#zone', toSelector: '#zone', files: [file] }, /not both/);
      await ok('browser.closeTab', { tabId: tab });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('point-7 tools', () => {
  it('finds text in the snapshot with refs to act on', async () => {
    const tab = await openPage('/trusted.html');
    const found = await ok('browser.findText', { tabId: tab, text: 'modifier TARGET' });
    assert.equal(found.count, 1);
    const ref = /\[ref=(e\d+@[0-9a-z]{4})\]/.exec(found.matches[0])?.[1];
    assert.ok(ref, found.matches[0]);
    await ok('browser.clickElement', { tabId: tab, ref });
    assert.equal(await pageEval(tab, 'window.events.at(-1)'), 'click::true');
    assert.equal((await ok('browser.findText', { tabId: tab, text: 'no such words here' })).count, 0);
    await ok('browser.closeTab', { tabId: tab });
  });

  it('sends extra request headers the server sees, until cleared', async () => {
    const tab = await openPage('/trusted.html');
    await ok('browser.setExtraHeaders', { tabId: tab, headers: { 'X-Opentabs-Test': 'on' } });
    assert.equal(await pageEval(tab, "fetch('/api/headers').then((r) => r.json()).then((h) => h['x-opentabs-test'])"), 'on');
    await ok('browser.setExtraHeaders', { tabId: tab, headers: {} });
    assert.equal(await pageEval(tab, "fetch('/api/headers').then((r) => r.json()).then((h) => h['x-opentabs-test'] ?? null)"), null);
    await fails('browser.setExtraHeaders', { tabId: tab, headers: { Cookie: 'a=1' } }, /set by the browser/);
    await fails('browser.setExtraHeaders', { tabId: tab, headers: { 'X-A': 'one\r\ntwo' } }, /without line breaks/);
    await ok('browser.closeTab', { tabId: tab });
  });

  it('throttles the CPU through Emulation, holding the debugger while on, and stops', async () => {
    const tab = await openPage('/trusted.html');
    // The rate Chrome applied is not readable back through CDP, and page timings vary with the
    // machine's load: the test checks what the handler reports and the session it holds.
    const on = await ok('browser.throttleCpu', { tabId: tab, rate: 20 });
    assert.equal(on.rate, 20);
    assert.ok((await driver.harness.evaluate(() => globalThis.btAttached())).some((a) => a.tabId === tab && a.holds.includes('cpu')));
    const off = await ok('browser.throttleCpu', { tabId: tab, rate: 1 });
    assert.equal(off.rate, 1);
    assert.ok(!(await driver.harness.evaluate(() => globalThis.btAttached())).some((a) => a.tabId === tab && a.holds.includes('cpu')));
    await fails('browser.throttleCpu', { tabId: tab, rate: 100 }, /Invalid rate/);
    await ok('browser.closeTab', { tabId: tab });
  });

  it('prints the page to PDF and takes JPEG and WebP screenshots that state their pixel ratio', async () => {
    const tab = await openPage('/trusted.html');
    const pdf = Buffer.from((await ok('browser.savePdf', { tabId: tab })).pdf, 'base64');
    assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
    const jpeg = await ok('browser.screenshotTab', { tabId: tab, format: 'jpeg', quality: 50 });
    assert.equal(jpeg.mimeType, 'image/jpeg');
    assert.deepEqual([...Buffer.from(jpeg.image, 'base64').subarray(0, 2)], [0xff, 0xd8]);
    assert.equal(jpeg.pixelRatio, await pageEval(tab, 'devicePixelRatio'));
    const webp = await ok('browser.screenshotTab', { tabId: tab, format: 'webp' });
    assert.equal(Buffer.from(webp.image, 'base64').subarray(8, 12).toString(), 'WEBP');
    await fails('browser.screenshotTab', { tabId: tab, quality: 50 }, /jpeg and webp only/);
    await ok('browser.closeTab', { tabId: tab });
  });
});

describe('refs for drag sources, drop zones, hover targets, headings and landmarks', () => {
  const refIn = (snap, pattern) => {
    const line = snap.split('\n').find((l) => pattern.test(l));
    assert.ok(line, `no line matches ${pattern} in\n${snap}`);
    return /\[ref=(e\d+@[0-9a-z]{4})\]/.exec(line)?.[1] ?? assert.fail(`no ref on ${line}`);
  };

  it('drags a card onto an empty column, sorts a pointer-events list and opens a hover menu, all from one snapshot', async () => {
    const tab = await openPage('/kanban.html');
    const { snapshot: snap } = await ok('browser.snapshot', { tabId: tab });
    assert.match(snap, /- heading "Sprint board" \[ref=e\d+@[0-9a-z]{4}\] \[level=1\]/);
    const cardA = refIn(snap, /"Card A" .*\[draggable\]/);
    // The Done column holds no card yet: it is known as a drop zone by its sibling's shape.
    const lines = snap.split('\n');
    const doneAt = lines.findIndex((l) => /heading "Done"/.test(l));
    const doneColumn = /\[ref=(e\d+@[0-9a-z]{4})\] \[drop\]/.exec(lines[doneAt - 1])?.[1];
    assert.ok(doneColumn, lines[doneAt - 1]);
    await ok('browser.dragElement', { tabId: tab, fromRef: cardA, toRef: doneColumn });
    assert.equal(await pageEval(tab, 'window.events.at(-1)'), 'moved:card-a->done:true');
    assert.equal(await pageEval(tab, "document.getElementById('card-a').parentElement.id"), 'done');
    await ok('browser.dragElement', { tabId: tab, fromRef: refIn(snap, /listitem "Third" .*\[draggable\]/), toRef: refIn(snap, /listitem "First"/) });
    assert.equal(await pageEval(tab, 'window.events.at(-1)'), 'sorted:p3,p1,p2');
    await ok('browser.hoverElement', { tabId: tab, ref: refIn(snap, /listitem "More" .*\[hover\]/) });
    await ok('browser.clickElement', { tabId: tab, selector: '#archive' });
    assert.equal(await pageEval(tab, 'window.events.at(-1)'), 'archive');
    await ok('browser.closeTab', { tabId: tab });
  });

  it('gives refs to widgets whose handlers come from script: a hover menu, date cells, a drop zone, a card', async () => {
    const tab = await openPage('/widgets.html');
    const { snapshot: snap } = await ok('browser.snapshot', { tabId: tab });
    // A card is named by its text and a column by its heading, so the searched line has the ref.
    refIn(snap, /article "Rename the settings page" .*\[draggable\]/);
    refIn(snap, /group "Backlog" .*\[drop\]/);
    await ok('browser.clickElement', { tabId: tab, ref: refIn(snap, /clickable "2"/) });
    await ok('browser.dragElement', { tabId: tab, toRef: refIn(snap, /"Drop a file here" .*\[drop\]/), data: { 'text/plain': 'note' } });
    await ok('browser.hoverElement', { tabId: tab, ref: refIn(snap, /"Tools" .*\[hover\]/) });
    const { snapshot: open } = await ok('browser.snapshot', { tabId: tab });
    await ok('browser.clickElement', { tabId: tab, ref: refIn(open, /link "Export"/) });
    await waitFor(async () => (await pageEval(tab, 'window.events.length')) === 3, 'the three actions');
    assert.deepEqual(await pageEval(tab, 'window.events'), ['day:2', 'drop:note', 'export']);
    await ok('browser.closeTab', { tabId: tab });
  });
});
