// Consent before an unreviewed plugin runs (issue 13, item 9), in real Chromium with the real
// extension and the real server.  Turning on a plugin that has not been reviewed opens a
// confirmation naming the plugin, its version and what it can reach (URL patterns, hosts, tool
// count); Cancel (or Escape) leaves it off and unreviewed in config.json; only "Enable" turns it
// on and records reviewedVersion.  A panel message that tries to enable it without the
// confirmation is refused by the background, and a tool of an unreviewed plugin cannot be
// turned on by itself.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import {
  ARTIFACTS_DIR, tempDir, writeConfig, startServer, extensionDir, ensureServerPortFile, launchWithPlaywright, openSidePanel,
  extensionSession, waitFor,
} from './support/harness.mjs';

const PLUGIN = 'fixture-notes';

describe('side panel consent for unreviewed plugins', () => {
  let configDir; let server; let browser; let panel; let described;
  const configEntry = () => JSON.parse(fs.readFileSync(path.join(configDir, 'config.json'), 'utf8')).permissions?.[PLUGIN];
  const pressed = (level) => panel.locator(`[data-testid=plugin-perm-${PLUGIN}-${level}]`).getAttribute('aria-pressed');

  before(async () => {
    configDir = tempDir('ot-e2e-consent-');
    writeConfig(configDir); // no permissions: both fixture plugins are off and unreviewed
    server = await startServer(configDir);
    ensureServerPortFile(configDir, server.port);
    browser = await launchWithPlaywright(extensionDir(configDir));
    panel = await openSidePanel(browser);
    await panel.locator(`[data-testid=plugin-${PLUGIN}]`).waitFor();
    const { serverState } = await extensionSession(browser, ['serverState']);
    described = serverState.plugins.find((p) => p.name === PLUGIN);
    assert.equal(described.reviewed, false);
  });

  after(async () => {
    await browser?.close().catch(() => {});
    await server?.stop();
    if (configDir) fs.rmSync(configDir, { recursive: true, force: true });
  });

  test('turning the plugin on shows who it is and what it can reach; Cancel and Escape leave it off and unreviewed', async () => {
    const dialog = panel.locator('[data-testid=consent-dialog]');
    await panel.locator(`[data-testid=plugin-perm-${PLUGIN}-auto]`).click();
    await dialog.waitFor({ state: 'visible' });
    assert.equal(await panel.locator(`[data-testid=unreviewed-${PLUGIN}]`).textContent(), 'not reviewed');
    const text = await dialog.textContent();
    assert.match(text, /Enable Fixture Notes\?/);
    assert.match(await dialog.locator('[data-testid=consent-plugin]').textContent(), /^fixture-notes v1\.0\.0/);
    assert.equal(await dialog.locator('[data-testid=consent-hosts]').textContent(), 'localhost');
    assert.deepEqual(await dialog.locator('[data-testid=consent-patterns] li').allTextContents(), described.urlPatterns);
    assert.ok(described.urlPatterns.includes('http://localhost/*'));
    assert.match(text, /Except: http:\/\/localhost\/no-plugin\*/);
    assert.ok(described.tools.length > 1);
    assert.match(await dialog.locator('[data-testid=consent-tools]').textContent(), new RegExp(`^${described.tools.length} tools, set to “auto”`));
    assert.match(text, /without asking you first/);
    fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
    await panel.screenshot({ path: path.join(ARTIFACTS_DIR, 'side-panel-consent.png') });

    await dialog.locator('[data-testid=consent-cancel]').click();
    await dialog.waitFor({ state: 'hidden' });
    assert.equal(await pressed('off'), 'true');
    assert.equal(configEntry(), undefined, 'config.json has no permission and no reviewedVersion for the plugin');

    await panel.locator(`[data-testid=plugin-perm-${PLUGIN}-ask]`).click();
    await dialog.waitFor({ state: 'visible' });
    assert.match(await dialog.locator('[data-testid=consent-tools]').textContent(), /set to “ask”/);
    await panel.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    assert.equal(await pressed('off'), 'true');
    assert.equal(configEntry(), undefined);
  });

  test('without the confirmation nothing turns the plugin or one of its tools on', async () => {
    // A panel message that skips the dialog (as the old one-click toggle did) is refused.
    const reply = await panel.evaluate((plugin) => chrome.runtime.sendMessage({
      target: 'background', type: 'sp:setPluginPermission', payload: { plugin, permission: 'auto' },
    }), PLUGIN);
    assert.match(reply?.error ?? '', /has not been reviewed: enabling it needs its confirmation/);
    // A tool of the unreviewed plugin cannot be turned on by itself: its ask/auto are disabled,
    // and the background refuses the message too.
    const tool = described.tools[0].name;
    await panel.locator(`[data-testid="plugin-${PLUGIN}"] summary`).click();
    assert.equal(await panel.locator(`[data-testid="perm-${PLUGIN}-${tool}-auto"]`).isDisabled(), true);
    assert.equal(await panel.locator(`[data-testid="perm-${PLUGIN}-${tool}-off"]`).isDisabled(), false);
    const toolReply = await panel.evaluate(([plugin, name]) => chrome.runtime.sendMessage({
      target: 'background', type: 'sp:setToolPermission', payload: { plugin, tool: name, permission: 'auto' },
    }), [PLUGIN, tool]);
    assert.match(toolReply?.error ?? '', /has not been reviewed/);
    // A confirmation for a version other than the installed one is refused as well.
    const stale = await panel.evaluate((plugin) => chrome.runtime.sendMessage({
      target: 'background', type: 'sp:setPluginPermission', payload: { plugin, permission: 'auto', reviewedVersion: '0.9.0' },
    }), PLUGIN);
    assert.match(stale?.error ?? '', /is now v1\.0\.0, not v0\.9\.0/);
    assert.equal(configEntry(), undefined);
    assert.equal(await pressed('off'), 'true');
  });

  test('Enable turns it on and records the reviewed version; a reviewed plugin changes level without asking', async () => {
    const dialog = panel.locator('[data-testid=consent-dialog]');
    await panel.locator(`[data-testid=plugin-perm-${PLUGIN}-auto]`).click();
    await dialog.waitFor({ state: 'visible' });
    await dialog.locator('[data-testid=consent-accept]').click();
    await dialog.waitFor({ state: 'hidden' });
    await panel.locator(`[data-testid=plugin-perm-${PLUGIN}-auto][aria-pressed=true]`).waitFor({ timeout: 15_000 });
    assert.deepEqual(configEntry(), { permission: 'auto', reviewedVersion: '1.0.0' });
    await panel.locator(`[data-testid=unreviewed-${PLUGIN}]`).waitFor({ state: 'detached' });
    const tool = described.tools[0].name;
    assert.equal(await panel.locator(`[data-testid="perm-${PLUGIN}-${tool}-ask"]`).isDisabled(), false);

    await panel.locator(`[data-testid=plugin-perm-${PLUGIN}-ask]`).click();
    await panel.locator(`[data-testid=plugin-perm-${PLUGIN}-ask][aria-pressed=true]`).waitFor({ timeout: 15_000 });
    assert.equal(await dialog.isVisible(), false);
    assert.deepEqual(configEntry(), { permission: 'ask', reviewedVersion: '1.0.0' });
    // The other fixture plugin was never confirmed: still unreviewed.
    await waitFor(async () => (await extensionSession(browser, ['serverState'])).serverState.plugins
      .find((p) => p.name === 'fixture-tracker')?.reviewed === false, 'fixture-tracker to stay unreviewed');
  });
});
