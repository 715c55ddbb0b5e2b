// The stdio bridge (`opentabs start --stdio`) driven by the official MCP SDK's
// StdioClientTransport: list and call tools through a live server with a WebSocket client
// playing the extension, receive a progress notification, auto-start a server from cold,
// survive a server restart mid-session; and the raw stdio contract (stdout is protocol
// only, a parse error answers with id null, EOF ends the bridge with exit 0 and a DELETE).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { startServer, OPENTABS_BIN, freePort } from './support/server.mjs';
import { ExtensionClient } from './support/extension_client.mjs';

const browserAuto = { permissions: { browser: { permission: 'auto' } } };

/** An MCP client that spawns `opentabs start --stdio --port <port>` the way Claude Code does. */
async function connectBridge(configDir, port, extraEnv = {}) {
  const transport = new StdioClientTransport({
    command: OPENTABS_BIN,
    args: ['start', '--stdio', '--port', String(port)],
    // StdioClientTransport passes only HOME, PATH, ... from the parent: say everything else.
    env: { HOME: process.env.HOME, PATH: process.env.PATH, OPENTABS_CONFIG_DIR: configDir, OPENTABS_SKIP_NPM_DISCOVERY: '1', ...extraEnv },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d) => (stderr += d));
  const client = new Client({ name: 'bridge-test', version: '1.0.0' });
  const errors = [];
  client.onerror = (e) => errors.push(e);
  await client.connect(transport);
  return { client, transport, errors, stderr: () => stderr };
}

