// Adapter nonces in real Chromium with our extension, the real server and the fixture plugin's
// real adapter: a page on the plugin's site that replaces intrinsics before the adapter is
// injected tries to read the log and readiness nonces and to forge `plugin.log` lines and
// readiness notifications.  It must learn no nonce, no forgery may reach the background or the
// server, and the real adapter's logs and readiness must still arrive.
//
// The hostile pages are served through Playwright's request routing on the fixture site's own
// origin (so the plugin's URL pattern matches them); their inline <head> script is ordinary
// page code that runs after the extension's document_start scripts and before injection.
// A listener added to the service worker records what the page relays deliver to the
// background (`plugin:logs`, `plugin:readiness`), next to the listener the extension has.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  EXTENSION_ID, SOURCE_DIR, tempDir, writeConfig, startServer, extensionDir, readSecret, ensureServerPortFile,
  launchWithPlaywright, connectMcp, callTool, resultText, pluginToolName, waitFor, waitForPluginReady,
} from './support/harness.mjs';

const { startFixtureSite } = await import(path.join(SOURCE_DIR, 'test/fixtures/site/server.mjs'));
const PLUGIN = 'fixture-notes';
const FORGED = 'FORGED-BY-THE-PAGE';
const FAKE_ADAPTER_FILE = `chrome-extension://${EXTENSION_ID}/adapters/${PLUGIN}-00000000.js`;

// Page code: every trick against the nonce guard we know of, repeated every 50 ms, so it also
// runs after each (re)injection of the adapter.  `replacePostMessage` adds a spy in place of
// window.postMessage that forwards to the real one.
function hostilePage({ replacePostMessage }) {
  return `<!doctype html><html><head><title>hostile</title><script>
(() => {
  const FAKE = ${JSON.stringify(FAKE_ADAPTER_FILE)};
  const stolen = new Set();
  const note = (v) => { if (typeof v === 'string' && /^[0-9a-f-]{16,}$/i.test(v)) stolen.add(v); };
  window.__hostile = { stolen, attempts: 0, seen: [] };
  const fakeFrame = { getFileName: () => FAKE, getScriptNameOrSourceURL: () => FAKE, getFunctionName: () => 'flush',
    getLineNumber: () => 1, getColumnNumber: () => 1, isEval: () => false, isNative: () => false, toString: () => FAKE };
  // A stack that says "called from an adapter file", whatever asks.
  Error.captureStackTrace = function (holder) { holder.stack = [fakeFrame, fakeFrame]; };
  Error.prepareStackTrace = (_e, frames) => frames.map(() => fakeFrame);
  try {
    const saved = Error.prepareStackTrace;
    Error.prepareStackTrace = (_e, f) => f;
    const site = new Error().stack[0];
    Error.prepareStackTrace = saved;
    if (site && typeof site === 'object') Object.getPrototypeOf(site).getFileName = () => FAKE;
  } catch {}
  // Everything posted on window, and every listener added to it, is watched.
  window.addEventListener('message', (e) => {
    try { window.__hostile.seen.push(JSON.stringify(e.data).slice(0, 300)); } catch {}
    note(e.data?.nonce);
  }, true);
  const addListener = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (type, fn, opts) {
    if (type === 'message' && typeof fn === 'function') {
      const inner = fn;
      fn = function (e) { note(e?.data?.nonce); return inner.apply(this, arguments); };
    }
    return addListener.call(this, type, fn, opts);
  };
  if (${replacePostMessage}) {
    const real = window.postMessage;
    window.postMessage = function (m) { note(m?.nonce); return real.apply(this, arguments); };
  }
  // A reader whose source claims to be an adapter file.
  const reader = new Function('o', 'return o ? [o._logNonce, o._readinessNonce] : []\\n//# sourceURL=' + FAKE);
  const forge = (nonce) => {
    window.postMessage({ type: 'opentabs:plugin-logs', plugin: ${JSON.stringify(PLUGIN)}, nonce,
      entries: [{ level: 'error', message: ${JSON.stringify(FORGED)} + ' ' + nonce, ts: Date.now() }] }, '*');
    window.postMessage({ type: 'opentabs:readiness-changed', plugin: ${JSON.stringify(PLUGIN)}, nonce }, '*');
  };
  setInterval(() => {
    const ot = globalThis.__openTabs;
    try { note(ot?._logNonce); note(ot?._readinessNonce); } catch {}
    try { for (const v of reader(ot)) note(v); } catch {}
    try {
      const mine = {};
      window.__opentabsAdapterGuard?.install(mine);
      for (const v of reader(mine)) note(v);
    } catch {}
    window.__hostile.attempts += 1;
    for (const nonce of [...stolen, 'guess']) forge(nonce);
  }, 50);
})();
</script></head><body><h1>hostile page</h1></body></html>`;
}

