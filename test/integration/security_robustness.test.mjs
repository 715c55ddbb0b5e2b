// Issue 13 items 2, 3, 10 and 11 from an attacker's side, against the real binary:
//  - an exception escaping one /ws message (forced with the OPENTABS_TEST_FAULT knob) closes
//    that connection with 1011, /health stops claiming it, and a reconnect works;
//  - a tools/call whose pipeline throws is answered with a JSON-RPC error and its SSE stream
//    ends (it used to send keep-alives forever with the id stuck in flight);
//  - a plugin.log flood cannot grow server.log past its rotation size, and newlines and
//    terminal escapes in log text can neither forge lines nor reach `opentabs logs` raw;
//  - a plugin whose name is a built-in tool prefix (webmcp) is refused with a clear error
//    while the other plugins load.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startServer, OPENTABS_BIN } from './support/server.mjs';
import { ExtensionClient } from './support/extension_client.mjs';
import { until } from './support/until.mjs';

const fixtures = resolve(new URL('../fixtures/plugins', import.meta.url).pathname);
const notes = join(fixtures, 'notes');
const ACCEPT = 'application/json, text/event-stream';

/** Resolves once cond() is true, checking every 50 ms (the test's own timeout bounds it). */
function count(haystack, needle) {
  return haystack.split(needle).length - 1;
}

/** The JSON-RPC messages in an SSE body. */
function sse(text) {
  return text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6)));
}

function cli(args, env) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(OPENTABS_BIN, args, { env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d.toString('latin1')));
    child.stderr.on('data', (d) => (stderr += d.toString('latin1')));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}

describe('item 2: an exception in the /ws message handler', () => {
  let s;
  before(async () => {
    s = await startServer({
      config: { permissions: { browser: { permission: 'auto' } } },
      env: { OPENTABS_TEST_FAULT: 'ws-handler-throw:tab.syncAll' },
    });
  });
  after(async () => {
    await s.stop();
  });

  test('closes that connection with 1011, /health stops saying connected, a reconnect and a call work', { timeout: 30_000 }, async () => {
    const victim = await new ExtensionClient(s, { connectionId: 'victim' }).connect();
    await victim.waitFor((m) => m.method === 'sync.full');
    assert.equal((await (await s.fetch('/health')).json()).extensionConnected, true);

    victim.notify('tab.syncAll', {});
    const closed = await victim.closed;
    assert.equal(closed.code, 1011, `close code ${closed.code} (${closed.reason})`);
    const health = await (await s.fetch('/health')).json();
    assert.equal(health.extensionConnected, false);
    assert.equal(health.extensionConnections, 0);

    // The same profile reconnects; calls reach it and the server keeps serving.
    const back = await new ExtensionClient(s, { connectionId: 'victim' }).connect();
    await back.waitFor((m) => m.method === 'sync.full');
    back.on('browser.listTabs', () => [{ id: 9, title: 'Back', url: 'https://example.com/', active: true, windowId: 1 }]);
    const r = await s.callTool('browser_list_tabs', {});
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(JSON.parse(r.body.content[0].text).map((t) => t.id), [9]);
    back.notify('ping');
    await back.next((m) => m.method === 'pong');
    assert.equal((await (await s.fetch('/health')).json()).extensionConnections, 1);

    // Logged once, naming the method.
    await until(() => s.stderr.includes('injected test fault ws-handler-throw:tab.syncAll'));
    assert.equal(count(s.stderr, 'injected test fault ws-handler-throw:tab.syncAll'), 1, s.stderr);
    assert.match(s.stderr, /tab\.syncAll/);
    await back.close();
  });
});

