// The browser.* / extension.* wire contract (extension/PROTOCOL.md), seen from the extension:
// our extension's handlers run in headless Chromium (through the same harness page as
// browser_commands.test.mjs) and receive exactly the documented wire params — the ones the
// OpenTabs 0.0.115 server sends — and the effect is checked in the page.  The server side
// (each MCP argument shape → these params) is test/integration/browser_wire_contract.test.mjs.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';

import { waitFor } from './support/harness.mjs';
import { startCommandDriver } from './support/command_driver.mjs';

let driver;
let site;
let harness;
let ok;
let openPage;
let pageEval;
let lastEvent;

before(async () => {
  driver = await startCommandDriver({ tempPrefix: 'ot-wire-ext-' });
  ({ site, harness, ok, openPage, pageEval, lastEvent } = driver);
});

after(async () => {
  await driver?.close();
});

describe('wire params as the OpenTabs server sends them', () => {
  it('browser.pressKey with modifiers {ctrl: true} holds Control', async () => {
    const tab = await openPage('/interact.html');
    const r = await ok('browser.pressKey', { tabId: tab, key: 'a', selector: '#name', modifiers: { ctrl: true } });
    assert.equal(await lastEvent(tab), 'key:a+ctrl');
    assert.deepEqual(r.modifiers, { shift: false, ctrl: true, alt: false, meta: false });
    await ok('browser.pressKey', { tabId: tab, key: 'Escape', modifiers: { ctrl: false, shift: false } });
    assert.equal(await lastEvent(tab), 'key:Escape');
    await ok('browser.closeTab', { tabId: tab });
  });

  it('browser.scroll with position {x, y} scrolls to that offset; a huge y reaches the bottom', async () => {
    const tab = await openPage('/interact.html');
    await ok('browser.scroll', { tabId: tab, position: { x: 0, y: 300 } });
    assert.equal(await pageEval(tab, 'window.scrollY'), 300);
    await ok('browser.scroll', { tabId: tab, position: { y: 1000000000 } });
    assert.equal(await pageEval(tab, 'window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1'), true);
    await ok('browser.scroll', { tabId: tab, position: { y: 0 } });
    assert.equal(await pageEval(tab, 'window.scrollY'), 0);
    // Inside a container too.
    await ok('browser.scroll', { tabId: tab, container: '#scroller', position: { y: 120 } });
    assert.equal(await pageEval(tab, "document.getElementById('scroller').scrollTop"), 120);
    await ok('browser.closeTab', { tabId: tab });
  });

  it('browser.searchHistory applies an ISO startTime', async () => {
    const probe = `wire-history-${randomUUID().slice(0, 8)}`;
    const tab = await openPage(`/interact.html?${probe}`);
    const hasProbe = (r) => (r.items ?? r.entries ?? []).some((i) => i.url.includes(probe));
    const past = new Date(Date.now() - 3600_000).toISOString();
    await waitFor(async () => hasProbe(await ok('browser.searchHistory', { query: probe, maxResults: 20, startTime: past })), 'the history entry');
    const future = new Date(Date.now() + 86_400_000).toISOString();
    assert.equal(hasProbe(await ok('browser.searchHistory', { query: probe, maxResults: 20, startTime: future })), false, 'a future startTime excludes the visit');
    assert.equal(hasProbe(await ok('browser.searchHistory', { query: probe, maxResults: 20, startTime: '2024-01-01T00:00:00Z', endTime: '2024-01-02T00:00:00Z' })), false, 'an old endTime excludes the visit');
    await ok('browser.closeTab', { tabId: tab });
  });

  it('browser.forcePseudoState with [":hover"] forces the hover style', async () => {
    const tab = await openPage('/interact.html');
    const color = () => pageEval(tab, "getComputedStyle(document.getElementById('btn')).color");
    assert.equal(await color(), 'rgb(0, 0, 255)');
    const r = await ok('browser.forcePseudoState', { tabId: tab, selector: '#btn', pseudoClasses: [':hover'] });
    assert.deepEqual(r.forcedPseudoClasses, [':hover']);
    assert.equal(await color(), 'rgb(255, 0, 0)');
    await ok('browser.forcePseudoState', { tabId: tab, selector: '#btn', pseudoClasses: [] });
    assert.equal(await color(), 'rgb(0, 0, 255)');
    await ok('browser.closeTab', { tabId: tab });
  });

  it('browser.throttleNetwork with preset "3g" applies the OpenTabs 3g conditions', async () => {
    const tab = await openPage('/network.html');
    const r = await ok('browser.throttleNetwork', { tabId: tab, preset: '3g' });
    assert.equal(r.latency ?? r.conditions?.latency, 100);
    // The page sees the emulated connection (navigator.connection reflects DevTools throttling).
    const rtt = await pageEval(tab, 'navigator.connection.rtt');
    assert.ok(rtt >= 50 && rtt <= 150, `rtt ${rtt} ms under the 3g preset`);
    await ok('browser.throttleNetwork', { tabId: tab, preset: 'offline' });
    assert.equal(await pageEval(tab, "fetch('/api/data').then(() => 'online', () => 'offline')"), 'offline');
    await ok('browser.clearNetworkThrottle', { tabId: tab });
    assert.equal(await pageEval(tab, "fetch('/api/data').then(() => 'online', () => 'offline')"), 'online');
    await ok('browser.closeTab', { tabId: tab });
  });

  it('browser.getConsoleLogs with level "all" returns every captured message', async () => {
    const tab = await openPage('/network.html');
    await ok('browser.enableNetworkCapture', { tabId: tab });
    await pageEval(tab, "(console.log('wire log line'), console.warn('wire warn line'), 1)");
    const all = await waitFor(async () => {
      const r = await ok('browser.getConsoleLogs', { tabId: tab, level: 'all' });
      return r.logs.some((l) => l.text === 'wire log line') && r.logs.some((l) => l.text === 'wire warn line') ? r : null;
    }, 'both console lines');
    assert.ok(all.logs.length >= 2);
    const warnOnly = await ok('browser.getConsoleLogs', { tabId: tab, level: 'warn' });
    assert.ok(warnOnly.logs.every((l) => l.level === 'warn'));
    await ok('browser.disableNetworkCapture', { tabId: tab });
    await ok('browser.closeTab', { tabId: tab });
  });

  it('extension.getLogs with level "log" filters; without level or source returns everything', async () => {
    await harness.evaluate(() => { console.warn('wire diagnostics warn'); console.log('wire diagnostics log'); });
    const everything = await ok('extension.getLogs', { limit: 100 });
    assert.ok(everything.entries.some((e) => e.message === 'wire diagnostics log'));
    assert.ok(everything.entries.some((e) => e.message === 'wire diagnostics warn'));
    const fromLog = await ok('extension.getLogs', { level: 'log', source: 'background', limit: 100 });
    assert.ok(fromLog.entries.some((e) => e.message === 'wire diagnostics log'));
    const warnUp = await ok('extension.getLogs', { level: 'warn', limit: 100 });
    assert.ok(warnUp.entries.some((e) => e.message === 'wire diagnostics warn'));
    assert.ok(!warnUp.entries.some((e) => e.message === 'wire diagnostics log'));
  });

  it('tab groups accept the tabId the OpenTabs server adds; getTabContent takes selector "body"', async () => {
    const a = await openPage('/interact.html');
    const b = await openPage('/frame.html');
    const created = await ok('browser.createTabGroup', { tabIds: [a], tabId: a, title: 'Wire' });
    await ok('browser.addTabsToGroup', { groupId: created.groupId, tabIds: [b], tabId: b });
    assert.equal((await ok('browser.getTabInfo', { tabId: b })).groupId, created.groupId);
    const content = await ok('browser.getTabContent', { tabId: a, selector: 'body', maxLength: 50000 });
    assert.match(JSON.stringify(content), /spacer/);
    await ok('browser.removeTabsFromGroup', { tabIds: [a, b] });
    await ok('browser.closeTab', { tabId: a });
    await ok('browser.closeTab', { tabId: b });
  });
});
