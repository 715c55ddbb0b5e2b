// Real-Chromium tests of the issue-15 browser actions on the extension side: navigation that
// waits for the load (navigate, back, forward, reload), waiting for text, drag and drop,
// file upload, multi-field fill, double and right click, background/element/full-page
// screenshots, always-on console and request capture, and resource content of the page's
// own document.  Like browser_commands.test.mjs, the handlers run in a harness page added to
// a copy of the real extension (the same command registry the background uses), against the
// pages in test/fixtures/site/pages; every action is checked by reading the page's state.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import { waitFor } from './support/harness.mjs';
import { startCommandDriver } from './support/command_driver.mjs';

let driver;
let site;
let browser;
let harness;
let filesDir;
let call;
let ok;
let fails;
let openPage;
let pageEval;

const events = (tabId) => pageEval(tabId, 'window.events');
const pngSize = (base64) => {
  const png = Buffer.from(base64, 'base64');
  assert.equal(png.subarray(1, 4).toString(), 'PNG');
  return [png.readUInt32BE(16), png.readUInt32BE(20)];
};

before(async () => {
  driver = await startCommandDriver({ tempPrefix: 'ot-bt-actions-' });
  ({ site, browser, harness, call, ok, fails, openPage, pageEval } = driver);
  filesDir = path.join(driver.root, 'files');
  fs.mkdirSync(filesDir);
});

after(async () => {
  await driver?.close();
});

describe('navigation that waits for the load', () => {
  it('navigate returns after the load event by default; back, forward and reload wait too', async () => {
    const tab = await openPage('/actions.html');
    const nav = await ok('browser.navigateTab', { tabId: tab, url: `${site.url}/slow.html` });
    assert.equal(nav.waitedFor, 'load');
    // The slow image holds the load event for 1.5 s: right after the call the page has loaded.
    assert.deepEqual(await pageEval(tab, '[location.pathname, document.readyState, window.loadFired === true]'), ['/slow.html', 'complete', true]);
    const back = await ok('browser.goBack', { tabId: tab });
    assert.equal(back.waitedFor, 'load');
    assert.deepEqual(await pageEval(tab, '[location.pathname, document.readyState]'), ['/actions.html', 'complete']);
    await ok('browser.goForward', { tabId: tab });
    assert.deepEqual(await pageEval(tab, '[location.pathname, document.readyState, window.loadFired === true]'), ['/slow.html', 'complete', true]);
    await pageEval(tab, 'window.beforeReload = 1');
    await ok('browser.reloadTab', { tabId: tab });
    assert.deepEqual(await pageEval(tab, '[typeof window.beforeReload, window.loadFired === true]'), ['undefined', true]);
    const dcl = await ok('browser.navigateTab', { tabId: tab, url: `${site.url}/slow.html?dcl`, waitUntil: 'domcontentloaded' });
    assert.equal(dcl.waitedFor, 'domcontentloaded');
    assert.ok(['interactive', 'complete'].includes(await pageEval(tab, 'location.search === "?dcl" && document.readyState')));
    await fails('browser.navigateTab', { tabId: tab, url: `${site.url}/slow.html`, waitUntil: 'idle' }, /Invalid waitUntil/);
    assert.equal((await ok('browser.navigateTab', { tabId: tab, url: `${site.url}/actions.html`, waitUntil: 'none' })).waitedFor, 'none');
    await waitFor(async () => (await pageEval(tab, 'location.pathname').catch(() => null)) === '/actions.html', 'the unwaited navigation');
    const fresh = await openPage('/actions.html');
    await fails('browser.goBack', { tabId: fresh }, /there is no previous page/);
    await ok('browser.closeTab', { tabId: fresh });
    await ok('browser.closeTab', { tabId: tab });
  });
});

