// Real-Chromium e2e of the extension's protocol core, driven by the official MCP SDK client:
// the real server (build/opentabs) prepares <configDir>/extension, Chromium loads it unpacked,
// the fixture plugins' real adapters run in pages of the fixture site.  Covers results,
// progress, plugin logs, ToolErrors, `ask` approvals from the side panel, tabId targeting,
// closed tabs, side-panel permission toggles, nonce privacy, and side-panel screenshots in both
// themes (kept in test/e2e/artifacts/).

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  ARTIFACTS_DIR, EXTENSION_ID, SOURCE_DIR, tempDir, writeConfig, startServer, extensionDir, readSecret,
  ensureServerPortFile, launchWithPlaywright, connectMcp, callTool, resultText, pluginToolName, waitFor,
  waitForPluginReady, extensionSession,
} from './support/harness.mjs';

const { startFixtureSite } = await import(path.join(SOURCE_DIR, 'test/fixtures/site/server.mjs'));
const PLUGIN = 'fixture-notes';
const SIDE_PANEL_URL = `chrome-extension://${EXTENSION_ID}/side-panel/side-panel.html`;

describe('extension protocol core in real Chromium', () => {
  let configDir; let site; let server; let browser; let mcp; let appPage; let panel; let brokenPlugin;
  const name = {};

  before(async () => {
    configDir = tempDir('ot-e2e-config-');
    // A plugin whose dist/ is missing: the server reports it in failedPlugins.
    brokenPlugin = tempDir('ot-e2e-broken-plugin-');
    fs.writeFileSync(path.join(brokenPlugin, 'package.json'), JSON.stringify({
      name: 'opentabs-plugin-broken-fixture', version: '1.0.0', main: 'dist/adapter.iife.js',
      opentabs: { displayName: 'Broken', description: 'Has no build output', urlPatterns: ['http://localhost/*'] },
    }));
    writeConfig(configDir, {
      permissions: { [PLUGIN]: { permission: 'auto', tools: { list_notes: 'ask', get_note: 'ask' } } },
      extraLocalPlugins: [brokenPlugin],
    });
    site = await startFixtureSite({ port: 0, name: 'e2e-site' });
    server = await startServer(configDir);
    ensureServerPortFile(configDir, server.port);
    browser = await launchWithPlaywright(extensionDir(configDir));
    appPage = await browser.context.newPage();
    await appPage.goto(`http://localhost:${site.port}/`);
    await waitForPluginReady(browser, PLUGIN);
    mcp = await connectMcp(server.port, readSecret(configDir));
    try { await mcp.client.setLoggingLevel('debug'); } catch { /* logging level is optional */ }
    for (const tool of ['echo', 'slow_with_progress', 'log_levels', 'rate_limited', 'failing_tool', 'list_notes', 'get_note', 'create_note']) {
      name[tool] = await pluginToolName(mcp, PLUGIN, tool);
    }
  });

  after(async () => {
    await mcp?.close().catch(() => {});
    await browser?.close().catch(() => {});
    await server?.stop();
    await site?.close();
    if (configDir) fs.rmSync(configDir, { recursive: true, force: true });
    if (brokenPlugin) fs.rmSync(brokenPlugin, { recursive: true, force: true });
  });

  test('a plugin tool runs in the page and returns its result', async () => {
    const result = await callTool(mcp, name.echo, { message: 'hello from e2e' });
    assert.equal(result.isError, undefined, resultText(result));
    assert.deepEqual(JSON.parse(resultText(result)), { ok: true, message: 'hello from e2e' });
    const hooks = await appPage.evaluate((p) => globalThis.__opentabsFixtureHooks?.[p]?.toolStarts ?? [], PLUGIN);
    assert.ok(hooks.includes('echo'), 'the adapter in the page ran the tool');
  });

  test('progress notifications arrive while the tool runs', async () => {
    const progress = [];
    const result = await callTool(mcp, name.slow_with_progress, { steps: 3, delayMs: 100 }, {
      onprogress: (p) => progress.push(p),
    });
    assert.deepEqual(JSON.parse(resultText(result)), { completed: 3 });
    const fromTool = progress.filter((p) => typeof p.message === 'string' && p.message.startsWith('step '));
    assert.deepEqual(fromTool.map((p) => [p.progress, p.total, p.message]),
      [[1, 3, 'step 1 of 3'], [2, 3, 'step 2 of 3'], [3, 3, 'step 3 of 3']]);
  });

  test('plugin logs reach the MCP client; page scripts cannot read the log nonce', async () => {
    const marker = `e2e-log-${Date.now()}`;
    const result = await callTool(mcp, name.log_levels, { message: marker });
    assert.equal(result.isError, undefined, resultText(result));
    const info = await waitFor(() => mcp.logs.find((l) => String(l.data).includes(`${marker} (info)`)),
      'the info log as an MCP logging notification');
    assert.equal(info.level, 'info');
    assert.equal(info.logger, `plugin:${PLUGIN}`);
    // The page relays its log batches as they fill, so the warning and error entries may
    // arrive in a later notification than the info entry.
    const levelsSeen = () => new Set(mcp.logs.filter((l) => String(l.data).includes(marker)).map((l) => l.level));
    await waitFor(() => levelsSeen().has('error') && levelsSeen().has('warning'), 'the warning and error logs too')
      .catch(() => assert.fail(`levels seen: ${[...levelsSeen()]}`));
    const visible = await appPage.evaluate(() => [globalThis.__openTabs?._logNonce, globalThis.__openTabs?._readinessNonce]);
    assert.deepEqual(visible, [undefined, undefined], 'nonces are only readable by adapter code');
  });

  test('a ToolError arrives with its code and category', async () => {
    const limited = await callTool(mcp, name.rate_limited, { retryAfterMs: 2500 });
    assert.equal(limited.isError, true);
    const text = resultText(limited);
    assert.match(text, /code=RATE_LIMITED/);
    assert.match(text, /category=rate_limit/);
    assert.match(text, /retryable=true/);
    assert.match(text, /retryAfterMs=2500/);
    assert.match(text, /Too many requests to the fixture site/);

    const missing = await callTool(mcp, name.failing_tool, { id: 'nope' });
    assert.equal(missing.isError, true);
    assert.match(resultText(missing), /code=NOT_FOUND/);
    assert.match(resultText(missing), /category=not_found/);
  });

  test('ask: calls wait for the side panel; allow completes, deny gives the denial message', async () => {
    panel = await browser.context.newPage();
    await panel.goto(SIDE_PANEL_URL);
    await panel.locator('[data-testid=connection-state][data-state=connected]').waitFor();

    // One call: approve it.
    const approved = callTool(mcp, name.list_notes, { limit: 5 });
    const card = panel.locator('[data-testid=confirmation]').filter({ hasText: 'list_notes' });
    await card.waitFor();
    await card.locator('[data-testid=confirm-allow]').click();
    const approvedResult = await approved;
    assert.equal(approvedResult.isError, undefined, resultText(approvedResult));
    assert.ok(Array.isArray(JSON.parse(resultText(approvedResult)).notes));

    // Two calls waiting at once: allow one, deny the other.
    const first = callTool(mcp, name.list_notes, { limit: 1 });
    const second = callTool(mcp, name.get_note, { id: '00000000-0000-4000-8000-000000000000' });
    const cards = panel.locator('[data-testid=confirmation]');
    await waitFor(async () => (await cards.count()) === 2, 'two confirmation cards');
    fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
    await panel.screenshot({ path: path.join(ARTIFACTS_DIR, 'side-panel-confirmations.png') });
    await cards.filter({ hasText: 'get_note' }).locator('[data-testid=confirm-deny]').click();
    await cards.filter({ hasText: 'list_notes' }).locator('[data-testid=confirm-allow]').click();
    const [firstResult, secondResult] = await Promise.all([first, second]);
    assert.equal(firstResult.isError, undefined, resultText(firstResult));
    assert.equal(secondResult.isError, true);
    assert.match(resultText(secondResult), /was denied by the user/);
    await waitFor(async () => (await cards.count()) === 0, 'no confirmation card left');
  });

  test('ask: a question whose call ends elsewhere leaves the side panel (confirmation.settled)', async () => {
    const cards = panel.locator('[data-testid=confirmation]');
    const abort = new AbortController();
    const cancelled = mcp.client.callTool({ name: name.list_notes, arguments: { limit: 2 } }, undefined, { signal: abort.signal, timeout: 60_000 });
    await waitFor(async () => (await cards.count()) === 1, 'the question in the side panel');
    // The client gives up (notifications/cancelled): nobody needs the answer any more.
    abort.abort();
    await assert.rejects(cancelled);
    await waitFor(async () => (await cards.count()) === 0, 'the withdrawn question to leave the side panel');
  });

  test('side panel: tool permission toggle reaches the server', async () => {
    const ask = panel.locator(`[data-testid="perm-${PLUGIN}-create_note-ask"]`);
    await panel.locator(`[data-testid="plugin-${PLUGIN}"] summary`).click();
    await ask.click();
    await waitFor(async () => (await ask.getAttribute('aria-pressed')) === 'true', 'the toggle to show ask after plugins.changed');
    const { tools } = await mcp.client.listTools();
    const createNote = tools.find((t) => t.name === name.create_note);
    assert.match(createNote.description, /^\[Requires approval\] /);
  });

  test('side panel: Open brings the plugin\'s open tab forward instead of opening another', async () => {
    const activeUrl = async () => (await browser.worker().evaluate(() => chrome.tabs.query({ active: true, lastFocusedWindow: true })))[0]?.url;
    const other = await browser.context.newPage();
    await other.goto(`http://localhost:${site.port}/no-plugin`);
    await other.bringToFront();
    await waitFor(async () => /\/no-plugin$/.test(await activeUrl() ?? ''), 'the other tab to be active');
    const before = (await browser.worker().evaluate(() => chrome.tabs.query({}))).length;
    // The plugin is ready in appPage: its card shows the active (blue) icon.
    assert.match(await panel.locator(`[data-testid="plugin-${PLUGIN}"] img`).getAttribute('src'), /%232563eb/);
    await panel.locator(`[data-testid="open-${PLUGIN}"]`).click();
    await waitFor(async () => (await activeUrl()) === appPage.url(), 'the plugin tab to be active');
    assert.equal((await browser.worker().evaluate(() => chrome.tabs.query({}))).length, before, 'no new tab');
    await other.close();
  });

  test('side panel: url-instance settings from configSchema are saved by the server', async () => {
    await panel.locator('[data-testid="settings-fixture-tracker"]').click();
    const dialog = panel.locator('[data-testid=settings-dialog]');
    await dialog.waitFor();
    const rows = dialog.locator('[data-testid=setting-instanceUrl] .row');
    await rows.nth(0).locator('[data-role=name]').fill('alpha');
    await rows.nth(0).locator('[data-role=url]').fill(`http://localhost:${site.port}`);
    await dialog.getByRole('button', { name: 'Add instance' }).click();
    await rows.nth(1).locator('[data-role=name]').fill('beta');
    await rows.nth(1).locator('[data-role=url]').fill('http://localhost:1');
    await dialog.locator('#setting-teamName').fill('platform');
    await dialog.locator('[data-testid=settings-save]').click();
    await dialog.waitFor({ state: 'hidden' });
    const saved = JSON.parse(fs.readFileSync(path.join(configDir, 'config.json'), 'utf8')).settings['fixture-tracker'];
    assert.deepEqual(saved.instanceUrl, { alpha: `http://localhost:${site.port}`, beta: 'http://localhost:1' });
    assert.equal(saved.teamName, 'platform');
    // The server reloads and sends sync.full: the tracker now matches the fixture site's host.
    const tracker = await waitFor(async () => (await extensionSession(browser, ['plugins'])).plugins
      ?.find((p) => p.name === 'fixture-tracker' && p.urlPatterns.includes(`*://localhost:${site.port}/*`)), 'tracker patterns from its settings');
    assert.deepEqual(Object.keys(tracker.instanceMap ?? {}).sort(), ['alpha', 'beta']);
  });

  test('side panel: a failed plugin is shown and can be removed', async () => {
    const card = panel.locator('[data-testid=failed-plugin]').filter({ hasText: path.basename(brokenPlugin) });
    await card.waitFor();
    await card.locator('[data-testid=remove-failed]').click();
    await card.locator('[data-testid=remove-failed][data-armed="1"]').click(); // second click confirms
    await card.waitFor({ state: 'detached', timeout: 15_000 });
    const { localPlugins } = JSON.parse(fs.readFileSync(path.join(configDir, 'config.json'), 'utf8'));
    assert.ok(!localPlugins.some((p) => p.includes(path.basename(brokenPlugin))), 'removed from localPlugins');
  });

  test('two tabs of one plugin: tabId targets one; a closed tab gives -32001', async () => {
    const second = await browser.context.newPage();
    await second.goto(`http://localhost:${site.port}/form`);
    const state = await waitForPluginReady(browser, PLUGIN, 2);
    const tabs = await browser.worker().evaluate(() => chrome.tabs.query({}));
    const formTab = tabs.find((t) => t.url.endsWith('/form'));
    assert.ok(state.tabs.some((t) => t.tabId === formTab.id), 'the /form tab is reported for the plugin');

    const before = await appPage.evaluate((p) => globalThis.__opentabsFixtureHooks[p].toolStarts.length, PLUGIN);
    const targeted = await callTool(mcp, name.echo, { message: 'second tab', tabId: formTab.id });
    assert.equal(targeted.isError, undefined, resultText(targeted));
    const inForm = await second.evaluate((p) => globalThis.__opentabsFixtureHooks?.[p]?.toolStarts ?? [], PLUGIN);
    assert.deepEqual(inForm, ['echo'], 'the tool ran in the targeted tab');
    const after = await appPage.evaluate((p) => globalThis.__opentabsFixtureHooks[p].toolStarts.length, PLUGIN);
    assert.equal(after, before, 'and not in the other tab');

    const excluded = await browser.context.newPage();
    await excluded.goto(`http://localhost:${site.port}/no-plugin`);
    const excludedTab = (await browser.worker().evaluate(() => chrome.tabs.query({}))).find((t) => t.url.endsWith('/no-plugin'));
    const mismatch = await callTool(mcp, name.echo, { message: 'wrong tab', tabId: excludedTab.id });
    assert.equal(mismatch.isError, true);
    assert.match(resultText(mismatch), /does not match the URL patterns/, 'an excluded page is refused (-32003)');
    await excluded.close();

    await second.close();
    const closed = await callTool(mcp, name.echo, { message: 'gone', tabId: formTab.id });
    assert.equal(closed.isError, true);
    assert.match(resultText(closed), /Tab closed/);
    assert.match(resultText(closed), new RegExp(`Tab ${formTab.id} does not exist`));
  });

  test('side panel screenshots in light and dark themes', async () => {
    fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
    await panel.setViewportSize({ width: 420, height: 900 });
    await panel.evaluate(() => chrome.storage.local.set({ theme: 'light' }));
    await waitFor(() => panel.evaluate(() => document.documentElement.dataset.theme === 'light'), 'light theme');
    await panel.locator('[data-testid=browser-tools] summary').click();
    const groups = await panel.locator('[data-testid=browser-group]').allTextContents();
    assert.ok(new Set(groups).size > 3, `browser tools are grouped (${groups.length} groups)`);
    const lightBg = await panel.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await panel.evaluate(() => window.scrollTo(0, 0));
    await panel.screenshot({ path: path.join(ARTIFACTS_DIR, 'side-panel-light.png') });
    await panel.screenshot({ path: path.join(ARTIFACTS_DIR, 'side-panel-light-full.png'), fullPage: true });
    await panel.locator('[data-testid=theme-toggle]').click();
    await waitFor(() => panel.evaluate(() => document.documentElement.dataset.theme === 'dark'), 'dark theme');
    const darkBg = await panel.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.notEqual(darkBg, lightBg);
    await panel.evaluate(() => window.scrollTo(0, 0));
    await panel.screenshot({ path: path.join(ARTIFACTS_DIR, 'side-panel-dark.png') });
    await panel.screenshot({ path: path.join(ARTIFACTS_DIR, 'side-panel-dark-full.png'), fullPage: true });
    for (const f of ['side-panel-light.png', 'side-panel-dark.png']) {
      assert.ok(fs.statSync(path.join(ARTIFACTS_DIR, f)).size > 10_000, `${f} has content`);
    }
    const session = await extensionSession(browser, ['activity']);
    assert.ok(session.activity.some((a) => a.tool.includes('echo') && a.status === 'success'), 'activity shows finished calls');
  });

  test('side panel shows auth failure when auth.json holds a wrong secret, then recovers', async () => {
    const authFile = path.join(extensionDir(configDir), 'auth.json');
    const good = fs.readFileSync(authFile, 'utf8');
    const pill = panel.locator('[data-testid=connection-state]');
    try {
      fs.writeFileSync(authFile, `${JSON.stringify({ secret: 'f'.repeat(64) })}\n`);
      await panel.locator('[data-testid=port-input]').fill(String(server.port));
      await panel.locator('[data-testid=port-save]').click();
      await panel.locator('[data-testid=connection-state][data-state=auth_failed]').waitFor({ timeout: 15_000 });
      assert.equal(await pill.textContent(), 'Authentication failed');
      await panel.evaluate(() => window.scrollTo(0, 0));
      await panel.screenshot({ path: path.join(ARTIFACTS_DIR, 'side-panel-auth-failed.png') });
    } finally {
      fs.writeFileSync(authFile, good);
    }
    await panel.locator('[data-testid=connection-state][data-state=connected]').waitFor({ timeout: 15_000 });
    await waitForPluginReady(browser, PLUGIN);
    const result = await callTool(mcp, name.echo, { message: 'recovered' });
    assert.equal(result.isError, undefined, resultText(result));
  });

  test('extension.reload (POST /extension/reload) restarts the connection, which comes back', async () => {
    const before = (await extensionSession(browser, ['connection'])).connection;
    const res = await fetch(`http://127.0.0.1:${server.port}/extension/reload`, {
      method: 'POST', headers: { Authorization: `Bearer ${readSecret(configDir)}` },
    });
    assert.equal(res.status, 200, await res.text());
    await waitFor(async () => {
      const { connection } = await extensionSession(browser, ['connection']);
      return connection?.state === 'connected' && connection.since > before.since;
    }, 'a new connection after extension.reload', 20_000);
    await waitForPluginReady(browser, PLUGIN);
    const result = await callTool(mcp, name.echo, { message: 'after reload' });
    assert.equal(result.isError, undefined, resultText(result));
  });
});
