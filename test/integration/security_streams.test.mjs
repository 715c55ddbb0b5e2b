// Issue 38 "Slots": one authorised client opening 1,100 subscriptions/listen streams blocked
// /health, MCP and the extension, and after it closed them nothing connected for 28.3 s.
// Through the real binary with a small table (OPENTABS_MAX_CONNECTIONS,
// OPENTABS_CONNECTIONS_PER_CLIENT) and, for the descriptor case, a low `ulimit -n`:
//  - one caller (the bearer secret) has at most its budget of connections inside requests
//    (held streams): its next request is refused with 429; meanwhile /health, the
//    extension's /ws and another MCP client are served; once it closes its streams, the
//    server notices (a held stream reads nothing, so it looks) and its next request is served;
//  - when accept() runs out of descriptors, an idle socket that never showed the secret gives
//    its descriptor up, and a connection that ends lets the next one in at once: the accept
//    back-off (made a minute long here) is not what the next client waits for.
// Every flood here is a fixed, small number of sockets, all destroyed at the end.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { startServer } from './support/server.mjs';
import { rawSocket, readUntil } from './support/raw_socket.mjs';
import { ExtensionClient } from './support/extension_client.mjs';
import { connectSdk } from './support/mcp_client.mjs';
import { until } from './support/until.mjs';

/** An authenticated keep-alive GET /health on its own socket, answered and left open (idle). */
async function idleAuthenticated(s) {
  const sock = await rawSocket(s.port);
  const answered = readUntil(sock, /\r\n\r\n[\s\S]*\}/);
  sock.write(`GET /health HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\nAuthorization: Bearer ${s.secret}\r\n\r\n`);
  const { got, closed } = await answered;
  return { sock, status: Number(/^HTTP\/1\.1 (\d+)/.exec(got)?.[1] ?? 0), closed };
}

/** A 2026-07-28 subscriptions/listen stream on its own socket; resolves with its status line. */
async function listenStream(s, clientName, id) {
  const sock = await rawSocket(s.port);
  const body = JSON.stringify({
    jsonrpc: '2.0', id, method: 'subscriptions/listen',
    params: {
      notifications: { toolsListChanged: true },
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: clientName, version: '0' },
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  });
  const answered = readUntil(sock, /^HTTP\/1\.1 \d+[^\r]*\r\n[\s\S]*?\r\n\r\n[\s\S]+/);
  sock.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\nAuthorization: Bearer ${s.secret}\r\n` +
    'Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n' +
    `Mcp-Method: subscriptions/listen\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  const { got, closed } = await answered;
  return { sock, status: Number(/^HTTP\/1\.1 (\d+)/.exec(got)?.[1] ?? 0), closed, got };
}

/**
 * The /ws subprotocols our extension offers (util/peer_proof.hpp): a proof credential of its
 * own challenge, so the server counts it as a caller of its own, not as the bearer flood.
 */
async function proofProtocols(s, connectionId) {
  const mac = (msg) => createHmac('sha256', s.secret).update(msg).digest('hex');
  const clientNonce = randomBytes(32).toString('hex');
  const r = await fetch(`http://127.0.0.1:${s.port}/auth/challenge?clientNonce=${clientNonce}`, {
    headers: { 'X-OpenTabs-Challenge-Tag': mac(`opentabs-proof-1 challenge ${clientNonce}`) },
    signal: AbortSignal.timeout(10_000),
  });
  assert.equal(r.status, 200, await r.clone().text());
  const { serverNonce, serverProof } = await r.json();
  assert.equal(serverProof, mac(`opentabs-proof-1 server ${clientNonce} ${serverNonce}`), 'the real server answered');
  return ['opentabs', `opentabs-proof.${serverNonce}.${mac(`opentabs-proof-1 client ${clientNonce} ${serverNonce}`)}`, connectionId];
}

const extension = async (s, connectionId) =>
  new ExtensionClient(s, { connectionId, protocols: await proofProtocols(s, connectionId) }).connect();

// /health as a monitor (or a client before it proves itself) asks: without a credential.
const healthOk = async (s) => (await fetch(`http://127.0.0.1:${s.port}/health`, { signal: AbortSignal.timeout(10_000) })).status === 200;

