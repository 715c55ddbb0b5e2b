// Real-Chromium tests of the extension side of the built-in browser tools: every browser.* /
// extension.* handler in extension/src/browser-commands runs in headless Chromium against the
// pages in test/fixtures/site/pages.  The handlers are called through a small harness page
// added to a copy of the real extension (it imports the same command registry the background
// uses), so these tests need no server; the server-side parts (exec-file writing, image
// content, HAR building) are unit-tested in test/server/app/browser_tools_test.cpp and the MCP
// path in browser_mcp.test.mjs.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';

import { SOURCE_DIR, waitFor } from './support/harness.mjs';
import { startCommandDriver } from './support/command_driver.mjs';
import { browserCatalog } from './support/catalog.mjs';

let driver;
let site;
let browser;
let harness;
let extDir;
let call;
let ok;
let fails;
let openPage;
let pageEval;
let lastEvent;

before(async () => {
  driver = await startCommandDriver({ tempPrefix: 'ot-bt-ext-', keepDialogs: true });
  ({ site, browser, harness, extDir, call, ok, fails, openPage, pageEval, lastEvent } = driver);
});

after(async () => {
  await driver?.close();
});

describe('catalog and extension agree', () => {
  it('every method the server forwards is allowed in and handled by the extension', async () => {
    const forwarded = browserCatalog().filter((t) => t.method !== '');
    assert.ok(forwarded.length >= 70, `${forwarded.length} forwarded tools`);
    const { ALLOWED_INBOUND_METHODS } = await import(new URL(`file://${SOURCE_DIR}/extension/src/shared/allowed-methods.js`).href);
    for (const { name, method } of forwarded) {
      assert.ok(ALLOWED_INBOUND_METHODS.has(method), `${name} forwards ${method}, which the extension drops`);
      assert.ok(await harness.evaluate((m) => globalThis.btHas(m), method), `${name} forwards ${method}, which has no handler`);
    }
  });
});

describe('tabs and tab groups', () => {
  it('opens in the background, lists, inspects, navigates, focuses, groups and closes tabs', async () => {
    const before = (await ok('browser.listTabs', {})).find((t) => t.active);
    const a = await openPage('/interact.html');
    const b = await openPage('/frame.html');
    const tabs = await ok('browser.listTabs', {});
    assert.ok(tabs.some((t) => t.id === a && t.url.endsWith('/interact.html') && t.active === false));
    assert.equal(tabs.find((t) => t.active && t.windowId === before.windowId)?.id, before.id, 'the active tab did not change');
    const info = await ok('browser.getTabInfo', { tabId: a });
    assert.equal(info.title, 'Interaction fixture');
    await ok('browser.navigateTab', { tabId: b, url: `${site.url}/big.html` });
    await waitFor(async () => (await ok('browser.getTabInfo', { tabId: b })).title === 'Large page fixture', 'navigation');
    await fails('browser.navigateTab', { tabId: b, url: 'javascript:alert(1)' }, /only http/);

    const created = await ok('browser.createTabGroup', { tabIds: [a], title: 'Research', color: 'blue' });
    assert.equal(created.group.title, 'Research');
    await ok('browser.addTabsToGroup', { groupId: created.groupId, tabIds: [b] });
    const inGroup = await ok('browser.listTabsInGroup', { groupId: created.groupId });
    assert.deepEqual(inGroup.tabs.map((t) => t.id).sort(), [a, b].sort());
    const updated = await ok('browser.updateTabGroup', { groupId: created.groupId, title: 'Renamed', color: 'red', collapsed: false });
    assert.equal(updated.group.title, 'Renamed');
    assert.equal(updated.group.color, 'red');
    const groups = await ok('browser.listTabGroups', {});
    assert.ok(groups.groups.some((g) => g.id === created.groupId));
    await ok('browser.removeTabsFromGroup', { tabIds: [a, b] });
    assert.equal((await ok('browser.getTabInfo', { tabId: a })).groupId, -1);

    await ok('browser.focusTab', { tabId: a });
    assert.equal((await ok('browser.getTabInfo', { tabId: a })).active, true);
    await ok('browser.closeTab', { tabId: b });
    await ok('browser.closeTab', { tabId: a });
    assert.ok(!(await ok('browser.listTabs', {})).some((t) => t.id === a || t.id === b));
  });
});

