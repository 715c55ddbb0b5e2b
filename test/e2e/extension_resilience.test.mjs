// Real-Chromium e2e of the extension's resilience paths (protocol §3.7 extension side, §4.2
// adapter hash, §4.7 readiness, §4.8 pre-scripts; §7 rows adapter-hash, notify-readiness-changed,
// strict-csp, pre-script-lifecycle, dispatch-resilience): the real server (build/opentabs) with a
// copy of the fixture-notes plugin plus fixture-tracker, Chromium with the unpacked extension, the
// fixture site, and an official MCP SDK client.
//
// * adapter hash: a sync.full with an unchanged adapter leaves the page's adapter alone; a rebuilt
//   adapter with a new embedded hash is re-injected and verified;
// * readiness: the adapter runtime's readiness notification re-probes the tab, and the state the
//   server reports in /health follows it (ready → unavailable → ready);
// * strict CSP: a page served with `Content-Security-Policy: script-src 'none'` (by a small
//   server in this file, because the fixture site sends no CSP) still gets the adapter, and a
//   tool runs there;
// * pre-script lifecycle: fixture-tracker's pre-script is registered as a document_start MAIN-world
//   content script while the plugin is loaded, unregistered when it leaves the config, and
//   registered again when it comes back;
// * dispatch resilience: a long call whose tab closes, or navigates to a page outside the
//   plugin's patterns, ends with an error naming the tab long before any timeout (the server's
//   dispatch timeout is raised to 120 s so only the extension's own detection can end the call),
//   and the next call on another tab works.
//
// The plugin is a copy (in a temp dir) of test/fixtures/plugins/notes so the adapter-hash test
// can rewrite its dist/adapter.iife.js without touching the fixtures.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import {
  FIXTURE_PLUGINS, SOURCE_DIR, tempDir, writeConfig, startServer, extensionDir, readSecret,
  ensureServerPortFile, launchWithPlaywright, connectMcp, callTool, resultText, pluginToolName, waitFor,
  waitForPluginReady, extensionSession,
} from './support/harness.mjs';

const { startFixtureSite } = await import(path.join(SOURCE_DIR, 'test/fixtures/site/server.mjs'));
const PLUGIN = 'fixture-notes';
const TRACKER = 'fixture-tracker';
const TRACKER_PRE_SCRIPT_ID = `opentabs-pre-${TRACKER}`;
const HASH_SNIPPET = /\.__adapterHash="([0-9a-f]{64})"/;
// Deadline of the MCP client for calls that must end through the extension's tab detection:
// well below the extension's 25 s script timeout and the server's (raised) dispatch timeout, so
// a call that only ended through one of those timeouts fails the test instead of passing late.
const PROMPT_CALL_DEADLINE_MS = 15_000;

// A page server with `Content-Security-Policy: script-src 'none'` on every response, answering
// the two API routes the notes adapter uses here (GET /api/status for isReady, POST /api/echo).
// Its inline script must not run, which the test checks to prove the policy is in force.
function startStrictCspSite() {
  const server = http.createServer((req, res) => {
    const send = (status, type, body) => {
      res.writeHead(status, { 'Content-Type': type, 'Content-Security-Policy': "script-src 'none'", 'Cache-Control': 'no-store' });
      res.end(body);
    };
    const url = new URL(req.url, 'http://localhost');
    if (req.method === 'GET' && url.pathname === '/api/status') {
      send(200, 'application/json', JSON.stringify({ ready: true, name: 'strict-csp' }));
    } else if (req.method === 'POST' && url.pathname === '/api/echo') {
      const chunks = [];
      let size = 0;
      req.on('data', (c) => { size += c.length; if (size <= 64 * 1024) chunks.push(c); });
      req.on('end', () => {
        if (size > 64 * 1024) { send(413, 'application/json', JSON.stringify({ error: 'body too large' })); return; }
        let body;
        try { body = JSON.parse(Buffer.concat(chunks).toString('utf8')); } catch { send(400, 'application/json', JSON.stringify({ error: 'body is not JSON' })); return; }
        send(200, 'application/json', JSON.stringify({ method: 'POST', query: {}, body }));
      });
    } else if (req.method === 'GET' && url.pathname === '/strict') {
      send(200, 'text/html; charset=utf-8', '<!doctype html><title>Strict CSP</title><h1 id="title">strict csp page</h1>' +
        '<script>window.__inlineScriptRan = true;</script>');
    } else {
      send(404, 'application/json', JSON.stringify({ error: 'not found' }));
    }
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({
      port: server.address().port,
      close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }),
    }));
  });
}

