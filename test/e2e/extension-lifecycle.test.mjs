// Real-Chromium e2e of the connection's lifetime with a plainly launched browser (no
// Playwright attached, so Chrome suspends the extension's service worker exactly as for a user):
// the server is restarted mid-test and the extension reconnects on its own; then the worker is
// left idle until Chrome has really stopped it (observed through the DevTools HTTP target list,
// which does not attach to it) and the next tool call still works, because the socket lives in
// the offscreen document and the relayed message wakes the worker.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  EXTENSION_ID, SOURCE_DIR, chromium, tempDir, writeConfig, startServer, extensionDir, readSecret,
  ensureServerPortFile, launchPlain, connectMcp, callTool, resultText, pluginToolName, waitFor,
} from './support/harness.mjs';

const { startFixtureSite } = await import(path.join(SOURCE_DIR, 'test/fixtures/site/server.mjs'));
const PLUGIN = 'fixture-notes';
const WORKER_URL = `chrome-extension://${EXTENSION_ID}/src/background.js`;

// Calls echo until it succeeds (the extension may still be connecting); returns the parsed
// output.  One MCP session serves every try (a new one only after a transport failure), so the
// retries stay within the server's limit on new sessions per minute.
async function echoWhenConnected(port, secret, message, what) {
  let mcp = null;
  try {
    return await waitFor(async () => {
      try {
        mcp ??= await connectMcp(port, secret);
        const result = await callTool(mcp, await pluginToolName(mcp, PLUGIN, 'echo'), { message }, { timeout: 10_000 });
        return result.isError ? null : JSON.parse(resultText(result));
      } catch (e) {
        await mcp?.close().catch(() => {});
        mcp = null;
        throw e;
      }
    }, what, 30_000, 500);
  } finally {
    await mcp?.close().catch(() => {});
  }
}

async function workerRunning(cdpUrl) {
  const targets = await (await fetch(`${cdpUrl}/json/list`)).json();
  return targets.some((t) => t.type === 'service_worker' && t.url === WORKER_URL);
}

describe('connection lifetime with a plainly launched Chromium', () => {
  let configDir; let site; let server; let browser; let secret;

  before(async () => {
    configDir = tempDir('ot-e2e-config-');
    writeConfig(configDir, { permissions: { [PLUGIN]: { permission: 'auto' } } });
    site = await startFixtureSite({ port: 0, name: 'e2e-lifecycle' });
    server = await startServer(configDir);
    ensureServerPortFile(configDir, server.port);
    secret = readSecret(configDir);
    browser = await launchPlain(extensionDir(configDir), [`http://localhost:${site.port}/`]);
  });

  after(async () => {
    await browser?.close().catch(() => {});
    await server?.stop();
    await site?.close();
    if (configDir) fs.rmSync(configDir, { recursive: true, force: true });
  });

  test('the extension reconnects after the server restarts', async () => {
    assert.deepEqual(await echoWhenConnected(server.port, secret, 'before restart', 'a first call'),
      { ok: true, message: 'before restart' });
    const port = server.port;
    await server.stop();
    server = await startServer(configDir, { port });
    ensureServerPortFile(configDir, port);
    assert.equal(readSecret(configDir), secret, 'the restarted server keeps the secret');
    assert.deepEqual(await echoWhenConnected(port, secret, 'after restart', 'a call after the restart'),
      { ok: true, message: 'after restart' });
  });

  test('a suspended service worker does not lose the connection', async () => {
    const cdpUrl = await browser.cdpUrl();
    const idleStart = Date.now();
    // Chrome stops an idle worker 30 s after its last event; our once-a-minute alarm may wake it
    // in between, so wait (polling, not sleeping a fixed time) until it is really gone.
    await waitFor(async () => !(await workerRunning(cdpUrl)), 'Chrome to suspend the idle service worker', 150_000, 1_000);

    const mcp = await connectMcp(server.port, secret);
    try {
      const result = await callTool(mcp, await pluginToolName(mcp, PLUGIN, 'echo'), { message: 'after idle' });
      assert.equal(result.isError, undefined, resultText(result));
      assert.deepEqual(JSON.parse(resultText(result)), { ok: true, message: 'after idle' });
    } finally {
      await mcp.close().catch(() => {});
    }
    assert.ok(await workerRunning(cdpUrl), 'the relayed tool call woke the worker again');

    // Diagnostics only now that the idle phase is over: the worker really restarted.
    const cdp = await chromium.connectOverCDP(cdpUrl);
    try {
      const page = await cdp.contexts()[0].newPage();
      await page.goto(`chrome-extension://${EXTENSION_ID}/side-panel/side-panel.html`);
      const { swBoot, connection } = await page.evaluate(() => chrome.storage.session.get(['swBoot', 'connection']));
      assert.ok(swBoot.count >= 2, `service worker started ${swBoot.count} times`);
      assert.equal(connection.state, 'connected');
      // Pings (every 15 s) were answered all along: the socket opened before the idle phase is
      // still the one in use, with no pong-timeout reconnect in between.
      assert.ok(connection.since < idleStart, 'the connection was not re-established during the idle phase');
    } finally {
      await cdp.close();
    }
  });
});