describe('streams: a per-client connection budget', () => {
  test('one client with its budget of connections all held streams: its next requests get 429; /health, the extension and another client are served; once it leaves, its next connection is in at once', async () => {
    const MAX = 48;
    const PER_CLIENT = 12;
    const s = await startServer({
      env: { OPENTABS_MAX_CONNECTIONS: String(MAX), OPENTABS_RESERVED_CONNECTIONS: '8', OPENTABS_CONNECTIONS_PER_CLIENT: String(PER_CLIENT) },
    });
    const flood = [];
    let ext;
    try {
      // The extension is in before the flood, as in the finding; it must keep its place.
      ext = await extension(s, 'streams-ext');
      assert.ok((await ext.request('config.getState')).result);

      // Held streams: listen requests under distinct client names (the endpoint's own cap is
      // per name), until the caller's budget is all streams.
      const streams = [];
      for (let i = 0; i < PER_CLIENT; i++) {
        const l = await listenStream(s, `hog-${i}`, `hog-${i}`);
        flood.push(l.sock);
        streams.push(l.status);
      }
      assert.deepEqual(streams, Array(PER_CLIENT).fill(200), 'the budget is all held streams now');
      const over = await listenStream(s, 'hog-over', 'hog-over');
      flood.push(over.sock);
      assert.equal(over.status, 429, over.got.slice(0, 300));
      assert.match(over.got, /This client already holds 12 connections with requests in progress \(the limit is 12\)/);

      // More connections of that caller than the table holds: each is answered (429 while its
      // budget is all streams) and closed, so the table never fills.
      for (let i = 0; i < MAX + 10; i++) {
        const c = await idleAuthenticated(s);
        flood.push(c.sock);
        assert.ok(c.status === 200 || c.status === 429, `idle connection ${i}: status ${c.status}`);
      }

      // Meanwhile everyone else is served.
      assert.equal(await healthOk(s), true, '/health answers during the flood');
      assert.ok((await ext.request('config.getState')).result, 'the extension is served during the flood');
      assert.equal(ext.ws.readyState, 1, 'the extension socket is still open');
      const second = await extension(s, 'streams-ext-2');
      assert.ok((await second.request('config.getState')).result, 'a new extension connection gets in');
      await second.close();

      // The flood goes away; the next client of the same caller is in at once.
      for (const sock of flood.splice(0)) sock.destroy();
      const after = await idleAuthenticated(s);
      flood.push(after.sock);
      assert.equal(after.status, 200);
      const { client } = await connectSdk(s);
      assert.ok((await client.listTools()).tools.length > 0, 'an MCP client works after the flood');
      await client.close();
    } finally {
      for (const sock of flood) sock.destroy();
      await ext?.close();
      await s.stop();
    }
  });
});

describe('streams: no accept pause after descriptors come back', () => {
  test('under a low descriptor limit, sockets without the secret give way to /health, and a closed flood lets the next client in at once', async () => {
    // A minute-long accept back-off: a server that waits for its timer after running out
    // of descriptors makes the requests below time out; one that retries when a socket
    // without the secret can be closed, or when a connection ends, answers them at once.
    const s = await startServer({ fileLimit: 64, env: { OPENTABS_ACCEPT_BACKOFF_MS: '60000' } });
    const idle = [];
    try {
      for (let i = 0; i < 100; i++) {
        const sock = await rawSocket(s.port);
        idle.push(sock);
      }
      assert.equal(await healthOk(s), true, '/health answers while idle sockets outnumber the descriptors');
      const ext = await extension(s, 'fd-ext');
      assert.ok((await ext.request('config.getState')).result, 'the extension connects during the flood');
      // Every idle socket closed by the client: the next request is served straight away.
      for (const sock of idle.splice(0)) sock.destroy();
      await until(async () => healthOk(s), '/health after the flood', 10_000);
      assert.ok((await ext.request('config.getState')).result);
      await ext.close();
    } finally {
      for (const sock of idle) sock.destroy();
      await s.stop();
    }
  });
});

describe('streams: the listen cap after a client leaves without a word', () => {
  test('a client that closed its four subscriptions/listen streams gets a new one at once, not 429 until a keep-alive write fails', async () => {
    // The default keep-alive interval (15 s): without asking the sockets, the server would
    // count the closed streams against the client until its next keep-alive write failed.
    const s = await startServer();
    const socks = [];
    try {
      for (let i = 0; i < 4; i++) {
        const l = await listenStream(s, 'restarting-client', `listen-${i}`);
        socks.push(l.sock);
        assert.equal(l.status, 200, l.got.slice(0, 300));
      }
      const fifth = await listenStream(s, 'restarting-client', 'listen-4');
      socks.push(fifth.sock);
      assert.equal(fifth.status, 429, 'the per-client cap holds while the streams are open');
      assert.match(fifth.got, /this client has 4 subscriptions\/listen streams open \(the limit is 4\)/);

      // The client goes away (a restart) and comes back with a new stream.
      for (const sock of socks.splice(0)) sock.destroy();
      const again = await listenStream(s, 'restarting-client', 'listen-again');
      socks.push(again.sock);
      assert.equal(again.status, 200, again.got.slice(0, 300));
    } finally {
      for (const sock of socks) sock.destroy();
      await s.stop();
    }
  });
});