describe('item 3: a tools/call whose pipeline throws', () => {
  let s;
  before(async () => {
    s = await startServer({
      config: { permissions: { browser: { permission: 'auto' } } },
      env: { OPENTABS_TEST_FAULT: 'pipeline-throw:browser_list_tabs', OPENTABS_MCP_SSE_KEEPALIVE_MS: '50' },
    });
  });
  after(async () => {
    await s.stop();
  });

  test('is answered with a JSON-RPC internal error, the SSE stream ends and the id is free again', { timeout: 30_000 }, async () => {
    const post = (body, headers = {}) =>
      s.fetch('/mcp', { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: ACCEPT, ...headers }, body: JSON.stringify(body) });
    const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'sec', version: '0' } } });
    assert.equal(init.status, 200);
    await init.text();
    const h = { 'Mcp-Session-Id': init.headers.get('mcp-session-id'), 'MCP-Protocol-Version': '2025-11-25' };
    assert.equal((await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, h)).status, 202);

    const call = await post({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'browser_list_tabs', arguments: {} } }, h);
    assert.equal(call.status, 200);
    assert.match(call.headers.get('content-type'), /text\/event-stream/);
    const text = await call.text(); // resolves only when the server ends the stream
    const msgs = sse(text);
    assert.equal(msgs.length, 1, text);
    assert.equal(msgs[0].id, 7);
    assert.equal(msgs[0].error.code, -32603);
    assert.match(msgs[0].error.message, /failed unexpectedly/);

    // The id is no longer in flight: reusing it gets the answer for the new call.
    const again = await post({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } }, h);
    const second = sse(await again.text());
    assert.equal(second.length, 1);
    assert.equal(second[0].id, 7);
    assert.equal(second[0].error.code, -32602);
    assert.match(second[0].error.message, /not found/);
    await until(() => s.stderr.includes('tools/call failed unexpectedly: injected test fault pipeline-throw:browser_list_tabs'));
  });
});

describe('item 10: server.log under a plugin.log flood and hostile log text', () => {
  const maxBytes = 256 * 1024;
  let s;
  before(async () => {
    s = await startServer({
      config: { localPlugins: [notes], additionalAllowedDirectories: [fixtures], permissions: { 'fixture-notes': { permission: 'auto' } } },
      env: { OPENTABS_SERVER_LOG_MAX_BYTES: String(maxBytes) },
    });
  });
  after(async () => {
    await s.stop();
  });

  test('the flood is rate-limited with one summary, server.log stays under its rotation size, escapes are escaped', { timeout: 60_000 }, async () => {
    const ext = await new ExtensionClient(s, { connectionId: 'flood' }).connect();
    await ext.waitFor((m) => m.method === 'sync.full');
    const forged = 'hello\n[opentabs] 2026-01-01T00:00:00.000Z extension connected (profile Z, forged)\r\x1b[2J\x1b]0;owned\x07\u009b31m';
    ext.notify('plugin.log', { plugin: 'fixture-notes', level: 'info', message: forged, ts: 1 });
    // 3000 lines of 8 KiB: 24 MiB, far over what the file may take.
    const chunk = 'x'.repeat(8 * 1024);
    for (let i = 0; i < 3000; i++) ext.notify('plugin.log', { plugin: 'fixture-notes', level: 'info', message: `flood ${i} ${chunk}`, ts: 2 });
    // The hub handles messages in order; a pong means the flood has been handled (pings sent
    // while the connection is over its message rate are dropped, so keep asking).
    let ponged = false;
    ext.next((m) => m.method === 'pong', 60_000).then(() => (ponged = true));
    await until(() => {
      if (!ponged) ext.notify('ping');
      return ponged;
    });

    const log = join(s.configDir, 'server.log');
    const rotated = join(s.configDir, 'server.log.1');
    const both = () => (existsSync(rotated) ? readFileSync(rotated, 'latin1') : '') + readFileSync(log, 'latin1');
    assert.ok(statSync(log).size <= maxBytes, `server.log is ${statSync(log).size} bytes`);
    if (existsSync(rotated)) assert.ok(statSync(rotated).size <= maxBytes, `server.log.1 is ${statSync(rotated).size} bytes`);
    // One summary line per suppressed window says how much was left out.
    await until(() => both().includes('left out of server.log'));
    assert.ok(statSync(log).size <= maxBytes, `server.log is ${statSync(log).size} bytes`);
    const text = both();
    assert.match(text, /\[plugin:fixture-notes\] warning \d+ log line\(s\) \(\d+ bytes\) left out of server\.log: over 200 lines or 256 KiB per second/);
    const written = count(text, '] info flood ');
    assert.ok(written < 3000, `${written} flood lines reached the file`);

    // The forged entry stayed on its own line, with every control character escaped.
    const lines = text.split('\n');
    assert.ok(!lines.some((l) => l.startsWith('[opentabs] 2026-01-01T00:00:00.000Z extension connected (profile Z')), 'a forged line');
    const entry = lines.find((l) => l.startsWith('[plugin:fixture-notes] info hello'));
    assert.equal(entry, '[plugin:fixture-notes] info hello\\n[opentabs] 2026-01-01T00:00:00.000Z extension connected (profile Z, forged)\\r\\x1b[2J\\x1b]0;owned\\x07\\u009b31m');
    assert.ok(!/[\x00-\x08\x0b-\x1f\x7f]/.test(text), 'a raw control character in server.log');

    // `opentabs logs` neutralises escapes too, e.g. in lines an older version wrote raw.
    appendFileSync(log, '[plugin:old] raw \x1b[2J\x1b]0;title\x07 \xc2\x9b31m end\n', 'latin1'); // bytes as written
    const out = await cli(['logs', '--lines', '5'], { OPENTABS_CONFIG_DIR: s.configDir, OPENTABS_PORT: String(s.port) });
    assert.equal(out.code, 0, out.stderr);
    assert.ok(out.stdout.includes('[plugin:old] raw \\x1b[2J\\x1b]0;title\\x07 \\u009b31m end'), out.stdout.slice(-500));
    assert.ok(!/[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]/.test(out.stdout), 'a raw control character in `opentabs logs` output');
    await ext.close();
  });
});