describe('page content, HTML, query, wait, storage', () => {
  let tab;
  before(async () => { tab = await openPage('/interact.html'); });
  after(async () => { await call('browser.closeTab', { tabId: tab }); });

  it('reads text, HTML and elements with truncation markers', async () => {
    const content = await ok('browser.getTabContent', { tabId: tab });
    assert.match(content.content, /Interaction fixture/);
    const short = await ok('browser.getTabContent', { tabId: tab, maxLength: 10 });
    assert.equal(short.truncated, true);
    assert.match(short.content, /\[\.\.\. truncated: 10 of \d+ characters shown\]/);
    const html = await ok('browser.getPageHtml', { tabId: tab, selector: '#btn' });
    assert.match(html.html, /^<button id="btn"/);
    const q = await ok('browser.queryElements', { tabId: tab, selector: 'button', attributes: ['id'] });
    assert.ok(q.elements.some((e) => e.attributes?.id === 'alert-btn'));
    const shadow = await ok('browser.queryElements', { tabId: tab, selector: '#shadow-btn' });
    assert.equal(shadow.count, 1, 'plain selectors also search open shadow roots');
    const framed = await ok('browser.queryElements', { tabId: tab, selector: '#frame >>> #frame-btn' });
    assert.equal(framed.elements[0].text, 'Frame button');
  });

  it('waits for elements and fails clearly on timeout', async () => {
    const found = await ok('browser.waitForElement', { tabId: tab, selector: '#bottom', timeout: 2000, visible: false });
    assert.equal(found.found, true);
    await pageEval(tab, "setTimeout(() => { const d = document.createElement('div'); d.id = 'late'; d.textContent = 'late'; document.body.append(d); }, 300), 1");
    assert.equal((await ok('browser.waitForElement', { tabId: tab, selector: '#late', timeout: 5000 })).found, true);
    await fails('browser.waitForElement', { tabId: tab, selector: '#never', timeout: 300 }, /Timed out after 300 ms waiting for '#never'/);
  });

  it('reads localStorage and sessionStorage', async () => {
    const local = await ok('browser.getStorage', { tabId: tab });
    assert.equal(local.entries['fixture-key'], 'fixture-value');
    const one = await ok('browser.getStorage', { tabId: tab, storageType: 'session', key: 'session-key' });
    assert.equal(one.value, 'session-value');
  });
});

