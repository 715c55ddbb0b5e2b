// Integer test knobs against the real binary: every OPENTABS_* integer knob goes through one
// parser (server/util/env.hpp), so a value that is not a whole number in the knob's range is
// ignored with a warning that names the variable, the value and the range, whichever part of
// the program reads it (the CLI's log rotation size, the MCP endpoint, the connection slots,
// npm timeouts), and the server starts with the defaults and keeps serving.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './support/server.mjs';

test('bad integer knobs are ignored with a warning naming the variable, and the server serves', async () => {
  const s = await startServer({
    env: {
      OPENTABS_SERVER_LOG_MAX_BYTES: '10MB',
      OPENTABS_MCP_SESSION_IDLE_MS: '5s',
      OPENTABS_MCP_MAX_NEW_SESSIONS_PER_MINUTE: '0',
      OPENTABS_MAX_CONNECTIONS: '-3',
      OPENTABS_NPM_TIMEOUT_MS: '99999999999999999999999',
    },
  });
  try {
    const health = await s.fetch('/health');
    assert.equal(health.status, 200);
    await health.text();
    // The MCP endpoint still works with its default session settings.
    const init = await s.fetch('/mcp', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0', id: 1, method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'knobs', version: '0' } },
      }),
    });
    assert.equal(init.status, 200);
    await init.text();

    const expected = [
      'ignoring OPENTABS_SERVER_LOG_MAX_BYTES="10MB" is not a whole decimal number',
      'ignoring OPENTABS_MCP_SESSION_IDLE_MS="5s" is not a whole decimal number, expected an integer from 1 to 1000000000',
      'ignoring OPENTABS_MCP_MAX_NEW_SESSIONS_PER_MINUTE="0" is too small, expected an integer from 1 to 1000000000',
      'ignoring OPENTABS_MAX_CONNECTIONS="-3" is not a whole decimal number',
      'ignoring OPENTABS_NPM_TIMEOUT_MS="99999999999999999999999" is too large',
    ];
    for (const line of expected) assert.ok(s.stderr.includes(line), `missing "${line}" in:\n${s.stderr}`);
  } finally {
    const r = await s.stop();
    assert.equal(r.code, 0);
  }
});