describe('item 11: reserved plugin names', () => {
  let s;
  let dir;
  let webmcpPlugin;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'opentabs-reserved-'));
    webmcpPlugin = join(dir, 'webmcp');
    cpSync(notes, webmcpPlugin, { recursive: true });
    const pkg = JSON.parse(readFileSync(join(webmcpPlugin, 'package.json'), 'utf8'));
    pkg.name = 'opentabs-plugin-webmcp';
    pkg.opentabs.displayName = 'Looks like WebMCP';
    writeFileSync(join(webmcpPlugin, 'package.json'), JSON.stringify(pkg, null, 2));
    s = await startServer({
      config: {
        localPlugins: [webmcpPlugin, notes],
        additionalAllowedDirectories: [fixtures, dir],
        permissions: { 'fixture-notes': { permission: 'auto' }, webmcp: { permission: 'auto' } },
      },
    });
  });
  after(async () => {
    await s.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a plugin named webmcp is refused with a clear error in /health, sync.full and `plugin list`; others load', { timeout: 30_000 }, async () => {
    const health = await (await s.fetch('/health')).json();
    const failed = health.failedPlugins.find((f) => f.path === webmcpPlugin);
    assert.ok(failed, JSON.stringify(health.failedPlugins));
    assert.match(failed.error, /gives plugin name "webmcp", which is reserved: the server's own tools use the prefix "webmcp_"/);
    assert.deepEqual(health.pluginDetails.map((p) => p.name), ['fixture-notes']);

    const tools = await (await s.fetch('/tools')).json();
    const names = tools.map((t) => t.name);
    assert.equal(new Set(names).size, names.length, 'duplicate tool names');
    assert.ok(!names.some((n) => n.startsWith('webmcp_')), 'a plugin tool under the WebMCP prefix');
    assert.ok(names.includes('fixture-notes_echo'));

    const ext = await new ExtensionClient(s).connect();
    const sync = await ext.waitFor((m) => m.method === 'sync.full');
    assert.ok(sync.params.failedPlugins.some((f) => /"webmcp", which is reserved/.test(f.error)), JSON.stringify(sync.params.failedPlugins));
    await ext.close();

    const list = await cli(['plugin', 'list'], { OPENTABS_CONFIG_DIR: s.configDir, OPENTABS_PORT: String(s.port) });
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout + list.stderr, /fixture-notes/);
    assert.match(list.stdout + list.stderr, /webmcp.*which is reserved/);
  });
});