describe('page actions', () => {
  it('waits for text to appear and to disappear, and times out clearly', async () => {
    const tab = await openPage('/actions.html');
    await ok('browser.clickElement', { tabId: tab, selector: '#later' });
    const shown = await ok('browser.waitForText', { tabId: tab, text: 'Saved successfully', timeout: 5000 });
    assert.equal(shown.appeared, 'Saved successfully');
    assert.equal(await pageEval(tab, "document.getElementById('late').textContent"), 'Saved successfully');
    await ok('browser.clickElement', { tabId: tab, selector: '#clear-later' });
    assert.equal((await ok('browser.waitForText', { tabId: tab, textGone: 'Saved successfully', timeout: 5000 })).gone, 'Saved successfully');
    assert.equal(await pageEval(tab, "document.getElementById('late').textContent"), '');
    await fails('browser.waitForText', { tabId: tab, text: 'never there', timeout: 300 }, /Timed out after 300 ms waiting for the text "never there" to appear/);
    await ok('browser.closeTab', { tabId: tab });
  });

  it('double-clicks and right-clicks with trusted events', async () => {
    const tab = await openPage('/actions.html');
    const dbl = await ok('browser.clickElement', { tabId: tab, selector: '#dbl', doubleClick: true });
    assert.equal(dbl.doubleClick, true);
    assert.ok((await events(tab)).includes('dblclick'));
    await ok('browser.clickElement', { tabId: tab, selector: '#ctx', button: 'right' });
    assert.ok((await events(tab)).includes('contextmenu:2'));
    await fails('browser.clickElement', { tabId: tab, selector: '#ctx', button: 'side' }, /Invalid button/);
    await ok('browser.closeTab', { tabId: tab });
  });

  it('drags one element onto another with a trusted HTML5 drop', async () => {
    const tab = await openPage('/actions.html');
    const r = await ok('browser.dragElement', { tabId: tab, fromSelector: '#drag-src', toSelector: '#drop-zone' });
    assert.equal(r.html5Drop, true);
    const seen = await events(tab);
    assert.ok(seen.includes('dragstart'), JSON.stringify(seen));
    assert.ok(seen.includes('drop:payload-42:trusted'), JSON.stringify(seen));
    await fails('browser.dragElement', { tabId: tab, fromSelector: '#drag-src', toSelector: '#end' }, /cannot be in view at the same time/);
    await ok('browser.closeTab', { tabId: tab });
  });

  it('sets the files of a file input, which the page reads', async () => {
    const tab = await openPage('/actions.html');
    const a = path.join(filesDir, 'a.txt');
    const b = path.join(filesDir, 'b.txt');
    fs.writeFileSync(a, 'alpha\n');
    fs.writeFileSync(b, 'beta\n');
    const r = await ok('browser.uploadFile', { tabId: tab, selector: '#upload', paths: [a, b] });
    assert.deepEqual(r.files, ['a.txt', 'b.txt']);
    await waitFor(async () => (await events(tab)).includes('upload:a.txt=alpha,b.txt=beta'), 'the page to read the files', 5000);
    await fails('browser.uploadFile', { tabId: tab, selector: '#first', paths: [a] }, /not an <input type=file>/);
    await fails('browser.uploadFile', { tabId: tab, selector: '#upload', paths: ['relative.txt'] }, /absolute/);
    assert.equal(await pageEval(tab, "document.querySelectorAll('[data-opentabs-inspect]').length"), 0);
    await ok('browser.closeTab', { tabId: tab });
  });

  it('fills text fields, a select, checkboxes and a radio in one call, or nothing when a field is wrong', async () => {
    const tab = await openPage('/actions.html');
    const r = await ok('browser.fillForm', {
      tabId: tab,
      fields: [
        { selector: '#first', value: 'Ada' }, { selector: '#bio', value: 'Counts things' }, { selector: '#plan', value: 'Team' },
        { selector: '#news', value: true }, { selector: '#terms', value: false }, { selector: '#size-l', value: true },
      ],
    });
    assert.equal(r.filled, 6);
    assert.deepEqual(await pageEval(tab, `[first.value, bio.value, plan.value, news.checked, terms.checked, document.getElementById('size-l').checked, document.getElementById('size-s').checked]`),
      ['Ada', 'Counts things', 'team', true, false, true, false]);
    const seen = await events(tab);
    for (const id of ['first', 'bio', 'plan', 'news', 'terms', 'size-l']) assert.ok(seen.includes(`change:${id}`), `change on ${id}: ${seen}`);
    await fails('browser.fillForm', { tabId: tab, fields: [{ selector: '#first', value: 'Bob' }, { selector: '#plan', value: 'gold' }] }, /fields\[1\].*no option with value or label "gold"/);
    assert.equal(await pageEval(tab, 'first.value'), 'Ada', 'nothing changed when a field was wrong');
    await fails('browser.fillForm', { tabId: tab, fields: [{ selector: '#news', value: 'maybe' }] }, /give true or false/);
    await ok('browser.closeTab', { tabId: tab });
  });
});

