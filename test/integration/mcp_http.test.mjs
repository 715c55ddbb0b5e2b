// Issue 3 at the wire level against the real binary: the Streamable HTTP status matrix
// (spec/mcp.md §3.9), bad input (-32700/-32600/-32601/-32602, oversize, calls before
// initialize) leaving the session and server working, version header rules, the
// server/discover probe, batches per negotiated version, the 5-per-minute session bucket
// and idle expiry (shortened through the OPENTABS_MCP_SESSION_IDLE_MS knob).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { startServer } from './support/server.mjs';

const ACCEPT = 'application/json, text/event-stream';

function mcp(s, path = '/mcp') {
  const post = (body, headers = {}) =>
    s.fetch(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: ACCEPT, ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  return {
    post,
    async initialize(version = '2025-11-25') {
      const r = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '0' } } });
      assert.equal(r.status, 200);
      const sid = r.headers.get('mcp-session-id');
      assert.ok(sid);
      const h = { 'Mcp-Session-Id': sid, 'MCP-Protocol-Version': version };
      assert.equal((await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, h)).status, 202);
      return { sid, h, body: await r.json() };
    },
  };
}

/** Sends raw bytes; resolves with what the server answered before closing (or 3 s). */
function raw(port, bytes) {
  return new Promise((resolve) => {
    const sock = net.connect(port, '127.0.0.1');
    let got = '';
    sock.on('data', (d) => (got += d.toString('latin1')));
    sock.on('close', () => resolve(got));
    sock.on('error', () => resolve(got));
    sock.write(bytes);
    setTimeout(() => sock.destroy(), 3000).unref();
  });
}

/** The JSON-RPC messages in an SSE body. */
function sse(text) {
  return text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6)));
}