describe('stdio bridge', () => {
  test('lists and calls tools through a running server, with a progress notification', { timeout: 60_000 }, async () => {
    const s = await startServer({ config: browserAuto });
    const ext = await new ExtensionClient(s, { connectionId: 'bridge-ext' }).connect();
    ext.on('browser.listTabs', () => [{ id: 3, title: 'Bridged', url: 'https://example.com/', active: true, windowId: 1 }]);
    ext.on('browser.getTabInfo', async (params) => {
      ext.notify('tool.progress', { dispatchId: params.__opentabs_dispatchId, progress: 1, total: 2, message: 'half way' });
      await new Promise((r) => setTimeout(r, 50));
      return { id: params.tabId, title: 'Progressing' };
    });
    let b;
    try {
      b = await connectBridge(s.configDir, s.port);
      assert.equal(b.client.getServerVersion().name, 'opentabs');
      const { tools } = await b.client.listTools();
      assert.ok(tools.some((t) => t.name === 'browser_list_tabs'));
      const r = await b.client.callTool({ name: 'browser_list_tabs', arguments: {} });
      assert.equal(r.isError, undefined);
      assert.equal(JSON.parse(r.content[0].text)[0].title, 'Bridged');
      const progress = [];
      const info = await b.client.callTool({ name: 'browser_get_tab_info', arguments: { tabId: 3 } }, undefined, {
        onprogress: (p) => progress.push(p),
      });
      assert.equal(JSON.parse(info.content[0].text).title, 'Progressing');
      assert.deepEqual(progress, [{ progress: 1, total: 2, message: 'half way' }]);
      // Several requests in flight at once all get their own answers.
      const many = await Promise.all([1, 2, 3, 4].map(() => b.client.listTools()));
      assert.ok(many.every((m) => m.tools.length === tools.length));
      assert.deepEqual(b.errors, [], 'stdout carried something that is not a JSON-RPC message');
      const log = readFileSync(join(s.configDir, 'logs', 'stdio-bridge.log'), 'utf8');
      assert.match(log, /^\[stdio-bridge\] \d{4}-\d\d-\d\dT[\d:.]+Z bridge started/m);
      assert.ok(!log.includes(s.secret));
    } finally {
      await b?.client.close();
      await ext.close();
      await s.stop();
    }
  });

  test('server notifications on the GET stream reach the client (tools/list_changed)', { timeout: 60_000 }, async () => {
    const s = await startServer({ config: browserAuto });
    let b;
    try {
      b = await connectBridge(s.configDir, s.port);
      const changed = new Promise((resolve) =>
        b.client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve(true)),
      );
      await b.client.listTools();
      // Wait until the bridge's event stream is open before causing the notification.
      const deadline = Date.now() + 10_000;
      while (!readFileSync(join(s.configDir, 'logs', 'stdio-bridge.log'), 'utf8').includes('event stream open') && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      const reload = await s.fetch('/reload', { method: 'POST' });
      assert.equal(reload.status, 200);
      assert.equal(await changed, true);
    } finally {
      await b?.client.close();
      await s.stop();
    }
  });

  test('auto-start from cold: no server running, the bridge starts one and lists tools', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opentabs-cold-'));
    const port = await freePort();
    let b;
    let pid;
    try {
      b = await connectBridge(dir, port);
      const { tools } = await b.client.listTools();
      assert.ok(tools.length >= 76);
      const rec = JSON.parse(readFileSync(join(dir, 'server.pid'), 'utf8'));
      pid = rec.pid;
      assert.equal(rec.port, port);
      assert.match(readFileSync(join(dir, 'logs', 'stdio-bridge.log'), 'utf8'), /starting one: opentabs start --background --port/);
    } finally {
      await b?.client.close();
    }
    // The server outlives the bridge (other clients may use it); stop it like a person would.
    const stop = await new Promise((resolve) => {
      const c = spawn(OPENTABS_BIN, ['stop'], { env: { PATH: process.env.PATH, OPENTABS_CONFIG_DIR: dir } });
      c.on('exit', resolve);
    });
    assert.equal(stop, 0);
    assert.ok(!existsSync(join(dir, 'server.pid')));
    assert.ok(pid > 0);
    rmSync(dir, { recursive: true, force: true });
  });

  test('a server restart mid-session is invisible to the client', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opentabs-restart-'));
    const port = await freePort();
    let s = await startServer({ configDir: dir, port, config: browserAuto });
    let b;
    try {
      b = await connectBridge(dir, port, { OPENTABS_BRIDGE_RETRY_MS: '100' });
      const first = await b.client.listTools();
      await s.stop({ keepConfig: true });
      s = await startServer({ configDir: dir, port });
      const ext = await new ExtensionClient(s, { connectionId: 'after-restart' }).connect();
      ext.on('browser.listTabs', () => [{ id: 9, title: 'After', url: 'https://example.com/', active: true, windowId: 1 }]);
      const again = await b.client.listTools();
      assert.equal(again.tools.length, first.tools.length);
      const r = await b.client.callTool({ name: 'browser_list_tabs', arguments: {} });
      assert.equal(JSON.parse(r.content[0].text)[0].title, 'After');
      assert.match(readFileSync(join(dir, 'logs', 'stdio-bridge.log'), 'utf8'), /re-initialized/);
      await ext.close();
    } finally {
      await b?.client.close();
      await s.stop({ keepConfig: true });
    }
    rmSync(dir, { recursive: true, force: true });
  });
});

/**
 * The bridge spawned by hand against server `s`, its stdout collected: lines(n) waits (up to
 * `waitMs`) for n lines and returns them parsed; output() parses what came so far.
 */
