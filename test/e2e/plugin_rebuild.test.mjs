// The plugin author's loop in real Chromium (issue 41): a dev-mode server (OPENTABS_DEV=1)
// watches a local plugin; its dist/adapter.iife.js is rebuilt with the same sources' hash
// (the embedded __adapterHash unchanged, only the bytes differ).  The server prints the
// original's `IIFE updated for "<plugin>"` line, sends plugin.update, and the tab runs the
// rebuilt adapter: the next call answers with what the new code returns.  Waits are on the
// server's output and on the tool's answer, never on sleeps.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  SOURCE_DIR, FIXTURE_PLUGINS, tempDir, startServer, extensionDir, readSecret, ensureServerPortFile, launchWithPlaywright,
  connectMcp, callTool, resultText, pluginToolName, waitFor, waitForPluginReady,
} from './support/harness.mjs';

const { startFixtureSite } = await import(path.join(SOURCE_DIR, 'test/fixtures/site/server.mjs'));
const PLUGIN = 'fixture-notes';
const ECHO_RESULT = 'return { ok: true, message: Array(times).fill(reply.body.message).join(" ") };';
const REBUILT_RESULT = 'return { ok: true, message: Array(times).fill(reply.body.message).join(" "), rebuilt: true };';

describe('a rebuilt adapter reaches the tab', () => {
  let configDir; let pluginDir; let site; let server; let browser; let mcp; let echo;

  before(async () => {
    configDir = tempDir('ot-e2e-rebuild-config-');
    pluginDir = path.join(tempDir('ot-e2e-rebuild-plugin-'), 'notes');
    fs.cpSync(path.join(FIXTURE_PLUGINS, 'notes'), pluginDir, { recursive: true });
    const version = JSON.parse(fs.readFileSync(path.join(pluginDir, 'package.json'), 'utf8')).version;
    fs.mkdirSync(configDir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(configDir, 'config.json'), `${JSON.stringify({
      version: 3, localPlugins: [pluginDir], localPluginDirs: [], additionalAllowedDirectories: [path.dirname(pluginDir)],
      permissions: { [PLUGIN]: { permission: 'auto', reviewedVersion: version } }, updateCheckIntervalMinutes: 0,
    }, null, 2)}\n`, { mode: 0o600 });
    site = await startFixtureSite({ port: 0, name: 'e2e-rebuild-site' });
    server = await startServer(configDir, { env: { OPENTABS_DEV: '1', OPENTABS_MTIME_POLL_MS: '100' } });
    ensureServerPortFile(configDir, server.port);
    browser = await launchWithPlaywright(extensionDir(configDir));
    const page = await browser.context.newPage();
    await page.goto(`http://localhost:${site.port}/`);
    await waitForPluginReady(browser, PLUGIN);
    mcp = await connectMcp(server.port, readSecret(configDir));
    echo = await pluginToolName(mcp, PLUGIN, 'echo');
  });

  after(async () => {
    await mcp?.close().catch(() => {});
    await browser?.close().catch(() => {});
    await server?.stop();
    await site?.close();
    if (configDir) fs.rmSync(configDir, { recursive: true, force: true });
    if (pluginDir) fs.rmSync(path.dirname(pluginDir), { recursive: true, force: true });
  });

  test('only dist/adapter.iife.js changes, its __adapterHash does not: IIFE updated, and the tab runs the new code', async () => {
    const before = JSON.parse(resultText(await callTool(mcp, echo, { message: 'before' })));
    assert.deepEqual(before, { ok: true, message: 'before' });

    const iife = path.join(pluginDir, 'dist', 'adapter.iife.js');
    const source = fs.readFileSync(iife, 'utf8');
    assert.ok(source.includes(ECHO_RESULT), 'the fixture adapter still has the line this test rewrites');
    const hash = /__adapterHash="([0-9a-f]{64})"/.exec(source)[1];
    const rebuilt = source.replace(ECHO_RESULT, REBUILT_RESULT);
    assert.equal(/__adapterHash="([0-9a-f]{64})"/.exec(rebuilt)[1], hash);
    fs.writeFileSync(`${iife}.tmp`, rebuilt);
    fs.renameSync(`${iife}.tmp`, iife);

    await waitFor(() => server.output().includes(`File watcher: IIFE updated for "${PLUGIN}" — sending plugin.update`), 'the IIFE updated line');
    // The extension re-injects on plugin.update; the first call after that runs the new code.
    const after = await waitFor(async () => {
      const r = JSON.parse(resultText(await callTool(mcp, echo, { message: 'after' })));
      return r.rebuilt ? r : undefined;
    }, 'the tab to run the rebuilt adapter');
    assert.deepEqual(after, { ok: true, message: 'after', rebuilt: true });
  });
});