describe('MCP wire rules on the real binary', () => {
  let s;
  before(async () => {
    s = await startServer({ env: { OPENTABS_MCP_MAX_NEW_SESSIONS_PER_MINUTE: '100' } });
  });
  after(async () => {
    await s.stop();
  });

  test('initialize negotiates 2025-06-18 and 2025-03-26 when asked, newest otherwise', async () => {
    const m = mcp(s);
    for (const v of ['2025-11-25', '2025-06-18', '2025-03-26']) assert.equal((await m.initialize(v)).body.result.protocolVersion, v);
    const r = await m.post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2099-01-01', capabilities: {}, clientInfo: { name: 'x', version: '0' } } });
    assert.equal((await r.json()).result.protocolVersion, '2025-11-25');
  });

  test('bad input gets clear errors; the session and server keep working', async () => {
    const m = mcp(s);
    const { h } = await m.initialize();
    const parse = await m.post('{"jsonrpc":', h);
    assert.equal(parse.status, 400);
    const pj = await parse.json();
    assert.equal(pj.error.code, -32700);
    assert.equal(pj.id, null);

    const shape = await m.post({ jsonrpc: '1.0', id: 3, method: 'ping' }, h);
    assert.equal(shape.status, 400);
    assert.equal((await shape.json()).error.code, -32600);

    const unknown = await m.post({ jsonrpc: '2.0', id: 4, method: 'widgets/list' }, h);
    assert.equal(unknown.status, 200);
    assert.deepEqual((await unknown.json()).error, { code: -32601, message: 'Method not found: widgets/list' });

    const params = await m.post({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 42 } }, h);
    const pe = sse(await params.text());
    assert.equal(pe[0].error.code, -32602);
    assert.match(pe[0].error.message, /params\.name must be a string/);

    const tool = await m.post({ jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'no_such_tool' } }, h);
    const te = sse(await tool.text());
    assert.equal(te[0].error.code, -32602);
    assert.match(te[0].error.message, /no_such_tool not found/);

    const level = await m.post({ jsonrpc: '2.0', id: 7, method: 'logging/setLevel', params: { level: 'verbose' } }, h);
    assert.match((await level.json()).error.message, /params\.level must be one of/);

    const before = await m.post({ jsonrpc: '2.0', id: 8, method: 'tools/list' });
    assert.equal(before.status, 400);
    assert.match((await before.json()).error.message, /initialize/);

    // Oversize: announced length beyond 10 MiB is refused before the body is read (a raw
    // socket, because fetch reports the early answer as EPIPE while still uploading).
    const big = await raw(s.port, `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\nAuthorization: Bearer ${s.secret}\r\n` +
      `Content-Type: application/json\r\nAccept: ${ACCEPT}\r\nMcp-Session-Id: ${h['Mcp-Session-Id']}\r\n` +
      `Content-Length: ${11 * 1024 * 1024}\r\n\r\n{"jsonrpc":"2.0","id":9,"method":"ping","params":{"pad":"xxxx`);
    assert.match(big, /^HTTP\/1\.1 413/);

    const ping = await m.post({ jsonrpc: '2.0', id: 10, method: 'ping' }, h);
    assert.deepEqual(await ping.json(), { jsonrpc: '2.0', id: 10, result: {} });
    assert.equal((await fetch(`${s.base}/health`)).status, 200);
  });

  test('transport status matrix: 406, 415, 400 version, 404 session, 405, GET stream, DELETE', async () => {
    const m = mcp(s);
    const { sid, h } = await m.initialize();
    assert.equal((await m.post({ jsonrpc: '2.0', id: 1, method: 'ping' }, { ...h, Accept: 'application/json' })).status, 406);
    const ctype = await s.fetch('/mcp', { method: 'POST', headers: { ...h, Accept: ACCEPT, 'Content-Type': 'text/plain' }, body: '{}' });
    assert.equal(ctype.status, 415);
    const bad = await m.post({ jsonrpc: '2.0', id: 2, method: 'ping' }, { ...h, 'MCP-Protocol-Version': '1999-01-01' });
    assert.equal(bad.status, 400);
    assert.match((await bad.json()).error.message, /1999-01-01/);
    const older = await m.post({ jsonrpc: '2.0', id: 3, method: 'ping' }, { ...h, 'MCP-Protocol-Version': '2025-03-26' });
    assert.equal(older.status, 200);
    assert.equal((await m.post({ jsonrpc: '2.0', id: 4, method: 'ping' }, { 'Mcp-Session-Id': 'nope' })).status, 404);
    const put = await s.fetch('/mcp', { method: 'PUT' });
    assert.equal(put.status, 405);
    assert.equal(put.headers.get('allow'), 'GET, POST, DELETE');

    const abort = new AbortController();
    const get = await s.fetch('/mcp', { headers: { ...h, Accept: 'text/event-stream' }, signal: abort.signal });
    assert.equal(get.status, 200);
    assert.equal(get.headers.get('content-type'), 'text/event-stream');
    // Without Mcp-Session-Id, GET and DELETE are 400 naming the header (the original: 405), a
    // deliberate difference the README's table gives the reason for.
    const noSession = await s.fetch('/mcp', { headers: { Accept: 'text/event-stream' } });
    assert.equal(noSession.status, 400);
    assert.match((await noSession.json()).error.message, /Mcp-Session-Id header is required/);
    assert.equal((await s.fetch('/mcp', { method: 'DELETE' })).status, 400);
    abort.abort();

    assert.equal((await s.fetch('/mcp', { method: 'DELETE', headers: h })).status, 200);
    assert.equal((await m.post({ jsonrpc: '2.0', id: 5, method: 'ping' }, h)).status, 404);
    assert.equal((await s.fetch('/mcp', { method: 'DELETE', headers: h })).status, 404);
    assert.ok(sid);
  });

  test('a 2026-07-28 server/discover without _meta is refused as that revision says (400, -32602; mcp_2026.test.mjs has the rest)', async () => {
    const r = await mcp(s).post({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: {} }, { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'server/discover' });
    assert.equal(r.status, 400);
    const { error } = await r.json();
    assert.equal(error.code, -32602);
    assert.match(error.message, /_meta/);
  });

  test('batches: accepted in 2025-03-26 sessions, refused in 2025-11-25 ones', async () => {
    const m = mcp(s);
    const old = await m.initialize('2025-03-26');
    const r = await m.post([{ jsonrpc: '2.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', id: 2, method: 'ping' }], old.h);
    assert.equal(r.status, 200);
    assert.deepEqual(await r.json(), [{ jsonrpc: '2.0', id: 1, result: {} }, { jsonrpc: '2.0', id: 2, result: {} }]);
    const cur = await m.initialize('2025-11-25');
    const refused = await m.post([{ jsonrpc: '2.0', id: 1, method: 'ping' }], cur.h);
    assert.equal(refused.status, 400);
    assert.equal((await refused.json()).error.code, -32600);
    const init = await m.post([{ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }]);
    assert.equal(init.status, 400);
    assert.match((await init.json()).error.message, /batch/);
  });

  test('the MCP routes require the bearer token', async () => {
    const r = await fetch(`${s.base}/mcp`, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: ACCEPT }, body: '{}' });
    assert.equal(r.status, 401);
  });
});

describe('session limits with production defaults', () => {
  let s;
  before(async () => {
    s = await startServer({ env: { OPENTABS_MCP_SESSION_IDLE_MS: '200' } });
  });
  after(async () => {
    await s.stop();
  });

  test('at most 5 new sessions a minute (429 + Retry-After); the gateway has its own bucket', async () => {
    const m = mcp(s);
    const sessions = [];
    for (let i = 0; i < 5; i++) sessions.push(await m.initialize());
    const r = await m.post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '0' } } });
    assert.equal(r.status, 429);
    assert.ok(Number(r.headers.get('retry-after')) >= 1);
    assert.match((await r.json()).error.message, /5 new MCP sessions per minute/);
    // Existing sessions are unaffected, and the gateway still admits a session.
    assert.equal((await m.post({ jsonrpc: '2.0', id: 2, method: 'ping' }, sessions[4].h)).status, 200);
    await mcp(s, '/mcp/gateway').initialize();
  });

  test('idle sessions expire (knob: 200 ms) and then get 404', async () => {
    // The bucket above is spent, so use the gateway's remaining slots.
    const g = mcp(s, '/mcp/gateway');
    const { h } = await g.initialize();
    // Deterministic: once 200 ms passed without activity the session is gone, whether its
    // coroutine already ended it or the lookup finds it expired.
    await new Promise((r) => setTimeout(r, 300));
    const status = (await g.post({ jsonrpc: '2.0', id: 1, method: 'ping' }, h)).status;
    assert.equal(status, 404);
  });
});
