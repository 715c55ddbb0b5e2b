// An opentabs upgrade under a running extension, in real Chromium: the server copies the
// extension's files into the folder Chrome loaded and sends their bundle hash as
// sync.full.extensionHash; the extension remembers the hash of the files it loaded, so after
// the files change (simulated by editing the extension source and restarting the server on the
// same port) the side panel offers a reload, and after the reload it runs the new files and
// the notice is gone (in a fresh browser: see the comment at the reload step).  Also two
// side-panel details: the filter's "nothing matches" state, open cards surviving a reopen, and
// the inactive icon of a plugin without a ready tab; and a config.json edit on disk reaching
// the open panel (config watcher → plugins.changed → panel).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import {
  ARTIFACTS_DIR, EXTENSION_ID, SOURCE_DIR, tempDir, writeConfig, startServer, extensionDir, launchWithPlaywright, waitFor,
} from './support/harness.mjs';
import { freePort } from '../integration/support/server.mjs';

const SIDE_PANEL_URL = `chrome-extension://${EXTENSION_ID}/side-panel/side-panel.html`;

describe('extension files updated under a running extension', () => {
  let root; let configDir; let source; let port; let server; let browser;
  const env = () => ({ OPENTABS_EXTENSION_SOURCE: source, OPENTABS_MTIME_POLL_MS: '200' });

  before(async () => {
    root = tempDir('ot-e2e-ext-update-');
    configDir = path.join(root, 'config');
    source = path.join(root, 'extension-source');
    fs.cpSync(path.join(SOURCE_DIR, 'extension'), source, { recursive: true });
    writeConfig(configDir);
    port = await freePort();
    server = await startServer(configDir, { port, env: env() });
    browser = await launchWithPlaywright(extensionDir(configDir));
  });

  after(async () => {
    await browser?.close().catch(() => {});
    await server?.stop();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  async function openPanel() {
    const panel = await browser.context.newPage();
    await panel.goto(SIDE_PANEL_URL);
    await panel.locator('[data-testid=connection-state][data-state=connected]').waitFor({ timeout: 20_000 });
    return panel;
  }

  test('no notice while current; "Extension update ready" after the files change; gone after Reload', async () => {
    const hashFile = path.join(extensionDir(configDir), '.extension-hash');
    const installed = fs.readFileSync(hashFile, 'utf8');
    assert.match(installed, /^[0-9a-f]{16}$/);
    let panel = await openPanel();
    assert.equal(await panel.evaluate(async () => (await chrome.storage.session.get('runningHash')).runningHash), installed);
    await waitFor(async () => (await panel.evaluate(async () => (await chrome.storage.session.get('serverState')).serverState?.extensionHash)) === installed, 'sync.full with the extensionHash');
    assert.equal(await panel.locator('[data-testid=extension-update]').count(), 0);
    assert.match(await panel.locator('#server-info').textContent(), /^Extension \d+\.\d+\.\d+ · server /);

    // "Upgrade": new extension files, and the server restarted on the same port.
    fs.appendFileSync(path.join(source, 'side-panel', 'side-panel.css'), '\n/* upgraded */\n');
    await server.stop();
    server = await startServer(configDir, { port, env: env() });
    const upgraded = fs.readFileSync(hashFile, 'utf8');
    assert.match(upgraded, /^[0-9a-f]{16}$/);
    assert.notEqual(upgraded, installed);
    const notice = panel.locator('[data-testid=extension-update]');
    await notice.waitFor({ timeout: 30_000 }); // the extension reconnects on its own, then sync.full
    await panel.screenshot({ path: path.join(ARTIFACTS_DIR, 'side-panel-extension-update.png') });

    // Reload: the button calls chrome.runtime.reload(), which closes the extension's pages.
    // In this test Chromium the extension is loaded with --load-extension, and Chromium does not
    // bring a command-line extension back after chrome.runtime.reload() (checked by hand: its
    // worker and pages are gone for good), whereas a "Load unpacked" extension reloads.  So the
    // reloaded state is checked by loading the updated folder in a fresh browser instead.
    const closed = panel.waitForEvent('close', { timeout: 15_000 });
    await notice.locator('[data-testid=extension-reload]').click();
    await closed;
    await browser.close();
    browser = await launchWithPlaywright(extensionDir(configDir));
    panel = await openPanel();
    assert.equal(await panel.evaluate(async () => (await chrome.storage.session.get('runningHash')).runningHash), upgraded);
    await waitFor(async () => (await panel.evaluate(async () => (await chrome.storage.session.get('serverState')).serverState?.extensionHash)) === upgraded, 'sync.full after the reload');
    assert.equal(await panel.locator('[data-testid=extension-update]').count(), 0);
  });

  test('the filter says when nothing matches; opened plugin cards stay open when the panel reopens', async () => {
    const panel = await openPanel();
    await panel.locator('[data-testid=plugin-fixture-notes]').waitFor();
    // No tab of the plugin is open: its card shows the inactive (grey) icon variant.
    assert.match(await panel.locator('[data-testid=plugin-fixture-notes] img').getAttribute('src'), /%239ca3af/);
    await panel.locator('[data-testid=filter]').fill('zzz-nothing');
    assert.equal(await panel.locator('[data-testid=plugins-empty]').textContent(), 'No plugins or tools match “zzz-nothing”.');
    await panel.locator('[data-testid=filter]').fill('');
    const details = panel.locator('[data-testid=plugin-fixture-notes] details');
    assert.equal(await details.evaluate((d) => d.open), false);
    await details.locator('summary').click();
    await waitFor(async () => Array.isArray((await panel.evaluate(() => chrome.storage.local.get('expandedPlugins'))).expandedPlugins), 'the open card to be saved');
    await panel.close();
    const reopened = await openPanel();
    await reopened.locator('[data-testid=plugin-fixture-notes]').waitFor();
    assert.equal(await reopened.locator('[data-testid=plugin-fixture-notes] details').evaluate((d) => d.open), true);
    assert.equal(await reopened.locator('[data-testid=plugin-fixture-tracker] details').evaluate((d) => d.open), false);
  });

  test('a config.json edited on disk shows in the open panel without a reload', async () => {
    const panel = await openPanel();
    const auto = panel.locator('[data-testid=plugin-perm-fixture-notes-auto]');
    await auto.waitFor();
    assert.equal(await auto.getAttribute('aria-pressed'), 'false');
    const file = path.join(configDir, 'config.json');
    const config = JSON.parse(fs.readFileSync(file, 'utf8'));
    config.permissions['fixture-notes'] = { permission: 'auto', reviewedVersion: '1.0.0' };
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(config, null, 2));
    fs.renameSync(`${file}.tmp`, file);
    await panel.locator('[data-testid=plugin-perm-fixture-notes-auto][aria-pressed=true]').waitFor({ timeout: 15_000 });
  });
});