describe('interaction by selector and by ref, in an iframe and a shadow root', () => {
  let tab;
  before(async () => { tab = await openPage('/interact.html'); });
  after(async () => { await call('browser.closeTab', { tabId: tab }); });

  it('clicks with trusted events by selector, in a shadow root and in an iframe, without activating the tab', async () => {
    const r = await ok('browser.clickElement', { tabId: tab, selector: '#btn' });
    assert.equal(r.trusted, true);
    assert.equal(await lastEvent(tab), 'clicked:trusted');
    await ok('browser.clickElement', { tabId: tab, selector: '#widget >>> #shadow-btn' });
    assert.equal(await lastEvent(tab), 'shadow-clicked:trusted');
    await ok('browser.clickElement', { tabId: tab, selector: '#frame >>> #frame-btn' });
    assert.equal(await lastEvent(tab), 'frame-clicked:trusted');
    assert.equal((await ok('browser.getTabInfo', { tabId: tab })).active, false);
  });

  it('types, selects, hovers, scrolls and presses keys by selector', async () => {
    await ok('browser.typeText', { tabId: tab, selector: '#name', text: 'Ada' });
    assert.equal(await lastEvent(tab), 'input:Ada');
    await ok('browser.typeText', { tabId: tab, selector: '#name', text: 'Grace', clear: true });
    assert.equal(await lastEvent(tab), 'input:Grace');
    await ok('browser.typeText', { tabId: tab, selector: '#frame >>> #frame-input', text: 'in frame' });
    assert.equal(await lastEvent(tab), 'frame-input:in frame');
    await ok('browser.selectOption', { tabId: tab, selector: '#color', label: 'Green' });
    assert.equal(await lastEvent(tab), 'change:g');
    await fails('browser.selectOption', { tabId: tab, selector: '#color', value: 'zz' }, /No option with value 'zz'; options: r \(Red\)/);
    await ok('browser.hoverElement', { tabId: tab, selector: '#hover-target' });
    assert.equal(await lastEvent(tab), 'hovered');
    const scrolled = await ok('browser.scroll', { tabId: tab, selector: '#scroller', direction: 'down', distance: 50 });
    assert.equal(scrolled.scrollTop, 50);
    await ok('browser.scroll', { tabId: tab, position: 'bottom' });
    assert.ok(await pageEval(tab, 'window.scrollY') > 500);
    await ok('browser.scroll', { tabId: tab, selector: '#btn' });
    await ok('browser.pressKey', { tabId: tab, key: 'Enter', selector: '#name' });
    // The scrolls may bring the hover target back under the resting pointer, which enters it
    // again, as it would under a person's mouse.
    const lastKey = () => pageEval(tab, "window.events.filter((e) => e !== 'hovered').at(-1)");
    assert.equal(await lastKey(), 'key:Enter');
    await ok('browser.pressKey', { tabId: tab, key: 'a', modifiers: ['Control'] });
    assert.equal(await lastKey(), 'key:a+ctrl');
    await fails('browser.clickElement', { tabId: tab, selector: '#nope' }, /No element matches selector '#nope'/);
  });

  it('drives the same actions by snapshot ref, including inside the iframe and shadow root', async () => {
    const snap = await ok('browser.snapshot', { tabId: tab });
    const refOf = (pattern) => {
      const line = snap.snapshot.split('\n').find((l) => pattern.test(l));
      assert.ok(line, `snapshot has a line matching ${pattern}:\n${snap.snapshot}`);
      return /\[ref=(e\d+@[0-9a-z]{4})\]/.exec(line)[1];
    };
    assert.match(snap.snapshot, /textbox "Your name" \[ref=e\d+@[0-9a-z]{4}\]/);
    assert.match(snap.snapshot, /iframe "inner frame" \[ref=e\d+@[0-9a-z]{4}\]\n  - button "Frame button"/);
    await ok('browser.clickElement', { tabId: tab, ref: refOf(/button "Shadow button"/) });
    assert.equal(await lastEvent(tab), 'shadow-clicked:trusted');
    await ok('browser.clickElement', { tabId: tab, ref: refOf(/button "Frame button"/) });
    assert.equal(await lastEvent(tab), 'frame-clicked:trusted');
    await ok('browser.typeText', { tabId: tab, ref: refOf(/textbox "Shadow field"/), text: 'deep' });
    assert.equal(await lastEvent(tab), 'shadow-input:deep');
    await ok('browser.selectOption', { tabId: tab, ref: refOf(/combobox \[ref=e\d+@[0-9a-z]{4}\] value="One"/), value: '2' });
    assert.equal(await lastEvent(tab), 'frame-change:2');
    await ok('browser.hoverElement', { tabId: tab, ref: refOf(/button "Hover target"/) });
    assert.equal(await lastEvent(tab), 'hovered');
    await ok('browser.scroll', { tabId: tab, ref: refOf(/button "Ask"/) });
    await ok('browser.waitForElement', { tabId: tab, ref: refOf(/button "Press me"/), timeout: 1000 });
    await ok('browser.pressKey', { tabId: tab, ref: refOf(/textbox "Your name"/), key: 'Tab' });
    assert.equal(await lastEvent(tab), 'key:Tab');
    const tag = refOf(/button "Press me"/).split('@')[1];
    await fails('browser.clickElement', { tabId: tab, ref: `e999999@${tag}` }, /Unknown ref 'e999999@[0-9a-z]{4}': take a new browser_snapshot/);
    await fails('browser.clickElement', { tabId: tab, ref: 'e1' }, /lacks the document tag/);
    // Refs are stable: a second snapshot names the same element with the same ref.
    const again = await ok('browser.snapshot', { tabId: tab });
    assert.match(again.snapshot, new RegExp(`button "Press me" \\[ref=${refOf(/button "Press me"/)}\\]`));
  });

  it('accepts and dismisses JavaScript dialogs', { timeout: 20_000 }, async () => {
    // The click opens a confirm(); the click returns at once and names the open dialog.
    const clicked = await ok('browser.clickElement', { tabId: tab, selector: '#alert-btn' });
    assert.equal(clicked.dialog?.type, 'confirm');
    assert.equal(clicked.dialog?.message, 'Proceed?');
    await ok('browser.handleDialog', { tabId: tab, action: 'accept' });
    assert.equal(await lastEvent(tab), 'confirm:true');
    await call('browser.clickElement', { tabId: tab, selector: '#alert-btn' });
    await ok('browser.handleDialog', { tabId: tab, action: 'dismiss' });
    assert.equal(await lastEvent(tab), 'confirm:false');
    await fails('browser.handleDialog', { tabId: tab, action: 'accept' }, /No JavaScript dialog is open|No dialog/);
  });
});

