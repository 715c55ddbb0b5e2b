// Issue 38 "lock-out without the secret", driven by a web page in real headless Chromium with
// the real extension: a page fires 700 <img> requests and 100 no-cors fetches at
// /auth/challenge (none carries an Origin header or a custom header, so the Origin screen lets
// them through).  The challenge used to share one 600-a-minute budget among all callers, and
// such a page made the CLI call the real server an impostor.  Now only a caller showing the
// challenge tag is answered, so the page spends nothing: the CLI still proves the server.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import {
  tempDir, writeConfig, startServer, extensionDir, ensureServerPortFile, launchWithPlaywright, extensionSession, waitFor,
  SERVER_BIN,
} from './support/harness.mjs';
import { runBinary, cliEnv } from '../integration/support/cli.mjs';

describe('security: a page flooding /auth/challenge locks nobody out', () => {
  const configDir = tempDir('ot-e2e-challenge-');
  let server;
  let browser;

  after(async () => {
    await browser?.close().catch(() => {});
    await server?.stop();
    fs.rmSync(configDir, { recursive: true, force: true });
  });

  test('700 <img> and 100 no-cors fetches from a page; the CLI still proves the server', { timeout: 120_000 }, async () => {
    writeConfig(configDir);
    server = await startServer(configDir);
    ensureServerPortFile(configDir, server.port);
    browser = await launchWithPlaywright(extensionDir(configDir));
    const connected = async () => (await extensionSession(browser, ['connection'])).connection?.state === 'connected';
    await waitFor(connected, 'the extension to connect', 30_000);

    const page = await browser.context.newPage();
    await page.goto('about:blank');
    const fired = await page.evaluate(async (port) => {
      const nonce = () => Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => b.toString(16).padStart(2, '0')).join('');
      const url = () => `http://127.0.0.1:${port}/auth/challenge?clientNonce=${nonce()}`;
      const images = Array.from({ length: 700 }, () => new Promise((resolve) => {
        const img = new Image();
        img.onload = img.onerror = () => resolve();
        img.src = url();
      }));
      const fetches = Array.from({ length: 100 }, () => fetch(url(), { mode: 'no-cors' }).then(() => 'sent', () => 'failed'));
      await Promise.all([...images, ...fetches]);
      return images.length + fetches.length;
    }, server.port);
    assert.equal(fired, 800);

    const r = await runBinary(SERVER_BIN, ['status'], cliEnv({ OPENTABS_CONFIG_DIR: configDir, OPENTABS_PORT: String(server.port) }));
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.doesNotMatch(r.stdout + r.stderr, /is not this opentabs server/);
    assert.ok(await connected(), 'the extension stays connected');
  });
});
