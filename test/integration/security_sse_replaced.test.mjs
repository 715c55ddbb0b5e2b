// A standalone SSE stream that a newer GET replaced (issue 24, point 8) is over for good: the
// server ends it and closes its connection, so a client that still holds it sees the end
// instead of a quiet open socket.  Raw sockets, so the test sees exactly what the server does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { startServer } from './support/server.mjs';
import { until } from './support/until.mjs';

const ACCEPT = 'application/json, text/event-stream';

// A raw GET /mcp event stream; `closed` turns true when the server closes the socket.
function openStream(s, sid) {
  const sock = net.connect(s.port, '127.0.0.1');
  const state = { text: '', closed: false, sock };
  sock.on('data', (d) => { state.text += d.toString('latin1'); });
  sock.on('close', () => { state.closed = true; });
  sock.on('error', () => {});
  sock.write(`GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\nAuthorization: Bearer ${s.secret}\r\nAccept: text/event-stream\r\n` +
    `Mcp-Session-Id: ${sid}\r\nMCP-Protocol-Version: 2025-11-25\r\n\r\n`);
  return state;
}

test('a replaced standalone SSE stream is ended and its connection closed', async () => {
  const s = await startServer({ env: { OPENTABS_MCP_SSE_KEEPALIVE_MS: '60000' } });
  try {
    const post = (body, headers = {}) => s.fetch('/mcp', { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: ACCEPT, ...headers }, body: JSON.stringify(body) });
    const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } });
    const sid = init.headers.get('mcp-session-id');
    await init.text();
    await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, { 'Mcp-Session-Id': sid, 'MCP-Protocol-Version': '2025-11-25' });
    const first = openStream(s, sid);
    await until(() => first.text.startsWith('HTTP/1.1 200'), 'the first stream to open');
    const second = openStream(s, sid);
    await until(() => second.text.startsWith('HTTP/1.1 200'), 'the second stream to open');
    await until(() => first.closed, 'the replaced stream\'s connection to close');
    assert.match(first.text, /\r\n0\r\n\r\n$/, 'the replaced stream ended with the last chunk');
    assert.equal(second.closed, false, 'the newer stream stays open');
    second.sock.destroy();
  } finally {
    await s.stop();
  }
});