describe('screenshots', () => {
  it('captures a background tab 7 times out of 7 without activating it', async () => {
    const fg = await openPage('/interact.html', { active: true });
    const bg = await openPage('/actions.html');
    const [width, height] = await pageEval(bg, '[innerWidth, innerHeight]');
    const outcomes = [];
    for (let i = 0; i < 7; i++) {
      const r = await call('browser.screenshotTab', { tabId: bg });
      outcomes.push('error' in r ? r.error : 'ok');
      if (!('error' in r)) assert.deepEqual(pngSize(r.result.image), [width, height]);
    }
    assert.deepEqual(outcomes, Array(7).fill('ok'));
    // Chrome freezes background tabs it wants to save power on; a frozen renderer draws no
    // frames, which is what made captures of such tabs hang.
    const page = browser.context.pages().find((p) => p.url().endsWith('/actions.html'));
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send('Page.setWebLifecycleState', { state: 'frozen' });
    const frozen = await call('browser.screenshotTab', { tabId: bg });
    assert.ok(!('error' in frozen), frozen.error);
    assert.deepEqual(pngSize(frozen.result.image), [width, height]);
    await cdp.detach();
    assert.equal((await ok('browser.getTabInfo', { tabId: bg })).active, false);
    assert.equal((await ok('browser.getTabInfo', { tabId: fg })).active, true);
    await ok('browser.closeTab', { tabId: bg });
    await ok('browser.closeTab', { tabId: fg });
  });

  it('captures one element by selector or ref, and the full page, at their sizes', async () => {
    const tab = await openPage('/actions.html');
    const dpr = await pageEval(tab, 'devicePixelRatio');
    const el = await ok('browser.screenshotTab', { tabId: tab, selector: '#box' });
    assert.deepEqual(pngSize(el.image), [120 * dpr, 50 * dpr]);
    assert.equal(el.element.tag, 'div');
    // The element's own pixels: the box is filled with rgb(10, 120, 200).
    const [r, g, b] = await harness.evaluate(async (data) => {
      const img = await createImageBitmap(await (await fetch(`data:image/png;base64,${data}`)).blob());
      const canvas = new OffscreenCanvas(img.width, img.height);
      const c = canvas.getContext('2d');
      c.drawImage(img, 0, 0);
      return [...c.getImageData(Math.floor(img.width / 2), Math.floor(img.height / 4), 1, 1).data];
    }, el.image);
    assert.deepEqual([r, g, b], [10, 120, 200]);
    // By ref (refs also come from browser_queryElements): the end-of-page paragraph is far below the viewport.
    const boxRef = (await ok('browser.queryElements', { tabId: tab, selector: '#end' })).elements[0].ref;
    const [ew, eh] = await pageEval(tab, "(() => { const r = document.getElementById('end').getBoundingClientRect(); return [Math.round(r.width), Math.round(r.height)]; })()");
    assert.deepEqual(pngSize((await ok('browser.screenshotTab', { tabId: tab, ref: boxRef })).image), [ew * dpr, eh * dpr]);
    const full = await ok('browser.screenshotTab', { tabId: tab, fullPage: true });
    const [fw, fh] = await pageEval(tab, '[document.documentElement.scrollWidth, document.documentElement.scrollHeight]');
    assert.ok(fh > 2400, `the page is taller than the viewport (${fh})`);
    assert.deepEqual(pngSize(full.image), [fw * dpr, fh * dpr]);
    assert.equal(full.truncated, undefined);
    await fails('browser.screenshotTab', { tabId: tab, selector: '#box', fullPage: true }, /not both/);
    await fails('browser.screenshotTab', { tabId: tab, selector: '#nothing-here' }, /No element matches/);
    assert.equal((await ok('browser.getTabInfo', { tabId: tab })).active, false);
    await ok('browser.closeTab', { tabId: tab });
  });

  it('caps a very tall full page at 16384 CSS px and says so', async () => {
    const tab = await openPage('/actions.html');
    await pageEval(tab, "(document.getElementById('tall').style.height = '30000px', 1)");
    const full = await ok('browser.screenshotTab', { tabId: tab, fullPage: true });
    const dpr = await pageEval(tab, 'devicePixelRatio');
    assert.equal(full.truncated, true);
    assert.match(full.note, /captured its top-left/);
    assert.equal(pngSize(full.image)[1], Math.round(16384 * dpr * (full.scale ?? 1)));
    await ok('browser.closeTab', { tabId: tab });
  });
});

