// Issue 2: the HTTP surface of the real binary — Host/Origin/bearer checks, /health,
// /ws-info, 404s, body limits, malformed requests over a raw socket, rate limits, audit
// persistence across a restart and graceful shutdown.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, UNDER_WINE } from './support/server.mjs';
import { ExtensionClient } from './support/extension_client.mjs';

// Sends raw bytes and returns everything the server answers until it closes (or 3 s).
function raw(port, bytes) {
  return new Promise((resolve) => {
    const sock = net.connect(port, '127.0.0.1');
    let got = Buffer.alloc(0);
    sock.on('data', (d) => (got = Buffer.concat([got, d])));
    sock.on('close', () => resolve(got.toString('latin1')));
    sock.on('error', () => resolve(got.toString('latin1')));
    sock.write(bytes);
    setTimeout(() => sock.destroy(), 3000).unref();
  });
}

describe('HTTP surface', () => {
  let s;
  before(async () => {
    s = await startServer({ env: { OPENTABS_HTTP_HEAD_TIMEOUT_MS: '300' } });
  });
  after(async () => {
    await s.stop();
  });

  test('/health: minimal without a token, full with it, version header always', async () => {
    const anon = await fetch(`${s.base}/health`);
    assert.equal(anon.status, 200);
    assert.ok(anon.headers.get('x-opentabs-version'));
    assert.deepEqual(await anon.json(), { status: 'ok' });
    const full = await (await s.fetch('/health')).json();
    for (const k of ['version', 'sdkVersion', 'mode', 'extensionConnected', 'extensionConnections', 'mcpClients', 'plugins',
      'pluginDetails', 'failedPlugins', 'toolCount', 'browserToolCount', 'pluginToolCount', 'browserToolNames',
      'disabledBrowserTools', 'skipPermissions', 'uptime', 'reloadCount', 'auditSummary', 'discoveryErrors'])
      assert.ok(k in full, `missing ${k}`);
    assert.equal(full.extensionConnected, false);
  });

  test('a wrong or missing bearer token gets 401 with WWW-Authenticate, and never echoes the secret', async () => {
    const r = await fetch(`${s.base}/tools`);
    assert.equal(r.status, 401);
    assert.equal(r.headers.get('www-authenticate'), 'Bearer');
    const r2 = await fetch(`${s.base}/audit`, { headers: { Authorization: 'Bearer ' + '0'.repeat(64) } });
    assert.equal(r2.status, 401);
    assert.ok(!(await r2.text()).includes(s.secret));
  });

  test('Host and Origin rules (DNS rebinding and browser pages)', async () => {
    const evilHost = await raw(s.port, 'GET /health HTTP/1.1\r\nHost: evil.example.com\r\nConnection: close\r\n\r\n');
    assert.match(evilHost, /^HTTP\/1\.1 403/);
    assert.match(evilHost, /invalid Host header/);
    const page = await fetch(`${s.base}/health`, { headers: { Origin: 'http://evil.example.com' } });
    assert.equal(page.status, 403);
    const ext = await fetch(`${s.base}/health`, { headers: { Origin: 'chrome-extension://abcdefgh' } });
    assert.equal(ext.status, 200);
  });

  test('/ws-info, /tools, unknown routes and OAuth probes', async () => {
    assert.deepEqual(await (await s.fetch('/ws-info')).json(), { wsUrl: `ws://127.0.0.1:${s.port}/ws` });
    const tools = await (await s.fetch('/tools?plugin=browser')).json();
    assert.ok(tools.length >= 76);
    assert.ok(tools.every((t) => t.plugin === 'browser' && t.description.startsWith('[Disabled] ')));
    assert.equal((await s.fetch('/nope')).status, 404);
    const wk = await fetch(`${s.base}/.well-known/oauth-authorization-server`);
    assert.equal(wk.status, 404);
    assert.match((await wk.json()).error_description, /OAuth/);
    assert.equal((await s.fetch('/tools', { method: 'DELETE' })).status, 405);
  });

  test('bad bodies: oversize → 413, chunked → 411, garbage → 400, invalid JSON tool call → 400', async () => {
    const big = await raw(s.port, `POST /tools/x/call HTTP/1.1\r\nHost: localhost\r\nContent-Length: ${11 * 1024 * 1024}\r\n\r\n`);
    assert.match(big, /^HTTP\/1\.1 413/);
    const chunked = await raw(s.port, 'POST /reload HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n');
    assert.match(chunked, /^HTTP\/1\.1 411/);
    const garbage = await raw(s.port, 'HELLO\r\n\r\n');
    assert.match(garbage, /^HTTP\/1\.1 400/);
    const bad = await s.fetch('/tools/browser_list_tabs/call', { method: 'POST', body: '{"arguments":' });
    assert.equal(bad.status, 400);
    assert.match((await bad.json()).content[0].text, /Invalid JSON body/);
    // Still serving.
    assert.equal((await fetch(`${s.base}/health`)).status, 200);
  });

  test('a client that stalls mid-request is dropped at its deadline', async () => {
    const got = await raw(s.port, 'GET /health HTTP/1.1\r\nHost: loc');
    assert.equal(got, '');
  });

  test('keep-alive: several requests on one connection', async () => {
    const got = await raw(s.port,
      'GET /health HTTP/1.1\r\nHost: localhost\r\n\r\nGET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    assert.equal(got.match(/HTTP\/1\.1 200/g).length, 2);
  });

  test('/extension/reload: 503 without an extension, then rate-limited at 10 a minute', async () => {
    const r = await s.fetch('/extension/reload', { method: 'POST' });
    assert.equal(r.status, 503);
    let limited;
    for (let i = 0; i < 12; i++) {
      limited = await s.fetch('/extension/reload', { method: 'POST' });
      if (limited.status === 429) break;
    }
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get('retry-after'), '60');
  });

  test('/reload answers with the plugin count; concurrent reloads are coalesced', async () => {
    const before = (await (await s.fetch('/health')).json()).reloadCount;
    const rs = await Promise.all([1, 2, 3].map(() => s.fetch('/reload', { method: 'POST' }).then((r) => r.json())));
    for (const r of rs) assert.equal(r.ok, true);
    const after = (await (await s.fetch('/health')).json()).reloadCount;
    assert.equal(after - before, 1);
  });
});

