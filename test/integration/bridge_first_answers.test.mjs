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
import { until } from './support/until.mjs';

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

// Reads the bridge's stdout lines as JSON-RPC answers by id; send() writes one message.
function lineClient(bridge) {
  const answers = new Map();
  const waiting = new Map();
  createInterface({ input: bridge.stdout }).on('line', (line) => {
    const msg = JSON.parse(line);
    if (waiting.has(msg.id)) waiting.get(msg.id)(msg);
    else answers.set(msg.id, msg);
  });
  return {
    answerTo: (id) => (answers.has(id) ? Promise.resolve(answers.get(id)) : new Promise((r) => waiting.set(id, r))),
    send: (msg) => bridge.stdin.write(JSON.stringify(msg) + '\n'),
  };
}

// Ends the bridge, frees the port, stops the server the test's config dir started, removes it.
async function finish(bridge, held, dir) {
  bridge.stdin.end();
  await new Promise((resolve) => bridge.on('exit', resolve));
  await held.release().catch(() => {});
  await runBinary(OPENTABS_BIN, ['stop'], cliEnv({ OPENTABS_CONFIG_DIR: dir }));
  rmSync(dir, { recursive: true, force: true });
}

const INITIALIZE_2025 = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'first-answers', version: '1.0.0' } },
};

describe('stdio bridge: first answers without the server', () => {
  test('server/discover and initialize are answered while the server probe is still unanswered', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opentabs-first-'));
    const port = await freePort();
    const held = await heldPort(port);
    const bridge = spawn(OPENTABS_BIN, ['start', '--stdio', '--port', String(port)], {
      env: cliEnv({ OPENTABS_CONFIG_DIR: dir }),
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const { answerTo, send } = lineClient(bridge);
    try {
      await held.firstConnection; // the bridge is probing the port: its server start is pending
      send({ jsonrpc: '2.0', id: 'probe', method: 'server/discover', params: { _meta: META } });
      const discovered = await answerTo('probe');
      assert.ok(discovered.result, JSON.stringify(discovered));
      assert.ok(discovered.result.supportedVersions.includes('2026-07-28'));
      assert.equal(discovered.result._meta?.['io.modelcontextprotocol/serverInfo']?.name ?? discovered.result.serverInfo?.name, 'opentabs');

      send(INITIALIZE_2025);
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
      await finish(bridge, held, dir);
    }
  });

  test('a 2025 client answered before any server came up gets a session once one does', { timeout: 90_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opentabs-late-'));
    const port = await freePort();
    // A listener that never answers holds the port, so the initialize the bridge answered
    // itself reaches no server (the knob shortens its wait); a server comes up afterwards.
    const held = await heldPort(port);
    const bridge = spawn(OPENTABS_BIN, ['start', '--stdio', '--port', String(port)], {
      env: cliEnv({ OPENTABS_CONFIG_DIR: dir, OPENTABS_BRIDGE_START_TIMEOUT_MS: '1' }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const { answerTo, send } = lineClient(bridge);
    let bridgeLog = '';
    bridge.stderr.on('data', (chunk) => { bridgeLog += chunk; });
    try {
      send(INITIALIZE_2025);
      assert.equal((await answerTo(1)).result.protocolVersion, '2025-11-25');
      await until(() => bridgeLog.includes('message initialize not delivered'), 'the bridge to give up relaying initialize', 60_000);
      await held.release();
      const started = await runBinary(OPENTABS_BIN, ['start', '--background', '--port', String(port)], cliEnv({ OPENTABS_CONFIG_DIR: dir }));
      assert.equal(started.code, 0, started.stderr);
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
      const listed = await answerTo(2);
      assert.ok(Array.isArray(listed.result?.tools), JSON.stringify(listed).slice(0, 300));
      assert.ok(listed.result.tools.some((t) => t.name === 'browser_list_tabs'));
    } finally {
      await finish(bridge, held, dir);
    }
  });
});
