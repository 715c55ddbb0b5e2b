// The npm plugin life cycle from the side panel, in real Chromium with the real extension, the
// real server and the real `npm` client against a local registry (the one the integration
// tests use; the public registry reachable here serves no OpenTabs plugins): search and
// install from the panel, the server's periodic update check (every second through
// OPENTABS_UPDATE_CHECK_INTERVAL_MS) shows "available" on the card, and its Update button
// installs the new version; Remove uninstalls it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import {
  ARTIFACTS_DIR, EXTENSION_ID, FIXTURE_PLUGINS, tempDir, startServer, extensionDir, ensureServerPortFile,
  launchWithPlaywright,
} from './support/harness.mjs';
import { startNpmRegistry } from '../integration/support/npm_registry.mjs';

const SIDE_PANEL_URL = `chrome-extension://${EXTENSION_ID}/side-panel/side-panel.html`;
const NPM_WAIT_MS = 120_000; // the test's own bound on npm-backed steps

describe('plugin updates in the side panel', () => {
  let registry; let root; let configDir; let server; let browser; let panel;

  before(async () => {
    registry = await startNpmRegistry();
    await registry.publish(path.join(FIXTURE_PLUGINS, 'notes'));
    root = tempDir('ot-e2e-npm-');
    configDir = path.join(root, 'config');
    const prefix = path.join(root, 'prefix');
    fs.mkdirSync(path.join(prefix, 'lib', 'node_modules'), { recursive: true });
    fs.mkdirSync(configDir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(configDir, 'config.json'), JSON.stringify({ version: 3, localPlugins: [], updateCheckIntervalMinutes: 30 }));
    server = await startServer(configDir, {
      env: {
        npm_config_prefix: prefix, npm_config_cache: path.join(root, 'cache'), npm_config_registry: registry.url,
        npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false',
        OPENTABS_SKIP_NPM_DISCOVERY: '0', OPENTABS_UPDATE_CHECK_INTERVAL_MS: '1000',
      },
    });
    ensureServerPortFile(configDir, server.port);
    browser = await launchWithPlaywright(extensionDir(configDir));
    panel = await browser.context.newPage();
    await panel.goto(SIDE_PANEL_URL);
  });

  after(async () => {
    await browser?.close().catch(() => {});
    await server?.stop();
    await registry?.close();
    if (root) fs.rmSync(root, { recursive: true, force: true, maxRetries: 5 });
  });

  test('install from search, "available" after a newer version is published, Update installs it, Remove uninstalls it', { timeout: 3 * NPM_WAIT_MS }, async () => {
    // Search goes through the extension's socket: wait until it is connected.
    await panel.locator('[data-testid=connection-state][data-state=connected]').waitFor({ timeout: 20_000 });
    await panel.locator('[data-testid=npm-search]').fill('notes');
    await panel.locator('[data-testid=npm-search]').press('Enter');
    const result = panel.locator('#search-results li').filter({ hasText: 'Fixture Notes' });
    await result.locator('button', { hasText: 'Install' }).click({ timeout: NPM_WAIT_MS });
    const card = panel.locator('[data-testid=plugin-fixture-notes]');
    await card.waitFor({ timeout: NPM_WAIT_MS });
    assert.match(await card.textContent(), /v1\.0\.0 · npm/);

    await registry.publish(path.join(FIXTURE_PLUGINS, 'notes'), { version: '1.0.1' });
    const badge = card.locator('[data-testid=update-badge-fixture-notes]');
    await badge.waitFor({ timeout: NPM_WAIT_MS });
    assert.equal(await badge.textContent(), 'v1.0.1 available');
    assert.equal(await badge.getAttribute('title'), 'npm update -g opentabs-plugin-fixture-notes');
    await panel.screenshot({ path: path.join(ARTIFACTS_DIR, 'side-panel-update-available.png') });

    await card.locator('[data-testid=update-fixture-notes]').click();
    await panel.locator('[data-testid=plugin-fixture-notes]', { hasText: 'v1.0.1 · npm' }).waitFor({ timeout: NPM_WAIT_MS });
    await badge.waitFor({ state: 'detached', timeout: NPM_WAIT_MS });
    const pkgDir = path.join(root, 'prefix', 'lib', 'node_modules', 'opentabs-plugin-fixture-notes');
    const installed = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
    assert.equal(installed.version, '1.0.1');

    // Remove (two clicks: the first arms the button) uninstalls the package with npm.
    const updated = panel.locator('[data-testid=plugin-fixture-notes]');
    await updated.locator('[data-testid=remove-fixture-notes]').click();
    await updated.locator('[data-testid=remove-fixture-notes][data-armed="1"]').click();
    await updated.waitFor({ state: 'detached', timeout: NPM_WAIT_MS });
    assert.equal(fs.existsSync(pkgDir), false, 'npm uninstalled the package');
    assert.match(await panel.locator('[data-testid=plugins-empty]').textContent(), /No plugins installed/);
  });
});