describe('adapter nonces: a page cannot read them or forge logs and readiness', () => {
  let configDir; let site; let server; let browser; let mcp;
  const pages = {};
  const name = {};

  const tabIdOf = (pathname) => browser.worker().evaluate(async (p) => {
    const tabs = await chrome.tabs.query({});
    return tabs.find((t) => new URL(t.url).pathname === p)?.id;
  }, pathname);
  const relayed = (tabId) => browser.worker().evaluate((id) => globalThis.__relayed.filter((m) => m.tabId === id), tabId);
  const hostileState = (page) => page.evaluate(() => ({ stolen: [...window.__hostile.stolen], attempts: window.__hostile.attempts }));

  before(async () => {
    configDir = tempDir('ot-e2e-nonces-');
    writeConfig(configDir, { permissions: { [PLUGIN]: { permission: 'auto' } } });
    site = await startFixtureSite({ port: 0, name: 'nonce-site' });
    server = await startServer(configDir);
    ensureServerPortFile(configDir, server.port);
    browser = await launchWithPlaywright(extensionDir(configDir));
    await browser.worker().evaluate(() => {
      globalThis.__relayed = [];
      chrome.runtime.onMessage.addListener((msg, sender) => {
        if (msg?.type === 'plugin:logs' || msg?.type === 'plugin:readiness') {
          globalThis.__relayed.push({ tabId: sender.tab?.id, type: msg.type, text: JSON.stringify(msg.entries ?? []) });
        }
        return false;
      });
    });
    for (const [route, replacePostMessage] of [['/hostile', false], ['/hostile-post', true]]) {
      await browser.context.route(`http://localhost:${site.port}${route}`, (r) =>
        r.fulfill({ status: 200, contentType: 'text/html', body: hostilePage({ replacePostMessage }) }));
    }
    pages.hostile = await browser.context.newPage();
    await pages.hostile.goto(`http://localhost:${site.port}/hostile`);
    pages.hostilePost = await browser.context.newPage();
    await pages.hostilePost.goto(`http://localhost:${site.port}/hostile-post`);
    await waitForPluginReady(browser, PLUGIN, 2);
    mcp = await connectMcp(server.port, readSecret(configDir));
    await mcp.client.setLoggingLevel('debug');
    for (const tool of ['log_levels', 'notify_readiness']) name[tool] = await pluginToolName(mcp, PLUGIN, tool);
  });

  after(async () => {
    await mcp?.close().catch(() => {});
    await browser?.close().catch(() => {});
    await server?.stop();
    await site?.close();
    if (configDir) fs.rmSync(configDir, { recursive: true, force: true });
  });

  test('a page that replaced captureStackTrace, prepareStackTrace and message listeners gets no nonce; the real logs and readiness arrive', async () => {
    const tabId = await tabIdOf('/hostile');
    const marker = `real-log-${Date.now()}`;
    const result = await callTool(mcp, name.log_levels, { message: marker, tabId });
    assert.equal(result.isError, undefined, resultText(result));
    await waitFor(() => mcp.logs.find((l) => String(l.data).includes(`${marker} (error)`)), "the real adapter's error log");
    const notified = await callTool(mcp, name.notify_readiness, { tabId });
    assert.deepEqual(JSON.parse(resultText(notified)), { notified: true }, 'the adapter got its readiness nonce');
    await waitFor(async () => (await relayed(tabId)).some((m) => m.type === 'plugin:readiness'), 'the real readiness notification');

    // Let the page try long after injection, then look at what it got and what got through.
    const start = (await hostileState(pages.hostile)).attempts;
    await waitFor(async () => (await hostileState(pages.hostile)).attempts >= start + 40, 'forty more attempts by the page');
    assert.deepEqual((await hostileState(pages.hostile)).stolen, [], 'the page read no nonce');
    const seen = await pages.hostile.evaluate(() => window.__hostile.seen);
    assert.ok(seen.some((text) => text.includes(FORGED)), "the page's listener sees what is posted on window");
    assert.ok(!seen.some((text) => text.includes(marker)), "the adapter's log batch never passed through window");
    const fromTab = await relayed(tabId);
    assert.equal(fromTab.filter((m) => m.type === 'plugin:readiness').length, 1, 'only the real readiness notification was relayed');
    assert.ok(fromTab.filter((m) => m.type === 'plugin:logs').every((m) => !m.text.includes(FORGED)), 'no forged log batch was relayed');
    assert.ok(fromTab.some((m) => m.type === 'plugin:logs' && m.text.includes(marker)), 'the real log batch was relayed');
    assert.ok(!mcp.logs.some((l) => String(l.data).includes(FORGED)), 'no forged log reached the MCP client');
    assert.ok(!server.output().includes(FORGED), 'no forged log reached the server');
  });

  test('a page that replaced window.postMessage gets no nonce and forges nothing; its adapter sends no logs (fails closed)', async () => {
    const tabId = await tabIdOf('/hostile-post');
    const marker = `closed-log-${Date.now()}`;
    const result = await callTool(mcp, name.log_levels, { message: marker, tabId });
    assert.equal(result.isError, undefined, resultText(result), 'tool calls still work there');
    const notified = await callTool(mcp, name.notify_readiness, { tabId });
    assert.deepEqual(JSON.parse(resultText(notified)), { notified: false }, 'no readiness nonce for the adapter either');
    const start = (await hostileState(pages.hostilePost)).attempts;
    await waitFor(async () => (await hostileState(pages.hostilePost)).attempts >= start + 40, 'forty more attempts by the page');
    assert.deepEqual((await hostileState(pages.hostilePost)).stolen, [], 'the page read no nonce');
    assert.deepEqual(await relayed(tabId), [], 'nothing was relayed from this page');
    assert.ok(!mcp.logs.some((l) => String(l.data).includes(FORGED) || String(l.data).includes(marker)));
    assert.ok(!server.output().includes(FORGED));
  });
});
