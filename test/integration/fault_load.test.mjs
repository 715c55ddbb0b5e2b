// Issue 9, load and hostile-input faults against the real binary (loopback only, bounded in
// count and time): 500 concurrent MCP sessions each with a tools/call in flight at once;
// 10 MiB payloads in both directions (agent → server → extension and back); slowloris
// clients that trickle a request head or body; invalid UTF-8 and deeply nested JSON on every
// entry point (REST, /mcp, /ws).  After each, the server must still answer normally.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from './support/server.mjs';
import { ExtensionClient } from './support/extension_client.mjs';
import { writePlugin } from '../../bench/plugins.mjs';

const ACCEPT = 'application/json, text/event-stream';
const SESSIONS = 500;

/** The JSON-RPC messages of a Streamable HTTP answer (SSE or plain JSON). */
async function rpcMessages(res) {
  const text = await res.text();
  if ((res.headers.get('content-type') ?? '').startsWith('text/event-stream'))
    return text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6)));
  return [JSON.parse(text)];
}

/** Raw HTTP exchange on a fresh socket; resolves with everything the server sent before closing. */
function rawExchange(port, bytes) {
  return new Promise((resolveExchange, reject) => {
    const sock = net.connect(port, '127.0.0.1');
    const chunks = [];
    sock.on('data', (d) => chunks.push(d));
    sock.on('error', (e) => (chunks.length ? null : reject(e))); // a reset after the answer is fine
    sock.on('close', () => resolveExchange(Buffer.concat(chunks).toString('latin1')));
    sock.on('connect', () => sock.end(bytes));
  });
}

// The server admits at most 25 concurrent dispatches per plugin (tool_pipeline.cpp), so the
// 500 in-flight calls are spread over 25 generated plugins, 20 calls each.
const PLUGINS = 25;
const pluginName = (i) => `fault-blob${String(i).padStart(2, '0')}`;