describe('always-on light capture', () => {
  it('records console messages from page start, without network capture or the debugger', async () => {
    const tab = await openPage('/actions.html');
    await waitFor(async () => (await pageEval(tab, 'window.boot?.kind')) === 'boot', 'the boot fetch');
    const logs = await ok('browser.getConsoleLogs', { tabId: tab });
    assert.equal(logs.source, 'light');
    assert.ok(logs.logs.some((l) => l.level === 'log' && l.text === 'actions page loaded 7'), JSON.stringify(logs));
    assert.deepEqual((await ok('browser.getConsoleLogs', { tabId: tab, level: 'error' })).logs.map((l) => l.text), ['actions page error line']);
    await pageEval(tab, "(setTimeout(() => { throw new Error('late boom'); }), 1)");
    await waitFor(async () => (await ok('browser.getConsoleLogs', { tabId: tab })).logs.some((l) => l.exception && /late boom/.test(l.text)), 'the uncaught error');
    await ok('browser.clearConsoleLogs', { tabId: tab });
    assert.equal((await ok('browser.getConsoleLogs', { tabId: tab })).logs.length, 0);
    assert.ok(!(await harness.evaluate(() => globalThis.btAttached())).some((a) => a.tabId === tab), 'the debugger was never attached');
    await ok('browser.closeTab', { tabId: tab });
  });

  it('records requests from page start, without network capture or the debugger', async () => {
    const tab = await openPage('/actions.html');
    await waitFor(async () => (await pageEval(tab, 'window.boot?.kind')) === 'boot', 'the boot fetch');
    const list = await ok('browser.getNetworkRequests', { tabId: tab });
    assert.equal(list.source, 'light');
    const doc = list.requests.find((r) => r.type === 'Document' && r.url === `${site.url}/actions.html`);
    assert.equal(doc?.status, 200, JSON.stringify(list.requests));
    const api = list.requests.find((r) => r.url === `${site.url}/api/data?kind=boot&n=3`);
    assert.equal(api?.status, 200, JSON.stringify(list.requests));
    assert.equal(api.type, 'Fetch');
    assert.equal(api.method, 'GET', "the fetch's method noted by the page record");
    assert.equal(list.requests.filter((r) => r.type === 'Document').length, 1, JSON.stringify(list.requests));
    const { request, source } = await ok('browser.getNetworkRequest', { tabId: tab, requestId: api.requestId });
    assert.equal(source, 'light');
    assert.equal(request.url, api.url);
    assert.ok(request.size > 0, JSON.stringify(request));
    await fails('browser.getNetworkRequest', { tabId: tab, requestId: 'w999999999' }, /No request w999999999/);
    // Ids are bound to the document: after a reload, an id from the old page names nothing.
    await pageEval(tab, '(window.oldPage = true, setTimeout(() => location.reload(), 0), true)');
    await waitFor(async () => (await pageEval(tab, '!window.oldPage && window.boot?.kind').catch(() => null)) === 'boot', 'the boot fetch after the reload');
    await fails('browser.getNetworkRequest', { tabId: tab, requestId: api.requestId }, /No request/);
    assert.ok(!(await harness.evaluate(() => globalThis.btAttached())).some((a) => a.tabId === tab), 'the debugger was never attached');
    await ok('browser.closeTab', { tabId: tab });
  });
});

describe('resource content of the page itself', () => {
  it("reads the tab's own document, also when it was sent with Cache-Control: no-store", async () => {
    const tab = await openPage('/nostore.html');
    const doc = await ok('browser.getResourceContent', { tabId: tab, url: `${site.url}/nostore.html` });
    assert.equal(doc.type, 'Document');
    assert.match(doc.content, /served with Cache-Control: no-store/);
    const cached = await openPage('/actions.html');
    assert.match((await ok('browser.getResourceContent', { tabId: cached, url: `${site.url}/actions.html` })).content, /<title>Actions fixture<\/title>/);
    await ok('browser.closeTab', { tabId: tab });
    await ok('browser.closeTab', { tabId: cached });
  });
});