describe('persistence and shutdown', () => {
  // Windows has no SIGTERM: Wine ends a Windows program it receives at once, with no handler run.
  const noSigterm = UNDER_WINE && 'Wine ends a Windows program on SIGTERM at once (Windows has no such signal)';
  test('audit entries survive a restart; SIGTERM fails pending calls, closes 1001 and exits 0', { skip: noSigterm }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opentabs-persist-'));
    const config = { permissions: { browser: { permission: 'auto' } } };
    let s = await startServer({ configDir: dir, config });
    let ext = await new ExtensionClient(s).connect();
    ext.on('browser.listTabs', () => []);
    assert.equal((await s.callTool('browser_list_tabs')).status, 200);
    await ext.close();
    await s.stop({ keepConfig: true });

    s = await startServer({ configDir: dir });
    const audit = await (await s.fetch('/audit')).json();
    assert.ok(audit.some((e) => e.tool === 'browser_list_tabs' && e.success));

    ext = await new ExtensionClient(s).connect();
    ext.on('browser.focusTab', () => undefined);
    const pending = s.callTool('browser_focus_tab', { tabId: 1 });
    await ext.waitFor((m) => m.method === 'browser.focusTab');
    s.child.kill('SIGTERM');
    const r = await pending;
    assert.match(r.body.content[0].text, /Server shutting down/);
    const closed = await ext.closed;
    assert.equal(closed.code, 1001);
    const exit = await s.exited;
    assert.equal(exit.code, 0);
  });
});
