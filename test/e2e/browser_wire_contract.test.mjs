// The browser.* / extension.* wire contract (extension/PROTOCOL.md), seen from the extension:
// our extension's handlers run in headless Chromium (through the same harness page as
// browser_commands.test.mjs) and receive exactly the documented wire params — the ones the
// OpenTabs 0.0.115 server sends — and the effect is checked in the page.  The server side
// (each MCP argument shape → these params) is test/integration/browser_wire_contract.test.mjs.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';

import { SOURCE_DIR, EXTENSION_ID, launchWithPlaywright, tempDir, waitFor } from './support/harness.mjs';
import { startPagesServer } from '../fixtures/site/pages/serve.mjs';

const HARNESS_HTML = '<!doctype html><meta charset="utf-8"><title>wire harness</title><script type="module" src="wire-harness.js"></script>';
const HARNESS_JS = `
import { browserCommands } from './src/browser-commands/index.js';
const ctx = { store: { plugins: new Map(), tabStates: {}, connection: {}, swBoot: {}, confirmations: [] } };
globalThis.wireCall = async (method, params) => {
  const handler = browserCommands.get(method);
  if (!handler) return { error: 'no handler for ' + method };
  try { return { result: await handler(params ?? {}, ctx) }; }
  catch (err) { return { error: String(err?.message ?? err), code: err?.code }; }
};
globalThis.wireReady = true;
`;

let site;
let browser;
let harness;
let extDir;

async function ok(method, params) {
  const r = await harness.evaluate(([m, p]) => globalThis.wireCall(m, p), [method, params]);
  assert.ok(!('error' in r), `${method} ${JSON.stringify(params)} failed: ${r.error}`);
  return r.result;
}
async function openPage(pathname) {
  const tab = await ok('browser.openTab', { url: `${site.url}${pathname}` });
  await waitFor(async () => (await ok('browser.getTabInfo', { tabId: tab.id })).status === 'complete', `${pathname} to load`);
  return tab.id;
}
async function pageEval(tabId, expression) {
  const key = randomUUID();
  const file = `__exec-${key}.js`;
  fs.writeFileSync(path.join(extDir, 'adapters', file),
    `(() => { const ns = (globalThis.__openTabs ??= {}); ns['__execStarted_${key}'] = true; (async () => (${expression}))().then((value) => { ns['__execResult_${key}'] = { value }; }, (e) => { ns['__execResult_${key}'] = { error: String(e) }; }); })();`);
  try {
    return (await ok('browser.executeScript', { tabId, execFile: file })).value;
  } finally {
    fs.rmSync(path.join(extDir, 'adapters', file), { force: true });
  }
}
const lastEvent = (tabId) => pageEval(tabId, 'window.events[window.events.length - 1]');

before(async () => {
  site = await startPagesServer();
  const root = tempDir('ot-wire-ext-');
  extDir = path.join(root, 'extension');
  fs.cpSync(path.join(SOURCE_DIR, 'extension'), extDir, { recursive: true });
  fs.mkdirSync(path.join(extDir, 'adapters'), { recursive: true });
  fs.writeFileSync(path.join(extDir, 'wire-harness.html'), HARNESS_HTML);
  fs.writeFileSync(path.join(extDir, 'wire-harness.js'), HARNESS_JS);
  browser = await launchWithPlaywright(extDir);
  harness = await browser.context.newPage();
  await harness.goto(`chrome-extension://${EXTENSION_ID}/wire-harness.html`);
  await harness.waitForFunction(() => globalThis.wireReady === true);
});

after(async () => {
  await browser?.close();
  await site?.close();
  if (extDir) fs.rmSync(path.dirname(extDir), { recursive: true, force: true });
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
