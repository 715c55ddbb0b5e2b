// Native messaging in real headless Chromium: no server is running and the extension folder
// holds no auth.json or server.json.  `opentabs native-host install --user-data-dir <profile>`
// puts the host manifest under the test profile's NativeMessagingHosts/; Chromium starts with
// that profile; the extension asks the host for the server, the host starts it, and the
// extension connects over WebSocket with the port and secret it learned.  Then an MCP client
// lists and calls a tool that a local test page registered with
// document.modelContext.registerTool, through that connection.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  SOURCE_DIR, SERVER_BIN, CHROMIUM, chromium, tempDir, writeConfig, connectMcp, waitFor, EXTENSION_ID,
} from './support/harness.mjs';
import { pageWords } from '../integration/support/page_text.mjs';
import { startWebmcpSite } from './support/webmcp_site.mjs';
import { freePort } from '../integration/support/server.mjs';

async function health(port, secret) {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/health`, secret ? { headers: { Authorization: `Bearer ${secret}` } } : {});
    return res.ok ? await res.json() : null;
  } catch {
    return null;
  }
}

describe('native messaging in headless Chromium', () => {
  let site;
  let configDir;
  let profile;
  let extDir;
  let port;
  let env;
  let context;
  let mcp;

  before(async () => {
    site = await startWebmcpSite();
    configDir = tempDir('ot-e2e-native-');
    profile = tempDir('ot-e2e-native-profile-');
    port = await freePort();
    writeConfig(configDir, { permissions: { [site.key('127.0.0.1')]: { permission: 'auto' } } });
    // The port the server must use lives in config.json, as a user would set it.
    const cfgFile = path.join(configDir, 'config.json');
    fs.writeFileSync(cfgFile, JSON.stringify({ ...JSON.parse(fs.readFileSync(cfgFile, 'utf8')), port }, null, 2));
    env = { ...process.env, OPENTABS_CONFIG_DIR: configDir, OPENTABS_SKIP_NPM_DISCOVERY: '1', OPENTABS_TELEMETRY_DISABLED: '1', NO_COLOR: '1' };
    delete env.OPENTABS_PORT;
    delete env.PORT;
    // A copy of the extension with nothing written into it: no auth.json, no server.json.
    extDir = path.join(tempDir('ot-e2e-native-ext-'), 'extension');
    fs.cpSync(path.join(SOURCE_DIR, 'extension'), extDir, { recursive: true });
    for (const f of ['auth.json', 'server.json']) fs.rmSync(path.join(extDir, f), { force: true });
  });

  after(async () => {
    await mcp?.close().catch(() => {});
    await context?.close().catch(() => {});
    spawnSync(SERVER_BIN, ['stop'], { env, encoding: 'utf8' });
    await site?.close();
    for (const d of [configDir, profile, path.dirname(extDir)]) fs.rmSync(d, { recursive: true, force: true });
  });

  test('the extension starts a stopped server through the native host and then works over WebSocket', async () => {
    const install = spawnSync(SERVER_BIN, ['native-host', 'install', '--user-data-dir', profile], { env, encoding: 'utf8' });
    assert.equal(install.status, 0, install.stderr);
    const manifestFile = path.join(profile, 'NativeMessagingHosts', 'com.opentabs.server.json');
    const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
    assert.deepEqual(manifest.allowed_origins, [`chrome-extension://${EXTENSION_ID}/`]);
    assert.equal(await health(port), null, 'no server is running yet');

    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM, headless: true,
      args: ['--disable-gpu', '--no-first-run', `--disable-extensions-except=${extDir}`, `--load-extension=${extDir}`],
    });
    let [worker] = context.serviceWorkers();
    if (!worker) worker = await context.waitForEvent('serviceworker', { timeout: 15_000 });
    assert.equal(await worker.evaluate(() => chrome.runtime.id), EXTENSION_ID);

    // The host started the server; the extension connected with the secret the host gave it.
    await waitFor(() => health(port), 'the server started by the native host', 30_000, 200);
    const secret = JSON.parse(fs.readFileSync(path.join(configDir, 'extension', 'auth.json'), 'utf8')).secret;
    const h = await waitFor(async () => { const x = await health(port, secret); return x?.extensionConnected && x; }, 'the extension connected', 30_000, 200);
    assert.equal(h.extensionConnections, 1);
    assert.ok(!fs.existsSync(path.join(extDir, 'auth.json')), 'nothing was copied into the loaded extension');
    const pidFile = path.join(configDir, 'server.pid');
    assert.ok(fs.existsSync(pidFile), 'started as `opentabs start --background` (server.pid)');

    // The done criterion: an MCP client lists and calls a page's document.modelContext tool.
    mcp = await connectMcp(port, secret);
    const page = await context.newPage();
    await page.goto(site.url('draft.html'));
    const name = `${site.prefix('127.0.0.1')}add`;
    await waitFor(async () => (await mcp.client.listTools()).tools.some((t) => t.name === name), `${name} in tools/list`, 20_000, 150);
    const r = await mcp.client.callTool({ name, arguments: { a: 19, b: 23 } });
    assert.deepEqual(JSON.parse(pageWords(r)), { sum: 42, pageId: await page.evaluate(() => window.pageId) });
  });

  test('uninstall removes the manifest from the profile', () => {
    const out = spawnSync(SERVER_BIN, ['native-host', 'uninstall', '--user-data-dir', profile], { env, encoding: 'utf8' });
    assert.equal(out.status, 0, out.stderr);
    assert.ok(!fs.existsSync(path.join(profile, 'NativeMessagingHosts', 'com.opentabs.server.json')));
    const status = spawnSync(SERVER_BIN, ['native-host', 'status', '--user-data-dir', profile, '--json'], { env, encoding: 'utf8' });
    assert.deepEqual(JSON.parse(status.stdout).locations.map((l) => l.installed), [false]);
  });
});