// Generated plugins whose one tool takes an unbounded string (the fixture plugins cap theirs
// at 1000 characters), so multi-MiB arguments pass validation.
let pluginRoot;
function faultConfig() {
  pluginRoot = mkdtempSync(join(tmpdir(), 'opentabs-fault-plugin-'));
  const config = { localPlugins: [], additionalAllowedDirectories: [pluginRoot], permissions: {} };
  for (let i = 0; i < PLUGINS; i++) {
    const dir = join(pluginRoot, pluginName(i));
    writePlugin(dir, {
      name: pluginName(i),
      tools: [{ name: 'echo', input_schema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'], additionalProperties: false } }],
    });
    config.localPlugins.push(dir);
    config.permissions[pluginName(i)] = { permission: 'auto' };
  }
  return config;
}

describe('load and hostile input', () => {
  let s;
  let ext;
  before(async () => {
    s = await startServer({
      config: faultConfig(),
      env: {
        OPENTABS_MCP_MAX_NEW_SESSIONS_PER_MINUTE: String(SESSIONS + 50),
        // Long on purpose: a lost call must show up as a test timeout, not a quick error.
        OPENTABS_DISPATCH_TIMEOUT_MS: '60000',
      },
    });
    ext = await new ExtensionClient(s, { connectionId: 'fault-load' }).connect();
    await ext.waitFor((m) => m.method === 'sync.full');
  });
  after(async () => {
    await ext.close();
    const { code } = await s.stop();
    rmSync(pluginRoot, { recursive: true, force: true });
    assert.equal(code, 0, 'graceful exit after the fault suite');
  });

  test(`${SESSIONS} concurrent MCP sessions, every one with a tools/call in flight at the same time`, { timeout: 90_000 }, async () => {
    // The extension holds every dispatch until all of them have arrived, so all calls are
    // provably in flight together, then answers each with the session that sent it.
    const held = [];
    let releaseAll;
    const allArrived = new Promise((r) => (releaseAll = r));
    ext.on('tool.dispatch', (p) =>
      new Promise((answer) => {
        held.push(() => answer({ output: { echoed: p.input.message } }));
        if (held.length === SESSIONS) releaseAll();
      }),
    );
    const post = (body, headers = {}) =>
      s.fetch('/mcp', { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: ACCEPT, ...headers }, body: JSON.stringify(body) });
    const sessions = await Promise.all(
      Array.from({ length: SESSIONS }, async (_, i) => {
        const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: `load-${i}`, version: '0' } } });
        assert.equal(init.status, 200, `session ${i}: ${await init.clone().text()}`);
        await init.text();
        const h = { 'Mcp-Session-Id': init.headers.get('mcp-session-id'), 'MCP-Protocol-Version': '2025-11-25' };
        assert.equal((await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, h)).status, 202);
        return h;
      }),
    );
    assert.equal(new Set(sessions.map((h) => h['Mcp-Session-Id'])).size, SESSIONS, 'distinct session ids');
    const calls = sessions.map((h, i) =>
      post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: `${pluginName(i % PLUGINS)}_echo`, arguments: { message: `m${i}` } } }, h).then(rpcMessages),
    );
    await allArrived;
    const health = await (await s.fetch('/health')).json();
    assert.ok(health.mcpClients >= SESSIONS, `health counts ${health.mcpClients} MCP clients`);
    for (const answer of held) answer();
    const results = await Promise.all(calls);
    results.forEach((msgs, i) => {
      const final = msgs.at(-1);
      assert.equal(final.id, 2);
      assert.equal(final.result?.isError ?? false, false, JSON.stringify(final));
      assert.deepEqual(JSON.parse(final.result.content[0].text), { echoed: `m${i}` }, `session ${i} got its own answer`);
    });
    await Promise.all(sessions.map((h) => s.fetch('/mcp', { method: 'DELETE', headers: h }).then((r) => r.text())));
  });

  test('10 MiB payloads both ways: a ~10 MiB argument reaches the extension and a 10 MiB result comes back', { timeout: 60_000 }, async () => {
    const tenMiB = 10 * 1024 * 1024;
    // The request body limit is 10 MiB including the envelope; fill it to the last bytes.
    const envelope = JSON.stringify({ arguments: { message: '' } }).length;
    const argument = 'a'.repeat(tenMiB - envelope);
    let seenLength = -1;
    // The extension's reply must fit the 10 MiB message limit of /ws with its JSON-RPC
    // envelope (a bigger reply is dropped unparsed, so its call waits for the dispatch
    // timeout); 1 KiB leaves room for the envelope.
    const result = 'b'.repeat(tenMiB - 1024);
    ext.on('tool.dispatch', (p) => {
      seenLength = p.input.message.length;
      return { output: result };
    });
    const r = await s.callTool('fault-blob00_echo', { message: argument });
    assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 300));
    assert.equal(seenLength, argument.length, 'the extension got the whole argument');
    assert.equal(r.body.content[0].text, JSON.stringify(result), 'the whole result came back');

    // One byte over: refused with 413 from the head alone (so over a raw socket: the server
    // answers and closes before the body is sent, which a fetch may see as EPIPE).
    const over = await rawExchange(
      s.port,
      `POST /tools/fault-blob00_echo/call HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${s.secret}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${tenMiB + 1}\r\n\r\n{"arguments":`,
    );
    assert.match(over, /^HTTP\/1\.1 413/, 'one byte over the limit is refused with 413');
    assert.equal((await fetch(`${s.base}/health`)).status, 200);
  });

  test('slowloris: trickled heads and bodies are cut off by their deadlines while others are served', { timeout: 30_000 }, async () => {
    // Its own server, so the short deadlines cannot touch the other tests' connections.
    const s = await startServer({ env: { OPENTABS_HTTP_HEAD_TIMEOUT_MS: '400', OPENTABS_HTTP_BODY_TIMEOUT_MS: '400' } });
    const CLIENTS = 40;
    const trickle = (prefix, rest) =>
      new Promise((resolveClient) => {
        const sock = net.connect(s.port, '127.0.0.1');
        let received = '';
        let i = 0;
        let timer;
        sock.on('connect', () => {
          sock.write(prefix);
          // One byte every 50 ms: each byte would reset a naive idle timer.
          timer = setInterval(() => (i < rest.length ? sock.write(rest[i++]) : null), 50);
        });
        sock.on('data', (d) => (received += d.toString('latin1')));
        sock.on('error', () => {});
        sock.on('close', () => {
          clearInterval(timer);
          resolveClient({ received, bytesSent: i });
        });
      });
    const head = 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n' + 'X-Slow: '.padEnd(4000, 'z') + '\r\n\r\n';
    // With the token: a head without it is refused at once, before any body is read
    // (security_http.test.mjs); only an admitted body is left to its deadline.
    const body = `POST /tools/fault-blob00_echo/call HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${s.secret}\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n`;
    const slow = [
      ...Array.from({ length: CLIENTS / 2 }, () => trickle('G', head.slice(1))),
      ...Array.from({ length: CLIENTS / 2 }, () => trickle(body, '{' + ' '.repeat(3999))),
    ];
    // Meanwhile ordinary requests are answered.
    for (let i = 0; i < 20; i++) assert.equal((await fetch(`${s.base}/health`)).status, 200);
    const outcomes = await Promise.all(slow);
    for (const o of outcomes) {
      assert.ok(o.bytesSent < 3900, `the server closed the trickling connection (after ${o.bytesSent} bytes)`);
      assert.ok(o.received === '' || /^HTTP\/1\.1 408/.test(o.received), `only a 408 or a bare close: ${o.received.slice(0, 80)}`);
    }
    assert.equal((await fetch(`${s.base}/health`)).status, 200);
    assert.equal((await s.stop()).code, 0);
  });

  test('invalid UTF-8 and deeply nested JSON get clear errors on REST, /mcp and /ws; the server keeps serving', { timeout: 30_000 }, async () => {
    const badUtf8 = Buffer.concat([Buffer.from('{"arguments":{"message":"'), Buffer.from([0xc3, 0x28, 0xff, 0xfe]), Buffer.from('"}}')]);
    const deep = '{"arguments":{"message":' + '['.repeat(100_000) + ']'.repeat(100_000) + '}}';
    for (const body of [badUtf8, deep]) {
      const r = await s.fetch('/tools/fault-blob00_echo/call', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
      assert.ok(r.status === 400 || r.status === 422, `REST status ${r.status}`);
      const text = await r.text();
      assert.match(text, /JSON|UTF-8|utf-8|depth|nest/i, `REST error names the problem: ${text.slice(0, 200)}`);
    }

    const init = await s.fetch('/mcp', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: ACCEPT },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'hostile', version: '0' } } }),
    });
    await init.text();
    const h = { 'Mcp-Session-Id': init.headers.get('mcp-session-id'), 'MCP-Protocol-Version': '2025-11-25', 'Content-Type': 'application/json', Accept: ACCEPT };
    const rpcBad = Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"fault-blob00_echo","arguments":{"message":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}}}')]);
    const rpcDeep = '{"jsonrpc":"2.0","id":4,"method":"ping","params":{"x":' + '{"a":'.repeat(50_000) + '1' + '}'.repeat(50_000) + '}}';
    for (const body of [rpcBad, rpcDeep]) {
      const r = await s.fetch('/mcp', { method: 'POST', headers: h, body });
      assert.equal(r.status, 400);
      const { error } = await r.json();
      assert.equal(error.code, -32700, `parse error for hostile JSON-RPC: ${JSON.stringify(error)}`);
    }
    const ping = await s.fetch('/mcp', { method: 'POST', headers: h, body: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'ping' }) });
    assert.deepEqual(await ping.json(), { jsonrpc: '2.0', id: 5, result: {} }, 'the session still works');

    // Over /ws a deeply nested message is dropped (the connection stays), invalid UTF-8 in a
    // text frame closes that connection with 1007 (RFC 6455 §8.1); a new one is accepted.
    const hostile = await new ExtensionClient(s, { connectionId: 'hostile-ws' }).connect();
    hostile.send('{"jsonrpc":"2.0","method":"plugin.log","params":' + '['.repeat(100_000) + ']'.repeat(100_000) + '}');
    const state = await hostile.request('config.getState');
    assert.ok(state.result, 'the connection still answers after a deep message');
    hostile.ws._socket.write(Buffer.from([0x81, 0x84, 1, 2, 3, 4, 0xc3 ^ 1, 0x28 ^ 2, 0xff ^ 3, 0xfe ^ 4]));
    const closed = await hostile.closed;
    assert.equal(closed.code, 1007);
    assert.equal((await fetch(`${s.base}/health`)).status, 200);
    const r = await rawExchange(s.port, 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    assert.match(r, /^HTTP\/1\.1 200/);
  });
});
