// Issue 25 point 5 in real Chromium with the real extension and server: when the server goes
// away, the side panel stops showing the plugin list, switches and port it had from that
// server (they would no longer be true, and the switches would change nothing); it says it
// is not connected, and shows the list again once a server is back.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import { EXTENSION_ID, tempDir, writeConfig, startServer, extensionDir, ensureServerPortFile, launchWithPlaywright } from './support/harness.mjs';

const SIDE_PANEL_URL = `chrome-extension://${EXTENSION_ID}/side-panel/side-panel.html`;

describe('side panel when the server is down', () => {
  let configDir; let server; let browser; let panel;

  before(async () => {
    configDir = tempDir('ot-e2e-down-');
    writeConfig(configDir, { permissions: { 'fixture-notes': { permission: 'auto' } } });
    server = await startServer(configDir);
    ensureServerPortFile(configDir, server.port);
    browser = await launchWithPlaywright(extensionDir(configDir));
    panel = await browser.context.newPage();
    await panel.goto(SIDE_PANEL_URL);
  });

  after(async () => {
    await browser?.close().catch(() => {});
    await server?.stop();
    if (configDir) fs.rmSync(configDir, { recursive: true, force: true, maxRetries: 5 });
  });

  test('the stale list and port go away while disconnected and come back with the server', { timeout: 90_000 }, async () => {
    const port = server.port;
    await panel.locator('[data-testid=connection-state][data-state=connected]').waitFor({ timeout: 20_000 });
    await panel.locator('[data-testid=plugin-fixture-notes]').waitFor({ timeout: 20_000 });
    assert.match(await panel.locator('#server-info').textContent(), new RegExp(`on port ${port}`));

    await server.stop();
    await panel.locator('[data-testid=connection-state]:not([data-state=connected])').waitFor({ timeout: 30_000 });
    await panel.locator('[data-testid=plugin-fixture-notes]').waitFor({ state: 'detached', timeout: 10_000 });
    assert.match(await panel.locator('[data-testid=plugins-empty]').textContent(), /Not connected to the opentabs server/);
    assert.doesNotMatch(await panel.locator('#server-info').textContent(), /server|port/);
    assert.equal(await panel.locator('[data-testid=browser-tools]').count(), 0);

    server = await startServer(configDir, { port });
    await panel.locator('[data-testid=connection-state][data-state=connected]').waitFor({ timeout: 60_000 });
    await panel.locator('[data-testid=plugin-fixture-notes]').waitFor({ timeout: 20_000 });
  });
});
