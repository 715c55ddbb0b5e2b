// The stdio bridge answers a client's first exchange (the 2026-07-28 server/discover probe,
// the 2025 initialize) from its own binary, before any server answers: MCP clients give a
// probe about a second, and a server being started takes longer.  Shown by order, not by
// time: a listener on the bridge's port accepts the bridge's /health probe and holds it
// unanswered; the answers arrive while it is held, and what needs the server waits for it.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { OPENTABS_BIN, freePort } from './support/server.mjs';
import { cliEnv, runBinary } from './support/cli.mjs';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'first-answers', version: '1.0.0' },
};

// A listener that takes connections and never answers them, until release().
async function heldPort(port) {
  const sockets = [];
  let arrived;
  const firstConnection = new Promise((resolve) => (arrived = resolve));
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.on('error', () => {});
    arrived();
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    firstConnection,
    release() {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('stdio bridge: first answers without the server', () => {
  test('server/discover and initialize are answered while the server probe is still unanswered', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opentabs-first-'));
    const port = await freePort();
    const held = await heldPort(port);
    const bridge = spawn(OPENTABS_BIN, ['start', '--stdio', '--port', String(port)], {
      env: cliEnv({ OPENTABS_CONFIG_DIR: dir }),
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const answers = new Map();
    const waiting = new Map();
    createInterface({ input: bridge.stdout }).on('line', (line) => {
      const msg = JSON.parse(line);
      if (waiting.has(msg.id)) waiting.get(msg.id)(msg);
      else answers.set(msg.id, msg);
    });
    const answerTo = (id) => (answers.has(id) ? Promise.resolve(answers.get(id)) : new Promise((r) => waiting.set(id, r)));
    const send = (msg) => bridge.stdin.write(JSON.stringify(msg) + '\n');
    try {
      await held.firstConnection; // the bridge is probing the port: its server start is pending
      send({ jsonrpc: '2.0', id: 'probe', method: 'server/discover', params: { _meta: META } });
      const discovered = await answerTo('probe');
      assert.ok(discovered.result, JSON.stringify(discovered));
      assert.ok(discovered.result.supportedVersions.includes('2026-07-28'));
      assert.equal(discovered.result._meta?.['io.modelcontextprotocol/serverInfo']?.name ?? discovered.result.serverInfo?.name, 'opentabs');

      send({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'first-answers', version: '1.0.0' } },
      });
      const initialized = await answerTo(1);
      assert.equal(initialized.result.protocolVersion, '2025-11-25');
      assert.equal(initialized.result.serverInfo.name, 'opentabs');

      // tools/list needs the server: it is answered only after the probe is released; the
      // bridge then starts a server of its own on the freed port and relays to it.
      let released = false;
      const listedAt = answerTo(2).then((msg) => ({ msg, released }));
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
      released = true;
      await held.release();
      const listed = await listedAt;
      assert.ok(listed.released, 'tools/list was answered while the server probe was pending');
      assert.ok(Array.isArray(listed.msg.result?.tools), JSON.stringify(listed.msg).slice(0, 300));
    } finally {
      bridge.stdin.end();
      await new Promise((resolve) => bridge.on('exit', resolve));
      await held.release().catch(() => {});
      await runBinary(OPENTABS_BIN, ['stop'], cliEnv({ OPENTABS_CONFIG_DIR: dir }));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
