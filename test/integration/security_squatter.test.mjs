// A squatter on the opentabs port (issue 24, finding 2): a program without the secret that
// listens on the configured port while opentabs is not running and speaks the protocol
// perfectly (test/integration/support/squatter.mjs).  The native host, the stdio bridge,
// `opentabs doctor`, `opentabs start` and the CLI's server commands (status, tool, audit,
// config) must give it neither the secret nor any credential nor a request, and must say that
// the program on the port is not opentabs (naming it).
// Also: the native host refuses to start without the caller's origin, and the bridge answers
// initialize promptly when the program on the port accepts connections and stays silent.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import net from 'node:net';
import crypto from 'node:crypto';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OPENTABS_BIN } from './support/server.mjs';
import { cli } from './support/cli.mjs';
import { startSquatter } from './support/squatter.mjs';

const EXTENSION_ORIGIN = 'chrome-extension://enhcedpbjdalmcjpikhimapoddplngdf/';

function frame(body) {
  const data = Buffer.from(JSON.stringify(body));
  const len = Buffer.alloc(4);
  len.writeUInt32LE(data.length);
  return Buffer.concat([len, data]);
}

// Runs `opentabs native-host run [origin]`, sends one message and resolves with the first
// answer (or null when the host exits without one).
function nativeHostExchange(env, origin, message) {
  return new Promise((resolve) => {
    const child = spawn(OPENTABS_BIN, ['native-host', 'run', ...(origin ? [origin] : [])], { env, stdio: ['pipe', 'pipe', 'ignore'] });
    let buf = Buffer.alloc(0);
    child.stdout.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      if (buf.length >= 4 && buf.length >= 4 + buf.readUInt32LE(0)) {
        resolve(JSON.parse(buf.subarray(4, 4 + buf.readUInt32LE(0)).toString()));
        child.stdin.end();
      }
    });
    child.stdin.on('error', () => {});
    // 'close', not 'exit': the answer may still be in the stdout pipe when the host exits.
    child.on('close', () => resolve(null));
    child.stdin.write(frame(message));
  });
}

// The stdio bridge on `port`, driven line by line; request(msg) resolves with its answer.
function startBridge(env, port) {
  const child = spawn(OPENTABS_BIN, ['start', '--stdio', '--port', String(port)], { env, stdio: ['pipe', 'pipe', 'ignore'] });
  let out = '';
  const waiters = new Map();
  child.stdout.on('data', (d) => {
    out += d;
    let nl;
    while ((nl = out.indexOf('\n')) >= 0) {
      const line = out.slice(0, nl);
      out = out.slice(nl + 1);
      const msg = JSON.parse(line);
      waiters.get(msg.id)?.(msg);
    }
  });
  return {
    request: (msg) => new Promise((resolve) => { waiters.set(msg.id, resolve); child.stdin.write(`${JSON.stringify(msg)}\n`); }),
    // EOF ends the bridge; one still waiting on its peer is killed after a bound.
    stop: () => new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) { resolve(); return; }
      const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.once('exit', () => { clearTimeout(kill); resolve(); });
      child.stdin.end();
    }),
  };
}

const initialize = (id) => ({
  jsonrpc: '2.0', id, method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'squatter-test', version: '1' } },
});

// Rejects when `promise` takes longer than `ms` (the bound on a wait, not a measurement).
const within = (promise, ms, what) => Promise.race([
  promise, new Promise((_, reject) => setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms)),
]);

