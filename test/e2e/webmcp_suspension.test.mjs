// WebMCP across service-worker suspension, with a plainly launched Chromium (no CDP client
// attached, so Chrome really stops the idle worker as it would for a user).  The page's tools
// stay listed while the worker sleeps; a call wakes it, finds the tab and frame again in
// chrome.storage.session and reaches the page; closing the tab (through the DevTools HTTP
// endpoint, which attaches nothing) wakes it again and the tools vanish.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import {
  tempDir, writeConfig, startServer, extensionDir, readSecret, ensureServerPortFile, launchPlain, connectMcp,
  waitFor, EXTENSION_ID,
} from './support/harness.mjs';
import { startWebmcpSite } from './support/webmcp_site.mjs';
import { pageWords } from '../integration/support/page_text.mjs';

const WORKER_URL = `chrome-extension://${EXTENSION_ID}/src/background.js`;

async function targets(cdpUrl) {
  return (await fetch(`${cdpUrl}/json/list`)).json();
}

describe('WebMCP with a suspended service worker', () => {
  let site; let configDir; let server; let browser; let mcp;

  before(async () => {
    site = await startWebmcpSite();
    configDir = tempDir('ot-e2e-webmcp-idle-');
    writeConfig(configDir, { permissions: { [site.key('127.0.0.1')]: { permission: 'auto' } } });
    server = await startServer(configDir);
    ensureServerPortFile(configDir, server.port);
    browser = await launchPlain(extensionDir(configDir), [site.url('legacy.html')]);
    mcp = await connectMcp(server.port, readSecret(configDir));
  });

  after(async () => {
    await mcp?.close().catch(() => {});
    await browser?.close();
    await server?.stop();
    await site?.close();
    fs.rmSync(configDir, { recursive: true, force: true });
  });

  test('a call wakes the worker and reaches the page; closing the tab removes the tools', async () => {
    const name = `${site.prefix('127.0.0.1')}greet`;
    const listed = async () => (await mcp.client.listTools()).tools.some((t) => t.name === name);
    await waitFor(listed, `${name} listed`, 30_000, 200);
    const cdpUrl = await browser.cdpUrl();
    // Chrome stops an idle worker 30 s after its last event (our once-a-minute alarm may wake
    // it in between): poll until it is really gone.
    await waitFor(async () => !(await targets(cdpUrl)).some((t) => t.type === 'service_worker' && t.url === WORKER_URL),
      'Chrome to suspend the idle service worker', 150_000, 1_000);
    assert.ok(await listed(), 'the tools stay listed while the worker sleeps');

    const r = await mcp.client.callTool({ name, arguments: { who: 'sleeper' } });
    assert.equal(pageWords(r), 'hello sleeper');
    assert.ok((await targets(cdpUrl)).some((t) => t.type === 'service_worker' && t.url === WORKER_URL), 'the call woke the worker');

    const tab = (await targets(cdpUrl)).find((t) => t.type === 'page' && t.url === site.url('legacy.html'));
    assert.ok(tab, 'the page tab');
    await fetch(`${cdpUrl}/json/close/${tab.id}`);
    await waitFor(async () => !(await listed()), `${name} removed after the tab closed`, 30_000, 200);
  });
});