function rawBridge(s, waitMs) {
  const child = spawn(OPENTABS_BIN, ['start', '--stdio', '--port', String(s.port)], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, OPENTABS_CONFIG_DIR: s.configDir },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const exited = new Promise((r) => child.on('exit', (code) => r(code)));
  const output = () => out.split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const lines = async (n) => {
    const deadline = Date.now() + waitMs;
    while (out.split('\n').filter(Boolean).length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    return output();
  };
  return { child, exited, lines, output };
}

describe('stdio bridge, raw stdio', () => {
  test('parse errors answer with id null, stdout is protocol only, EOF exits 0 and deletes the session', { timeout: 60_000 }, async () => {
    const s = await startServer();
    const { child, exited, lines, output } = rawBridge(s, 10_000);
    child.stdin.write('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}\n');
    let msgs = await lines(1);
    assert.equal(msgs[0].id, 1);
    assert.equal(msgs[0].result.serverInfo.name, 'opentabs');
    child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\r\n');
    child.stdin.write('{not json\n');
    msgs = await lines(2);
    assert.equal(msgs[1].id, null);
    assert.equal(msgs[1].error.code, -32700);
    child.stdin.write('{"jsonrpc":"2.0","id":"t","method":"tools/list"}');
    child.stdin.end(); // the last line has no newline: still a message
    assert.equal(await exited, 0);
    msgs = output();
    assert.equal(msgs.length, 3);
    assert.equal(msgs[2].id, 't');
    assert.ok(msgs[2].result.tools.length >= 76);
    assert.match(readFileSync(join(s.configDir, 'logs', 'stdio-bridge.log'), 'utf8'), /session closed \(HTTP 200\)/);
    await s.stop();
  });
});

describe('stdio bridge, many requests at once', () => {
  test('40 requests in one write: 40 answers, one line each, every id once', { timeout: 60_000 }, async () => {
    // Answers that arrive together leave in one stdout write; each must still be its own line.
    const s = await startServer();
    const { child, exited, lines } = rawBridge(s, 20_000);
    child.stdin.write('{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}\n');
    assert.equal((await lines(1))[0].id, 0);
    let burst = '{"jsonrpc":"2.0","method":"notifications/initialized"}\n';
    for (let i = 1; i <= 40; i++) burst += JSON.stringify({ jsonrpc: '2.0', id: i % 2 ? i : `s${i}`, method: i % 4 ? 'ping' : 'tools/list' }) + '\n';
    child.stdin.write(burst);
    const msgs = await lines(41);
    assert.equal(msgs.length, 41);
    const ids = msgs.slice(1).map((m) => m.id);
    assert.deepEqual([...ids].sort(), Array.from({ length: 40 }, (_, k) => (k + 1) % 2 ? k + 1 : `s${k + 1}`).sort());
    for (const m of msgs.slice(1)) {
      assert.equal(m.jsonrpc, '2.0');
      if (m.result.tools) assert.ok(m.result.tools.length >= 76);
      else assert.deepEqual(m.result, {});
    }
    child.stdin.end();
    assert.equal(await exited, 0);
    await s.stop();
  });
});

describe('stdio bridge, wrong secret', () => {
  test('a secret the server rejects is answered with an error naming the file', { timeout: 60_000 }, async () => {
    const s = await startServer();
    const other = mkdtempSync(join(tmpdir(), 'opentabs-badsecret-'));
    try {
      const { mkdirSync, writeFileSync } = await import('node:fs');
      mkdirSync(join(other, 'extension'), { recursive: true });
      writeFileSync(join(other, 'extension', 'auth.json'), JSON.stringify({ secret: 'b'.repeat(64) }) + '\n', { mode: 0o600 });
      const child = spawn(OPENTABS_BIN, ['start', '--stdio', '--port', String(s.port)], {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, OPENTABS_CONFIG_DIR: other },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      const exited = new Promise((r) => child.on('exit', (code) => r(code)));
      // initialize is answered by the bridge itself (bridge/local_answers); the first request
      // that needs the server carries the error.
      child.stdin.end('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}\n' +
        '{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}\n');
      assert.equal(await exited, 0);
      const [init, msg] = out.trim().split('\n').map((l) => JSON.parse(l));
      assert.equal(init.id, 1);
      assert.ok(init.result);
      assert.equal(msg.id, 2);
      assert.equal(msg.error.code, -32603);
      // With mutual authentication the bridge checks the server first: a server that cannot
      // prove the bridge's secret gets nothing, and the error says which secret did not match.
      assert.match(msg.error.message, /could not prove it knows the secret in auth\.json/);
      assert.ok(!out.includes('b'.repeat(64)));
    } finally {
      rmSync(other, { recursive: true, force: true });
      await s.stop();
    }
  });
});
