// Real-Chromium e2e of per-instance plugin settings and pre-scripts: the fixture-tracker plugin
// has a url setting with two instances (two fixture sites on two ports).  The extension must
// inject each tab's own instance URL as `__openTabs.pluginConfig`, the server's `instance`
// argument must reach the right tab, and the plugin's pre-script must run at document_start.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  SOURCE_DIR, tempDir, writeConfig, startServer, extensionDir, readSecret, ensureServerPortFile,
  launchWithPlaywright, connectMcp, callTool, resultText, pluginToolName, waitFor, extensionSession,
} from './support/harness.mjs';

const { startFixtureSite } = await import(path.join(SOURCE_DIR, 'test/fixtures/site/server.mjs'));
const PLUGIN = 'fixture-tracker';

describe('url instances, pluginConfig per tab and pre-scripts', () => {
  let configDir; let alpha; let beta; let server; let browser; let mcp;

  before(async () => {
    configDir = tempDir('ot-e2e-config-');
    alpha = await startFixtureSite({ port: 0, name: 'alpha' });
    beta = await startFixtureSite({ port: 0, name: 'beta' });
    writeConfig(configDir, {
      permissions: { [PLUGIN]: { permission: 'auto' } },
      settings: {
        [PLUGIN]: {
          instanceUrl: { alpha: `http://localhost:${alpha.port}`, beta: `http://localhost:${beta.port}` },
          teamName: 'core',
        },
      },
    });
    server = await startServer(configDir);
    ensureServerPortFile(configDir, server.port);
    browser = await launchWithPlaywright(extensionDir(configDir));
    // Open the sites only once the extension has the plugin, so the pre-script is registered.
    await waitFor(async () => (await extensionSession(browser, ['plugins'])).plugins?.some((p) => p.name === PLUGIN),
      'the tracker plugin in the extension store');
    for (const site of [alpha, beta]) {
      const page = await browser.context.newPage();
      await page.goto(`http://localhost:${site.port}/`);
    }
    await waitFor(async () => {
      const s = await extensionSession(browser, ['tabStates']);
      return s.tabStates?.[PLUGIN]?.tabs.filter((t) => t.ready).length === 2;
    }, 'tracker ready in both tabs', 20_000);
    mcp = await connectMcp(server.port, readSecret(configDir));
  });

  after(async () => {
    await mcp?.close().catch(() => {});
    await browser?.close().catch(() => {});
    await server?.stop();
    await alpha?.close();
    await beta?.close();
    if (configDir) fs.rmSync(configDir, { recursive: true, force: true });
  });

  test('each instance sees its own URL in pluginConfig', async () => {
    const tool = await pluginToolName(mcp, PLUGIN, 'get_instance');
    for (const [instance, site] of [['alpha', alpha], ['beta', beta]]) {
      const result = await callTool(mcp, tool, { instance });
      assert.equal(result.isError, undefined, resultText(result));
      const out = JSON.parse(resultText(result));
      assert.equal(out.siteName, instance);
      assert.equal(out.origin, `http://localhost:${site.port}`);
      assert.match(out.instanceUrl, new RegExp(`^http://localhost:${site.port}/?$`));
      assert.equal(out.teamName, 'core');
    }
  });

  test('the pre-script ran at document_start', async () => {
    const tool = await pluginToolName(mcp, PLUGIN, 'get_prescript_capture');
    const result = await callTool(mcp, tool, { instance: 'alpha' });
    assert.equal(result.isError, undefined, resultText(result));
    const { captured } = JSON.parse(resultText(result));
    assert.ok(captured, 'the pre-script stored its capture');
    assert.equal(captured.ranAt, 'document_start');
    assert.equal(captured.pageScriptsAlreadyRan, false);
  });
});
