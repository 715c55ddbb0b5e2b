// Drives the extension's browser.* / extension.* command handlers directly, for the e2e tests
// of the extension side of the built-in browser tools (browser_commands, browser_actions,
// browser_snapshot, browser_wire_contract).  A harness page is added to a copy of the real
// extension; it imports the same command registry the background uses and checks which client
// holds a tab as the router does, so the handlers run in headless Chromium exactly as they do
// when the server forwards a call, with no server.
// The fixture pages are served by test/fixtures/site/pages/serve.mjs.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';

import { SOURCE_DIR, EXTENSION_ID, launchWithPlaywright, tempDir, waitFor } from './harness.mjs';
import { startPagesServer } from '../../fixtures/site/pages/serve.mjs';

const HARNESS_HTML = '<!doctype html><meta charset="utf-8"><title>bt harness</title><script type="module" src="bt-harness.js"></script>';
const HARNESS_JS = `
import { browserCommands } from './src/browser-commands/index.js';
import { attachedTabs } from './src/browser-commands/debugger.js';
import { checkTabHolder } from './src/browser-commands/client-tabs.js';
const ctx = { store: { plugins: new Map(), tabStates: {}, connection: {}, swBoot: {}, confirmations: [] } };
globalThis.btCall = async (method, params) => {
  const handler = browserCommands.get(method);
  if (!handler) return { error: 'no handler for ' + method };
  try {
    await checkTabHolder(method, params ?? {}); // as the background's router does
    return { result: await handler(params ?? {}, ctx) };
  }
  catch (err) { return { error: String(err?.message ?? err), code: err?.code }; }
};
globalThis.btAttached = () => attachedTabs();
globalThis.btHas = (method) => browserCommands.has(method);
globalThis.btReady = true;
`;

// Starts the pages server and Chromium with the harness extension.  With keepDialogs the
// context gets a 'dialog' listener that leaves dialogs open: Playwright would otherwise dismiss
// them, and these tests need the extension, not Playwright, to answer them.
export async function startCommandDriver({ tempPrefix, keepDialogs = false }) {
  const site = await startPagesServer();
  const root = tempDir(tempPrefix);
  const extDir = path.join(root, 'extension');
  fs.cpSync(path.join(SOURCE_DIR, 'extension'), extDir, { recursive: true });
  fs.mkdirSync(path.join(extDir, 'adapters'), { recursive: true });
  fs.writeFileSync(path.join(extDir, 'bt-harness.html'), HARNESS_HTML);
  fs.writeFileSync(path.join(extDir, 'bt-harness.js'), HARNESS_JS);
  const browser = await launchWithPlaywright(extDir);
  if (keepDialogs) {
    // On the context, not on each page: a page's own listener comes after its 'page' event,
    // and a dialog that opens while a new tab loads would be dismissed before it.
    browser.context.on('dialog', () => {});
  }
  const harness = await browser.context.newPage();
  await harness.goto(`chrome-extension://${EXTENSION_ID}/bt-harness.html`);
  await harness.waitForFunction(() => globalThis.btReady === true);

  const call = (method, params) => harness.evaluate(([m, p]) => globalThis.btCall(m, p), [method, params]);
  async function ok(method, params) {
    const r = await call(method, params);
    assert.ok(!('error' in r), `${method} ${JSON.stringify(params)?.slice(0, 300)} failed: ${r.error}`);
    return r.result;
  }
  async function fails(method, params, pattern) {
    const r = await call(method, params);
    assert.ok('error' in r, `${method} unexpectedly succeeded: ${JSON.stringify(r.result)?.slice(0, 300)}`);
    assert.match(r.error, pattern);
    return r;
  }
  async function openPage(pathname, { active = false } = {}) {
    const tab = await ok('browser.openTab', { url: `${site.url}${pathname}`, active });
    await waitFor(async () => (await ok('browser.getTabInfo', { tabId: tab.id })).status === 'complete', `${pathname} to load`);
    return tab.id;
  }
  // Reads page state for assertions through the same exec-file path the server uses.
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
  async function close() {
    await browser.close();
    await site.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
  return { site, browser, harness, root, extDir, call, ok, fails, openPage, pageEval, lastEvent, close };
}