// Rewrites an adapter IIFE as a "new build": a marker statement inside the IIFE, then the
// trailing snippet's hash recomputed over every byte before the snippet line (fixture README).
function rebuildAdapter(source, marker) {
  const snippetStart = source.indexOf('\n(function(){var o=globalThis.__openTabs') + 1;
  assert.ok(snippetStart > 0, 'the adapter has the hash-and-freeze snippet');
  const body = source.slice(0, snippetStart).replace('"use strict";\n', `"use strict";\nglobalThis.__resilienceAdapterMarker = ${JSON.stringify(marker)};\n`);
  const hash = crypto.createHash('sha256').update(body).digest('hex');
  return { text: body + source.slice(snippetStart).replace(HASH_SNIPPET, `.__adapterHash="${hash}"`), hash };
}

describe('extension resilience in real Chromium', () => {
  let configDir; let pluginDir; let site; let cspSite; let server; let browser; let mcp; let appPage; let secret;
  const name = {};

  const health = async () => {
    const res = await fetch(`http://127.0.0.1:${server.port}/health`, { headers: { Authorization: `Bearer ${secret}` } });
    assert.equal(res.status, 200);
    return res.json();
  };
  const healthTabState = async () => (await health()).pluginDetails.find((p) => p.name === PLUGIN)?.tabState;
  const tabIdOf = async (page) => {
    const url = page.url();
    const tabs = await browser.worker().evaluate(() => chrome.tabs.query({}));
    const found = tabs.filter((t) => t.url === url);
    assert.equal(found.length, 1, `exactly one tab shows ${url}`);
    return found[0].id;
  };
  const waitForTabReady = (tabId) => waitFor(async () => (await extensionSession(browser, ['tabStates'])).tabStates?.[PLUGIN]?.tabs
    .some((t) => t.tabId === tabId && t.ready), `tab ${tabId} ready for ${PLUGIN}`, 20_000);
  const pageHooks = (page) => page.evaluate((p) => {
    const h = globalThis.__opentabsFixtureHooks?.[p];
    return h ? { activate: h.activate, deactivate: h.deactivate, toolStarts: h.toolStarts.slice() } : null;
  }, PLUGIN);
  const reload = async () => {
    const res = await fetch(`http://127.0.0.1:${server.port}/reload`, { method: 'POST', headers: { Authorization: `Bearer ${secret}` } });
    const text = await res.text();
    assert.equal(res.status, 200, text);
    assert.equal(JSON.parse(text).ok, true, text);
  };

  before(async () => {
    configDir = tempDir('ot-e2e-resilience-config-');
    pluginDir = tempDir('ot-e2e-resilience-notes-');
    fs.cpSync(path.join(FIXTURE_PLUGINS, 'notes'), pluginDir, { recursive: true });
    site = await startFixtureSite({ port: 0, name: 'resilience-site' });
    cspSite = await startStrictCspSite();
    // fixture-tracker (which has a pre-script) gets its URL pattern from the instanceUrl setting.
    writeConfig(configDir, {
      permissions: { [PLUGIN]: { permission: 'auto' }, browser: { permission: 'auto' } },
      settings: { [TRACKER]: { instanceUrl: { main: `http://localhost:${site.port}` } } },
    });
    const configFile = path.join(configDir, 'config.json');
    const config = JSON.parse(fs.readFileSync(configFile, 'utf8'));
    config.localPlugins = config.localPlugins.map((p) => (p === path.join(FIXTURE_PLUGINS, 'notes') ? pluginDir : p));
    assert.ok(config.localPlugins.includes(pluginDir), 'the notes copy replaces the fixture path');
    fs.writeFileSync(configFile, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });

    server = await startServer(configDir, { env: { OPENTABS_DISPATCH_TIMEOUT_MS: '120000' } });
    ensureServerPortFile(configDir, server.port);
    secret = readSecret(configDir);
    browser = await launchWithPlaywright(extensionDir(configDir));
    appPage = await browser.context.newPage();
    await appPage.goto(`http://localhost:${site.port}/`);
    await waitForPluginReady(browser, PLUGIN);
    mcp = await connectMcp(server.port, secret);
    for (const tool of ['echo', 'slow_with_progress', 'notify_readiness']) name[tool] = await pluginToolName(mcp, PLUGIN, tool);
  });

  after(async () => {
    await mcp?.close().catch(() => {});
    await browser?.close().catch(() => {});
    await server?.stop();
    await site?.close();
    await cspSite?.close();
    for (const dir of [configDir, pluginDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('adapter hash: an unchanged adapter is not re-injected; a rebuilt one is, with its new hash', async () => {
    const adapterFile = path.join(pluginDir, 'dist/adapter.iife.js');
    const original = fs.readFileSync(adapterFile, 'utf8');
    const originalHash = HASH_SNIPPET.exec(original)[1];
    assert.equal(await appPage.evaluate((p) => globalThis.__openTabs.adapters[p].__adapterHash, PLUGIN), originalHash);

    // Keep a reference to the live adapter object in the page, and record every
    // chrome.scripting.executeScript the service worker makes from now on.
    await appPage.evaluate((p) => { globalThis.__resilienceFirstAdapter = globalThis.__openTabs.adapters[p]; }, PLUGIN);
    const hooksBefore = await pageHooks(appPage);
    await browser.worker().evaluate(() => {
      const scripting = chrome.scripting;
      if (!globalThis.__resilienceScriptLog) {
        globalThis.__resilienceScriptLog = [];
        const original = scripting.executeScript.bind(scripting);
        scripting.executeScript = (details, ...rest) => {
          globalThis.__resilienceScriptLog.push({ tabId: details?.target?.tabId, func: details?.func?.name ?? null, files: details?.files ?? null });
          return original(details, ...rest);
        };
      }
      globalThis.__resilienceScriptLog.length = 0;
    });
    const appTab = await tabIdOf(appPage);

    await reload(); // same adapter bytes: sync.full carries the same adapterHash
    // The sync.full was handled once the tab's hash was read (the skip decision) and the tab
    // re-probed afterwards (tab.syncAll at the end of sync.full).
    const log = await waitFor(async () => {
      const entries = await browser.worker().evaluate(() => globalThis.__resilienceScriptLog.slice());
      const hashRead = entries.findIndex((e) => e.tabId === appTab && e.func === 'readAdapterHash');
      return hashRead >= 0 && entries.slice(hashRead).some((e) => e.tabId === appTab && e.func === 'probeReady') && entries;
    }, 'the second sync.full to read the adapter hash and re-probe the tab');
    assert.deepEqual(log.filter((e) => e.files !== null), [], 'no adapter file was injected');
    assert.equal(log.filter((e) => e.func === 'prepareMainWorld').length, 0, 'the MAIN world was not re-prepared');
    const same = await appPage.evaluate((p) => globalThis.__openTabs.adapters[p] === globalThis.__resilienceFirstAdapter, PLUGIN);
    assert.equal(same, true, 'the page still holds the same adapter object');
    const hooksAfter = await pageHooks(appPage);
    assert.equal(hooksAfter.activate, hooksBefore.activate, 'onActivate did not run again');
    assert.equal(hooksAfter.deactivate, hooksBefore.deactivate, 'the adapter was not torn down');

    // A new build of the adapter (new bytes, new embedded hash) is re-injected.
    const rebuilt = rebuildAdapter(original, 'v2');
    assert.notEqual(rebuilt.hash, originalHash);
    fs.writeFileSync(adapterFile, rebuilt.text);
    await reload();
    await waitFor(() => appPage.evaluate((p) => globalThis.__openTabs?.adapters?.[p]?.__adapterHash, PLUGIN)
      .then((h) => h === rebuilt.hash), 'the rebuilt adapter in the page');
    assert.equal(await appPage.evaluate(() => globalThis.__resilienceAdapterMarker), 'v2', 'the new build ran in the page');
    const hooksNew = await pageHooks(appPage);
    assert.equal(hooksNew.activate, hooksBefore.activate + 1, 'the new adapter was activated once');
    assert.equal(hooksNew.deactivate, hooksBefore.deactivate + 1, 'the old adapter was torn down once');
    const injected = await browser.worker().evaluate(() => globalThis.__resilienceScriptLog.filter((e) => e.files));
    assert.deepEqual(injected.map((e) => e.tabId), [appTab], 'one adapter file injection, into the app tab');
    // The server names adapter files after the first 8 hex digits of the file's SHA-256.
    const fileHash8 = crypto.createHash('sha256').update(rebuilt.text).digest('hex').slice(0, 8);
    assert.equal(injected[0].files[0], `adapters/${PLUGIN}-${fileHash8}.js`);

    const checkName = (await mcp.client.listTools()).tools.find((t) => t.name === 'extension_check_adapter')?.name;
    assert.ok(checkName, 'extension_check_adapter is listed');
    const check = await callTool(mcp, checkName, { plugin: PLUGIN });
    assert.equal(check.isError, undefined, resultText(check));
    // A fan-out tool: one entry per connected profile (here one).
    const profiles = JSON.parse(resultText(check));
    assert.equal(profiles.length, 1, resultText(check));
    const report = profiles[0].result;
    assert.equal(report.expectedHash, rebuilt.hash);
    assert.equal(report.adapterFile, injected[0].files[0]);
    const appReport = report.tabs.find((t) => t.tabId === appTab);
    assert.deepEqual({ injected: appReport?.injected, adapterHash: appReport?.adapterHash, matches: appReport?.matches },
      { injected: true, adapterHash: rebuilt.hash, matches: true });

    const echo = await callTool(mcp, name.echo, { message: 'after rebuild', tabId: appTab });
    assert.equal(echo.isError, undefined, resultText(echo));
    assert.deepEqual(JSON.parse(resultText(echo)), { ok: true, message: 'after rebuild' });
  });

  test('notify-readiness-changed: the adapter\'s notification moves the tab to unavailable and back', async () => {
    const setReady = async (ready) => {
      const res = await fetch(`http://127.0.0.1:${site.port}/control/set-ready`, {
        method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ ready }),
      });
      assert.equal(res.status, 200, await res.text());
    };
    const appTab = await tabIdOf(appPage);
    await waitFor(async () => (await healthTabState()) === 'ready', 'the plugin ready in /health');
    // isReady() probes are GET /api/status requests the site records; counting them tells when
    // the re-probe a notification causes has reached the site.
    const statusProbesSince = async (seq) => (await (await fetch(`http://127.0.0.1:${site.port}/control/invocations`)).json())
      .invocations.filter((i) => i.seq > seq && i.path === '/api/status').length;
    const lastSeq = async () => Math.max(0, ...(await (await fetch(`http://127.0.0.1:${site.port}/control/invocations`)).json())
      .invocations.map((i) => i.seq));

    // The tool path: the adapter can read its readiness nonce and posts the notification.
    const beforeTool = await lastSeq();
    const notified = await callTool(mcp, name.notify_readiness, {});
    assert.equal(notified.isError, undefined, resultText(notified));
    assert.deepEqual(JSON.parse(resultText(notified)), { notified: true });
    // One probe before the tool ran (runTool's isReady), one from the re-probe the notification
    // caused; waiting for it keeps that re-probe from seeing the site switched off below.
    await waitFor(async () => (await statusProbesSince(beforeTool)) >= 2, 'the re-probe caused by the tool\'s notification');

    // The site stops being ready; nothing has re-probed the tab yet, so /health still says ready.
    await setReady(false);
    try {
      assert.equal(await healthTabState(), 'ready');
      // A tool cannot run on a not-ready tab, so the notification is sent the way an adapter
      // does when its site changes state: the runtime's __openTabs._notifyReadinessChanged.
      const sent = await appPage.evaluate((p) => globalThis.__openTabs._notifyReadinessChanged(p), PLUGIN);
      assert.equal(sent, true, 'the adapter runtime had its readiness nonce');
      await waitFor(async () => (await healthTabState()) === 'unavailable', '/health tabState unavailable after the notification');
      const detail = (await health()).pluginDetails.find((p) => p.name === PLUGIN);
      assert.deepEqual(detail.tabs.map((t) => [t.tabId, t.ready]), [[appTab, false]], 'the one tab is reported not ready');
      const refused = await callTool(mcp, name.echo, { message: 'not ready' });
      assert.equal(refused.isError, true);
      assert.match(resultText(refused), /not ready/);
    } finally {
      await setReady(true);
    }
    const sentAgain = await appPage.evaluate((p) => globalThis.__openTabs._notifyReadinessChanged(p), PLUGIN);
    assert.equal(sentAgain, true);
    await waitFor(async () => (await healthTabState()) === 'ready', '/health tabState ready again after the second notification');
    const detail = (await health()).pluginDetails.find((p) => p.name === PLUGIN);
    assert.deepEqual(detail.tabs.map((t) => [t.tabId, t.ready]), [[appTab, true]]);
    const echo = await callTool(mcp, name.echo, { message: 'ready again' });
    assert.equal(echo.isError, undefined, resultText(echo));
  });

  test('strict CSP (script-src \'none\'): the adapter is injected and a tool runs', async () => {
    const page = await browser.context.newPage();
    try {
      await page.goto(`http://localhost:${cspSite.port}/strict`);
      assert.equal(await page.evaluate(() => globalThis.__inlineScriptRan ?? false), false, 'the page\'s own inline script was blocked by the policy');
      const tabId = await tabIdOf(page);
      await waitForTabReady(tabId);
      const hash = await page.evaluate((p) => globalThis.__openTabs?.adapters?.[p]?.__adapterHash, PLUGIN);
      assert.match(String(hash), /^[0-9a-f]{64}$/);
      const result = await callTool(mcp, name.echo, { message: 'under strict csp', tabId });
      assert.equal(result.isError, undefined, resultText(result));
      assert.deepEqual(JSON.parse(resultText(result)), { ok: true, message: 'under strict csp' });
      assert.deepEqual((await pageHooks(page)).toolStarts, ['echo'], 'the tool ran in the strict-CSP page');
    } finally {
      await page.close();
    }
  });

  test('pre-script lifecycle: registered while the plugin is loaded, unregistered when it goes, back when it returns', async () => {
    const registered = () => browser.worker().evaluate((id) => chrome.scripting.getRegisteredContentScripts({ ids: [id] }), TRACKER_PRE_SCRIPT_ID);
    const [script] = await waitFor(async () => { const r = await registered(); return r.length === 1 && r; }, 'the tracker pre-script registered');
    assert.deepEqual(script.matches, ['*://localhost/*'], 'the instance pattern, without its port (content scripts take no port)');
    assert.equal(script.runAt, 'document_start');
    assert.equal(script.world, 'MAIN');
    assert.equal(script.allFrames, true);
    assert.equal(script.persistAcrossSessions, true);
    assert.match(script.js[0], new RegExp(`^adapters/${TRACKER}-prescript-[0-9a-f]{8}\\.js$`));

    const capture = (page) => page.evaluate((p) => globalThis.__openTabs?.preScript?.[p] ?? null, TRACKER);
    const withTracker = await browser.context.newPage();
    await withTracker.goto(`http://localhost:${site.port}/form`);
    const captured = await capture(withTracker);
    assert.equal(captured?.ranAt, 'document_start', 'the pre-script ran before the page');
    assert.equal(captured.pageScriptsAlreadyRan, false);
    await withTracker.close();

    // Remove the tracker from localPlugins: the reload's sync.full no longer has it.
    const configFile = path.join(configDir, 'config.json');
    const full = fs.readFileSync(configFile, 'utf8');
    const config = JSON.parse(full);
    config.localPlugins = config.localPlugins.filter((p) => p !== path.join(FIXTURE_PLUGINS, 'tracker'));
    assert.equal(config.localPlugins.length, 1);
    try {
      fs.writeFileSync(configFile, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
      await reload();
      await waitFor(async () => (await registered()).length === 0, 'the tracker pre-script unregistered');
      await waitFor(() => appPage.evaluate((p) => !globalThis.__openTabs?.adapters?.[p], TRACKER), 'the tracker adapter removed from the app tab');
      const withoutTracker = await browser.context.newPage();
      await withoutTracker.goto(`http://localhost:${site.port}/form`);
      assert.equal(await capture(withoutTracker), null, 'a page loaded now gets no pre-script');
      await withoutTracker.close();
    } finally {
      fs.writeFileSync(configFile, full, { mode: 0o600 });
    }
    await reload();
    await waitFor(async () => (await registered()).length === 1, 'the tracker pre-script registered again');
    const again = await browser.context.newPage();
    await again.goto(`http://localhost:${site.port}/form`);
    assert.equal((await capture(again))?.ranAt, 'document_start');
    await again.close();
  });

  // Starts a long slow_with_progress call on `tabId` and resolves once its first progress
  // notification has arrived (the tool is running in the page).
  async function startLongCall(tabId) {
    let firstProgress;
    const running = new Promise((resolve) => { firstProgress = resolve; });
    const started = Date.now();
    const call = callTool(mcp, name.slow_with_progress, { steps: 20, delayMs: 1500, tabId }, {
      onprogress: (p) => { if (typeof p.message === 'string' && p.message.startsWith('step ')) firstProgress(); },
      timeout: PROMPT_CALL_DEADLINE_MS,
    }).then((r) => ({ result: r, ms: Date.now() - started }), (e) => ({ error: e, ms: Date.now() - started }));
    await Promise.race([running, call.then((o) => { throw new Error(`the call ended before any progress: ${o.error?.message ?? resultText(o.result)}`); })]);
    return { outcome: call }; // wrapped: an async function returning the promise would wait for it
  }

  test('dispatch resilience: a closed tab ends the running call with an error naming it', async () => {
    const doomed = await browser.context.newPage();
    await doomed.goto(`http://localhost:${site.port}/long`);
    const doomedTab = await tabIdOf(doomed);
    await waitForTabReady(doomedTab);
    const { outcome: doomedCall } = await startLongCall(doomedTab);
    assert.deepEqual((await pageHooks(doomed)).toolStarts, ['slow_with_progress'], 'the tool is running in the tab about to close');
    await doomed.close();
    const outcome = await doomedCall;
    assert.equal(outcome.error, undefined, `the call ended with an MCP result, not ${outcome.error?.message}`);
    assert.equal(outcome.result.isError, true);
    assert.match(resultText(outcome.result), /^Tab closed: /);
    assert.match(resultText(outcome.result), new RegExp(`\\bTab ${doomedTab}\\b`));

    const next = await callTool(mcp, name.echo, { message: 'after close', tabId: await tabIdOf(appPage) });
    assert.equal(next.isError, undefined, resultText(next));
  });

  test('dispatch resilience: without tabId, a tool whose tab closes mid-run is not run again in another tab', async () => {
    const before = (await pageHooks(appPage)).toolStarts.length;
    const doomed = await browser.context.newPage();
    await doomed.goto(`http://localhost:${site.port}/long`);
    await doomed.bringToFront(); // the active tab of the focused window ranks first
    await waitForTabReady(await tabIdOf(doomed));
    const { outcome: call } = await startLongCall(undefined);
    assert.deepEqual((await pageHooks(doomed)).toolStarts, ['slow_with_progress'], 'the tool started in the front tab');
    await doomed.close();
    const outcome = await call;
    assert.equal(outcome.error, undefined, `the call ended with an MCP result, not ${outcome.error?.message}`);
    assert.equal(outcome.result.isError, true);
    assert.match(resultText(outcome.result), /not retried in another tab because the tool had already started/);
    assert.equal((await pageHooks(appPage)).toolStarts.length, before, 'the other matching tab never ran it');
  });

  test('dispatch resilience: navigating away ends the running call with an error naming the tab', async () => {
    const wanderer = await browser.context.newPage();
    try {
      await wanderer.goto(`http://localhost:${site.port}/form`);
      const wandererTab = await tabIdOf(wanderer);
      await waitForTabReady(wandererTab);
      const { outcome: wandererCall } = await startLongCall(wandererTab);
      assert.deepEqual((await pageHooks(wanderer)).toolStarts, ['slow_with_progress'], 'the tool is running in the tab about to navigate');
      await wanderer.goto(`http://localhost:${site.port}/no-plugin`);
      const outcome = await wandererCall;
      assert.equal(outcome.error, undefined, `the call ended with an MCP result, not ${outcome.error?.message}`);
      assert.equal(outcome.result.isError, true);
      assert.doesNotMatch(resultText(outcome.result), /timed out/);
      assert.match(resultText(outcome.result), new RegExp(`\\bTab ${wandererTab} navigated away before the tool finished`));

      const next = await callTool(mcp, name.echo, { message: 'after navigation', tabId: await tabIdOf(appPage) });
      assert.equal(next.isError, undefined, resultText(next));
      assert.deepEqual(JSON.parse(resultText(next)), { ok: true, message: 'after navigation' });
    } finally {
      await wanderer.close();
    }
  });
});