describe('a squatter on the port gets no secret, no credential and no request', () => {
  let configDir;
  let secret;
  let squatter;
  let env;

  before(async () => {
    configDir = mkdtempSync(join(tmpdir(), 'opentabs-squatter-'));
    secret = crypto.randomBytes(32).toString('hex');
    mkdirSync(join(configDir, 'extension'), { recursive: true, mode: 0o700 });
    writeFileSync(join(configDir, 'extension', 'auth.json'), JSON.stringify({ secret }), { mode: 0o600 });
    squatter = await startSquatter();
    env = {
      PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', OPENTABS_SKIP_NPM_DISCOVERY: '1',
      OPENTABS_CONFIG_DIR: configDir, OPENTABS_PORT: String(squatter.port), OPENTABS_START_TIMEOUT_MS: '3000',
    };
  });
  after(async () => {
    await squatter?.close();
    rmSync(configDir, { recursive: true, force: true });
  });

  const assertNothingLeaked = () => {
    assert.ok(!squatter.transcript().includes(secret), 'the squatter received the secret');
    assert.deepEqual(squatter.credentialsSeen(), [], 'the squatter received a credential');
    assert.ok(!squatter.seen.requests.some((r) => r.url.startsWith('/mcp') || r.url.startsWith('/ws')), 'the squatter received a request');
  };

  test('native host: getServer names the squatter and hands out no secret', async () => {
    const reply = await nativeHostExchange(env, EXTENSION_ORIGIN, { type: 'getServer', start: true, id: 1 });
    assert.equal(reply.type, 'error', JSON.stringify(reply));
    assert.equal(reply.code, 'not_opentabs');
    assert.match(reply.message, new RegExp(`port ${squatter.port} \\(pid ${process.pid} \\(node`));
    assert.equal(reply.secret, undefined);
    assertNothingLeaked();
  });

  test('native host: started without the caller\'s origin it refuses, secret or not', async () => {
    const reply = await nativeHostExchange(env, null, { type: 'getServer', start: false, id: 2 });
    assert.equal(reply?.type, 'error');
    assert.equal(reply.code, 'forbidden_origin');
    assert.match(reply.message, /started by the browser/);
  });

  test('stdio bridge: the first request that needs the server gets an error naming the squatter; nothing is relayed to it', async () => {
    const bridge = startBridge(env, squatter.port);
    try {
      // initialize is the bridge's own answer (bridge/local_answers): nothing about the port.
      const answer = await within(bridge.request(initialize(1)), 15_000, 'the answer to initialize');
      assert.ok(answer.result, JSON.stringify(answer));
      const list = await within(bridge.request({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), 15_000, 'the answer to tools/list');
      assert.ok(list.error, JSON.stringify(list));
      assert.match(list.error.message, /is not this opentabs server/);
    } finally {
      await bridge.stop();
    }
    assertNothingLeaked();
  });

  test('doctor names the squatter and sends it nothing that carries the secret', async () => {
    const r = await cli(['doctor'], env);
    assert.notEqual(r.code, 0);
    assert.match(r.stdout + r.stderr, new RegExp(`\\(pid ${process.pid} \\(node\\)\\) is not this opentabs server`));
    assertNothingLeaked();
  });

  // The CLI's commands that talk to the server: the squatter must prove the secret before any
  // credential is sent, so it sees only /health and /auth/challenge, and the command names it.
  // `config get` reads config.json only; it is here to show it sends nothing either.
  const commands = [[['status'], true], [['tool', 'list'], true], [['audit'], true], [['config', 'get'], false],
    [['config', 'set', 'plugin-permission.some-plugin', 'ask'], true]];
  for (const [args, talksToServer] of commands) {
    test(`opentabs ${args.join(' ')} sends the squatter no secret and no credential`, async () => {
      const before = squatter.seen.requests.length;
      const r = await cli(args, env);
      const asked = squatter.seen.requests.slice(before).map((q) => new URL(q.url, 'http://x').pathname);
      assert.ok(asked.every((p) => p === '/health' || p === '/auth/challenge'), `requests: ${asked.join(', ')}`);
      assert.ok(!(r.stdout + r.stderr).includes(secret), 'the secret is not printed');
      if (talksToServer) {
        assert.ok(asked.includes('/auth/challenge'), 'the command asked the program on the port to prove the secret');
        assert.match(r.stdout + r.stderr, new RegExp(`port ${squatter.port} \\(pid ${process.pid} \\(node\\)\\) is not this opentabs server`));
      }
      assertNothingLeaked();
    });
  }

  test('start refuses the port and names the squatter', async () => {
    const r = await cli(['start', '--port', String(squatter.port)], env);
    assert.notEqual(r.code, 0);
    assert.match(r.stdout + r.stderr, new RegExp(`port ${squatter.port} \\(pid ${process.pid} \\(node\\)\\) is not this opentabs server`));
    assertNothingLeaked();
  });
});

describe('a silent program on the port', () => {
  test('the bridge answers initialize at once and the next request with an error instead of waiting on it', { timeout: 60_000 }, async () => {
    const sockets = [];
    const silent = net.createServer((s) => { sockets.push(s); s.on('error', () => {}); });
    await new Promise((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const configDir = mkdtempSync(join(tmpdir(), 'opentabs-silent-'));
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, OPENTABS_SKIP_NPM_DISCOVERY: '1', OPENTABS_CONFIG_DIR: configDir };
    const bridge = startBridge(env, silent.address().port);
    try {
      const answer = await within(bridge.request(initialize(1)), 15_000, 'the answer to initialize');
      assert.ok(answer.result, JSON.stringify(answer));
      const list = await within(bridge.request({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), 30_000, 'the answer to tools/list');
      assert.ok(list.error, JSON.stringify(list));
    } finally {
      await bridge.stop();
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => silent.close(resolve));
      rmSync(configDir, { recursive: true, force: true });
    }
  });
});