describe('snapshot of a large page', () => {
  it('stays under its cap with a truncation marker, and its refs drive a click that changes the page', async () => {
    const tab = await openPage('/big.html');
    const snap = await ok('browser.snapshot', { tabId: tab, maxChars: 5000 });
    assert.ok(snap.snapshot.length <= 5000, `snapshot is ${snap.snapshot.length} chars`);
    assert.equal(snap.truncated, true);
    assert.match(snap.snapshot, /\[\.\.\. truncated: snapshot reached maxChars=5000/);
    const ref = /button "First action" \[ref=(e\d+@[0-9a-z]{4})\]/.exec(snap.snapshot)[1];
    await ok('browser.clickElement', { tabId: tab, ref });
    const scoped = await ok('browser.snapshot', { tabId: tab, selector: '#status' });
    assert.match(scoped.snapshot, /clicked first action/);
    const interactive = await ok('browser.snapshot', { tabId: tab, interactiveOnly: true, maxChars: 3000 });
    assert.ok(!/text:/.test(interactive.snapshot));
    assert.ok(interactive.snapshot.length <= 3000);
    await ok('browser.closeTab', { tabId: tab });
  });
});

describe('screenshots', () => {
  it('captures the active tab and a background tab as PNGs of the viewport size without activating it', async () => {
    const fg = await openPage('/interact.html', { active: true });
    const shot = await ok('browser.screenshotTab', { tabId: fg });
    const png = Buffer.from(shot.image, 'base64');
    assert.equal(png.subarray(1, 4).toString(), 'PNG');
    // captureVisibleTab: the window's visible area (headless adds a virtual toolbar, so the
    // height is at most the page's innerHeight); the width is the viewport's.
    const [width, height] = await pageEval(fg, '[innerWidth, innerHeight]');
    assert.equal(png.readUInt32BE(16), width);
    assert.ok(png.readUInt32BE(20) > 0 && png.readUInt32BE(20) <= height);
    assert.equal(shot.capturedWith, 'captureVisibleTab');
    const bg = await openPage('/big.html');
    const bgShot = await ok('browser.screenshotTab', { tabId: bg });
    assert.equal(bgShot.capturedWith, 'debugger');
    const bgPng = Buffer.from(bgShot.image, 'base64');
    assert.equal(bgPng.subarray(1, 4).toString(), 'PNG');
    assert.deepEqual([bgPng.readUInt32BE(16), bgPng.readUInt32BE(20)], await pageEval(bg, '[innerWidth, innerHeight]'));
    assert.equal((await ok('browser.getTabInfo', { tabId: bg })).active, false);
    await ok('browser.closeTab', { tabId: bg });
    await ok('browser.closeTab', { tabId: fg });
  });
});

describe('execute_script exec files', () => {
  it('runs a file, returns JSON values, reports errors and refuses bad file names', async () => {
    const tab = await openPage('/interact.html');
    assert.equal(await pageEval(tab, 'document.title'), 'Interaction fixture');
    assert.deepEqual(await pageEval(tab, 'Promise.resolve({a: [1, 2]})'), { a: [1, 2] });
    await fails('browser.executeScript', { tabId: tab, execFile: '../evil.js' }, /Invalid execFile/);
    const key = randomUUID();
    fs.writeFileSync(path.join(extDir, 'adapters', `__exec-${key}.js`),
      `(() => { const ns = (globalThis.__openTabs ??= {}); ns['__execStarted_${key}'] = true; ns['__execResult_${key}'] = { error: 'Error: boom' }; })();`);
    await fails('browser.executeScript', { tabId: tab, execFile: `__exec-${key}.js` }, /Script error: Error: boom/);
    await ok('browser.closeTab', { tabId: tab });
  });
});

describe('console and network capture, WebSocket frames', () => {
  it('records requests with bodies, console lines and WS frames, then detaches', async () => {
    const tab = await openPage('/network.html');
    // Capture off: the always-on light record (issue 15), not an error.
    assert.equal((await ok('browser.getNetworkRequests', { tabId: tab })).source, 'light');
    await ok('browser.enableNetworkCapture', { tabId: tab, maxRequests: 50 });
    await fails('browser.enableNetworkCapture', { tabId: tab }, /already active/);
    await pageEval(tab, 'window.runNetwork(), 1');
    await waitFor(async () => /ws:echo:ping-frame/.test(await pageEval(tab, "document.getElementById('result').textContent")), 'the page traffic');
    const { requests } = await waitFor(async () => {
      const r = await ok('browser.getNetworkRequests', { tabId: tab });
      return r.requests.some((q) => q.method === 'POST' && q.responseBody) ? r : null;
    }, 'POST response body');
    const post = requests.find((q) => q.method === 'POST');
    assert.equal(post.status, 200);
    assert.equal(post.requestBody, '{"hello":"world"}');
    assert.deepEqual(JSON.parse(post.responseBody), { echo: { hello: 'world' } });
    const frames = await ok('browser.getWebSocketFrames', { tabId: tab });
    assert.deepEqual(frames.frames.map((f) => `${f.direction}:${f.data}`), ['sent:ping-frame', 'received:echo:ping-frame']);
    const logs = await ok('browser.getConsoleLogs', { tabId: tab });
    assert.ok(logs.logs.some((l) => l.level === 'log' && l.text === 'network page start 42'));
    assert.equal((await ok('browser.getConsoleLogs', { tabId: tab, level: 'warn' })).logs.length, 1);
    await ok('browser.clearConsoleLogs', { tabId: tab });
    assert.equal((await ok('browser.getConsoleLogs', { tabId: tab })).logs.length, 0);
    assert.equal((await ok('browser.getNetworkRequests', { tabId: tab, clear: true })).requests.length, requests.length);
    assert.equal((await ok('browser.getNetworkRequests', { tabId: tab })).requests.length, 0);
    await ok('browser.disableNetworkCapture', { tabId: tab });
    // The debugger detaches by itself once nothing holds it.
    await waitFor(async () => !(await harness.evaluate(() => globalThis.btAttached())).some((a) => a.tabId === tab), 'idle detach', 15_000);
    await ok('browser.closeTab', { tabId: tab });
  });

  it('lists resources and reads one', async () => {
    const tab = await openPage('/interact.html');
    const res = await ok('browser.listResources', { tabId: tab });
    assert.ok(res.resources.some((r) => r.url.endsWith('/frame.html')));
    const body = await ok('browser.getResourceContent', { tabId: tab, url: `${site.url}/frame.html` });
    assert.match(body.content, /Frame button/);
    await ok('browser.closeTab', { tabId: tab });
  });
});

describe('interception and throttling', () => {
  it('fulfils and fails paused requests', async () => {
    const tab = await openPage('/network.html');
    await ok('browser.interceptRequests', { tabId: tab, urlPatterns: ['*/api/data*'] });
    await pageEval(tab, "(window.f1 = fetch('/api/data?kind=intercepted').then(r => r.text())), 1");
    const paused = await waitFor(async () => (await ok('browser.getNetworkRequests', { tabId: tab })).pausedRequests?.[0], 'a paused request');
    assert.match(paused.url, /kind=intercepted/);
    await ok('browser.fulfillRequest', { tabId: tab, requestId: paused.requestId, status: 200, headers: { 'Content-Type': 'text/plain' }, body: 'faked ✓' });
    assert.equal(await pageEval(tab, 'window.f1'), 'faked ✓');
    await pageEval(tab, "(window.f2 = fetch('/api/data?kind=fail').then(() => 'ok', (e) => 'failed: ' + e.name)), 1");
    const second = await waitFor(async () => (await ok('browser.getNetworkRequests', { tabId: tab })).pausedRequests?.[0], 'a second paused request');
    await ok('browser.failRequest', { tabId: tab, requestId: second.requestId, errorReason: 'ConnectionRefused' });
    assert.equal(await pageEval(tab, 'window.f2'), 'failed: TypeError');
    await fails('browser.fulfillRequest', { tabId: tab, requestId: 'nope', status: 200 }, /No paused request nope/);
    assert.equal((await ok('browser.stopIntercepting', { tabId: tab })).wasActive, true);
    assert.deepEqual(await pageEval(tab, "fetch('/api/data?kind=free').then(r => r.json())"), { kind: 'free', n: 0 });
    await ok('browser.closeTab', { tabId: tab });
  });

  it('throttles to offline and back', async () => {
    const tab = await openPage('/network.html');
    await ok('browser.throttleNetwork', { tabId: tab, preset: 'offline' });
    assert.equal(await pageEval(tab, "fetch('/api/data').then(() => 'online', () => 'offline')"), 'offline');
    await ok('browser.clearNetworkThrottle', { tabId: tab });
    assert.equal(await pageEval(tab, "fetch('/api/data').then(() => 'online', () => 'offline')"), 'online');
    await ok('browser.closeTab', { tabId: tab });
  });
});

describe('emulation and CSS', () => {
  it('emulates device, media, vision and geolocation, then clears', async () => {
    const tab = await openPage('/interact.html');
    await ok('browser.emulateDevice', { tabId: tab, width: 375, height: 667, deviceScaleFactor: 2, mobile: false, userAgent: 'OpenTabsTestUA' });
    assert.deepEqual(await pageEval(tab, '[innerWidth, devicePixelRatio, navigator.userAgent]'), [375, 2, 'OpenTabsTestUA']);
    await ok('browser.setMediaFeatures', { tabId: tab, features: [{ name: 'prefers-color-scheme', value: 'dark' }] });
    assert.equal(await pageEval(tab, 'getComputedStyle(document.body).backgroundColor'), 'rgb(0, 0, 0)');
    await ok('browser.emulateVisionDeficiency', { tabId: tab, type: 'deuteranopia' });
    await ok('browser.setGeolocation', { tabId: tab, latitude: 48.85, longitude: 2.35, accuracy: 10 });
    const cleared = await ok('browser.clearEmulation', { tabId: tab });
    assert.equal(cleared.wasEmulating, true);
    assert.equal(await pageEval(tab, "matchMedia('(prefers-color-scheme: dark)').matches"), false);
    // The cleared viewport override reaches the page's layout asynchronously.
    await waitFor(async () => (await pageEval(tab, 'innerWidth')) !== 375, 'the viewport override to clear');
    await ok('browser.closeTab', { tabId: tab });
  });

  it('reads element styles, forces :hover and measures CSS coverage', async () => {
    const tab = await openPage('/interact.html');
    const styles = await ok('browser.getElementStyles', { tabId: tab, selector: '#btn' });
    assert.equal(styles.computed.color, 'rgb(0, 0, 255)');
    assert.ok(styles.matchedRules.some((r) => r.selector === '.btn' && r.properties.includes('color: rgb(0, 0, 255)')));
    await ok('browser.forcePseudoState', { tabId: tab, selector: '#btn', pseudoClasses: ['hover'] });
    assert.equal(await pageEval(tab, "getComputedStyle(document.getElementById('btn')).color"), 'rgb(255, 0, 0)');
    await ok('browser.forcePseudoState', { tabId: tab, selector: '#btn', pseudoClasses: [] });
    const coverage = await ok('browser.getCssCoverage', { tabId: tab });
    const sheet = coverage.stylesheets.find((s) => s.totalBytes > 0);
    assert.ok(sheet && sheet.usedBytes > 0 && sheet.unusedBytes > 0 && sheet.usedPercent < 100, JSON.stringify(coverage));
    await ok('browser.closeTab', { tabId: tab });
  });
});

describe('windows, downloads, history, bookmarks, sessions, cookies, site data, notifications', () => {
  it('creates, updates, lists and closes windows without focusing them', async () => {
    const created = await ok('browser.createWindow', { url: `${site.url}/frame.html`, width: 700, height: 500 });
    const id = created.window.id;
    const updated = await ok('browser.updateWindow', { windowId: id, width: 640, height: 480, left: 10, top: 10 });
    assert.equal(updated.window.width, 640);
    assert.ok((await ok('browser.listWindows', {})).windows.some((w) => w.id === id));
    await ok('browser.closeWindow', { windowId: id });
    assert.ok(!(await ok('browser.listWindows', {})).windows.some((w) => w.id === id));
  });

  it('downloads a local file and reports its status', async () => {
    const { downloadId } = await ok('browser.downloadFile', { url: `${site.url}/download/report.txt`, filename: `ot-e2e-${Date.now()}.txt` });
    const done = await waitFor(async () => {
      const s = await ok('browser.getDownloadStatus', { downloadId });
      return s.state === 'complete' ? s : null;
    }, 'the download to complete');
    assert.equal(fs.readFileSync(done.filename, 'utf8'), 'opentabs download fixture\n');
    assert.ok((await ok('browser.listDownloads', { state: 'complete' })).downloads.some((d) => d.id === downloadId));
    fs.rmSync(done.filename, { force: true });
  });

  it('searches history and visits, manages bookmarks, restores a closed tab', async () => {
    const tab = await openPage('/interact.html?history-probe');
    const items = await waitFor(async () => (await ok('browser.searchHistory', { query: 'history-probe' })).items.find((i) => i.url.includes('history-probe')), 'history entry');
    const visits = await ok('browser.getVisits', { url: items.url });
    assert.ok(visits.visits.length >= 1);
    const bm = await ok('browser.createBookmark', { title: 'OpenTabs fixture bookmark', url: `${site.url}/big.html` });
    assert.ok((await ok('browser.searchBookmarks', { query: 'OpenTabs fixture' })).bookmarks.some((b) => b.id === bm.bookmark.id));
    const tree = await ok('browser.listBookmarkTree', { maxDepth: 3 });
    assert.match(JSON.stringify(tree), /OpenTabs fixture bookmark/);
    await ok('browser.closeTab', { tabId: tab });
    const closed = await waitFor(async () => (await ok('browser.getRecentlyClosed', { maxResults: 5 })).sessions.find((s) => s.type === 'tab' && s.url?.includes('history-probe')), 'the closed tab in sessions');
    const restored = await ok('browser.restoreSession', { sessionId: closed.sessionId });
    assert.match(restored.url ?? '', /history-probe/);
    await ok('browser.closeTab', { tabId: restored.tabId });
  });

  it('sets, reads and deletes cookies, and clears site data', async () => {
    const tab = await openPage('/interact.html');
    await ok('browser.setCookie', { url: site.url, name: 'ot_cookie', value: 'v1', httpOnly: true });
    const got = await ok('browser.getCookies', { url: site.url, name: 'ot_cookie' });
    assert.equal(got.cookies[0].value, 'v1');
    assert.equal(got.cookies[0].httpOnly, true);
    assert.equal(await pageEval(tab, "document.cookie.includes('ot_cookie')"), false, 'HttpOnly stays hidden from the page');
    assert.equal((await ok('browser.deleteCookies', { url: site.url, name: 'ot_cookie' })).removed, true);
    assert.equal((await ok('browser.getCookies', { url: site.url })).cookies.length, 0);
    await ok('browser.setCookie', { url: site.url, name: 'wipe_me', value: '1' });
    await ok('browser.clearSiteData', { origin: site.url });
    assert.equal((await ok('browser.getCookies', { url: site.url })).cookies.length, 0);
    assert.equal(await pageEval(tab, "localStorage.getItem('fixture-key')"), null);
    await fails('browser.clearSiteData', { origin: `${site.url}/path` }, /Invalid origin/);
    await ok('browser.closeTab', { tabId: tab });
  });

  it('shows a notification', async () => {
    const r = await ok('browser.showNotification', { title: 'OpenTabs test', message: 'hello', url: `${site.url}/frame.html` });
    assert.match(r.notificationId, /^opentabs-/);
  });
});

describe('extension diagnostics', () => {
  it('reports logs, side panel, adapter checks and state', async () => {
    const logs = await ok('extension.getLogs', { limit: 5 });
    assert.ok(Array.isArray(logs.entries) && typeof logs.stats.total === 'number');
    const panel = await ok('extension.getSidePanel', {});
    assert.equal(panel.open, false);
    const check = await ok('extension.checkAdapter', { plugin: 'fixture-notes' });
    assert.equal(check.known, false);
    await fails('extension.checkAdapter', { plugin: '../x' }, /Invalid plugin name/);
  });
});


