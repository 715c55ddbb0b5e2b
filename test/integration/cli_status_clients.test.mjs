// `opentabs status` and /health count the MCP clients in use, not every session kept until
// its idle expiry (issue 25: status said 6 MCP clients with none active).  Sessions whose
// client went away without DELETE are named idle; a session holding its standalone stream
// open is in use whenever it last sent a request; a 2026-07-28 client, which has no
// session, counts while it sends requests.  The activity window is shortened through the
// OPENTABS_MCP_CLIENT_ACTIVE_MS knob.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './support/server.mjs';
import { cli } from './support/cli.mjs';
import { until } from './support/until.mjs';

const ACCEPT = 'application/json, text/event-stream';

async function legacySession(s, path = '/mcp') {
  const init = await s.fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: ACCEPT },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'gone-client', version: '0' } } }),
  });
  assert.equal(init.status, 200);
  await init.text();
  return init.headers.get('mcp-session-id');
}

function modernDiscover(s, name) {
  return s.fetch('/mcp', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: ACCEPT, 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'server/discover' },
    body: JSON.stringify({
      jsonrpc: '2.0', id: 1, method: 'server/discover',
      params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name, version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} } },
    }),
  });
}

describe('status counts MCP clients in use', () => {
  let s;
  let env;
  before(async () => {
    s = await startServer({ env: { OPENTABS_MCP_CLIENT_ACTIVE_MS: '1000', OPENTABS_MCP_MAX_NEW_SESSIONS_PER_MINUTE: '100' } });
    env = { OPENTABS_CONFIG_DIR: s.configDir, OPENTABS_PORT: String(s.port) };
  });
  after(async () => {
    await s?.stop();
  });

  const health = async () => JSON.parse((await cli(['status', '--json'], env)).stdout);

  test('sessions left behind are idle; a listening session and a 2026-07-28 client are in use', async () => {
    for (let i = 0; i < 4; i++) await legacySession(s);
    await legacySession(s, '/mcp/gateway');
    // Clients that initialized and went away: once the window passes, none is in use.
    await until(async () => (await health()).mcpSessionsIdle === 5, 'the five abandoned sessions idle');
    let h = await health();
    assert.equal(h.mcpClients, 4, 'mcpClients keeps the original meaning: sessions of /mcp');
    assert.equal(h.mcpClientsActive, 0);
    const bare = await cli(['status'], env);
    assert.match(bare.stdout, /MCP clients: 0 active, 5 idle session\(s\)/);

    // A client that listens on its standalone stream is in use however long it is quiet:
    // a twin session that initialized after it goes idle, the listening one does not.
    const id = await legacySession(s);
    const stream = await s.fetch('/mcp', { method: 'GET', headers: { Accept: 'text/event-stream', 'Mcp-Session-Id': id, 'MCP-Protocol-Version': '2025-11-25' } });
    assert.equal(stream.status, 200);
    try {
      await legacySession(s);
      await until(async () => (await health()).mcpSessionsIdle === 6, 'the twin session idle');
      h = await health();
      assert.equal(h.mcpClientsActive, 1, 'the listening session is in use');
      // A 2026-07-28 client counts while it sends requests (retried: the window is short).
      await until(async () => {
        assert.equal((await modernDiscover(s, 'claude-code')).status, 200);
        return (await health()).mcpClientsActive === 2;
      }, 'the stateless client counted');
      await until(async () => {
        await modernDiscover(s, 'claude-code');
        const out = (await cli(['status'], env)).stdout;
        return /MCP clients: 2 active, 6 idle session\(s\)/.test(out);
      }, 'status prints two clients in use and six idle sessions');
    } finally {
      await stream.body?.cancel();
    }
  });
});
