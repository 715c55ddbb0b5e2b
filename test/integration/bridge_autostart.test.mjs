// The stdio bridge's auto-start seen from outside: the server it starts must not inherit the
// client's pipes (a client that waits for the bridge's stdout to close would otherwise hang
// until the server exits: `echo … | opentabs start --stdio | cat` never ended), and two
// clients auto-starting at once on a fresh config directory must leave exactly one server,
// with a server.pid that `opentabs stop` uses to stop it.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, readlinkSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { OPENTABS_BIN, freePort } from './support/server.mjs';
import { runBinary, cliEnv, alive } from './support/cli.mjs';

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pipe-test', version: '1.0.0' } },
};

const baseEnv = (dir) => cliEnv({ OPENTABS_CONFIG_DIR: dir });
const run = (args, env) => runBinary(OPENTABS_BIN, args, env);

async function health(port) {
  try {
    const r = await fetch(`http://127.0.0.1:${port}/health`);
    return r.headers.get('x-opentabs-version') !== null;
  } catch {
    return false;
  }
}

/** Test cleanup only: SIGTERM any `opentabs start … --port <port>` still running (when stop failed). */
function killLeftovers(port) {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let args;
    try {
      args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    const at = args.indexOf('--port');
    if (args.includes('start') && !args.includes('--stdio') && at > 0 && args[at + 1] === String(port))
      try {
        process.kill(Number(entry), 'SIGTERM');
      } catch {}
  }
}

/** `opentabs stop`, then the checks that the server really is gone. */
async function stopAndCheck(dir, port) {
  const stop = await run(['stop'], baseEnv(dir));
  assert.equal(stop.code, 0, `opentabs stop: ${stop.stdout}${stop.stderr}`);
  assert.ok(!existsSync(join(dir, 'server.pid')), 'server.pid is left behind after stop');
  assert.equal(await health(port), false, 'a server still answers after `opentabs stop`');
}

describe('stdio bridge auto-start', () => {
  test('`echo … | opentabs start --stdio | cat` ends when stdin closes, with no server running before', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opentabs-pipe-'));
    const port = await freePort();
    try {
      const pipeline = `printf '%s\\n' "$INIT" | "$BIN" start --stdio --port ${port} | cat`;
      const r = await new Promise((resolve) => {
        const c = spawn('sh', ['-c', pipeline], {
          env: { ...baseEnv(dir), INIT: JSON.stringify(initialize), BIN: OPENTABS_BIN },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '';
        c.stdout.on('data', (d) => (stdout += d));
        c.on('exit', (code) => resolve({ code, stdout }));
      });
      assert.equal(r.code, 0);
      const answer = JSON.parse(r.stdout.trim().split('\n')[0]);
      assert.equal(answer.id, 1);
      assert.equal(answer.result.serverInfo.name, 'opentabs');
      // The server it started keeps running for other clients.
      const rec = JSON.parse(readFileSync(join(dir, 'server.pid'), 'utf8'));
      assert.ok(alive(rec.pid));
      await stopAndCheck(dir, port);
    } finally {
      killLeftovers(port);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('closing stdin ends the bridge and its stdout while the server it started keeps running', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opentabs-eof-'));
    const port = await freePort();
    try {
      const bridge = spawn(OPENTABS_BIN, ['start', '--stdio', '--port', String(port)], {
        env: baseEnv(dir),
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      const stdoutEnded = new Promise((resolve) => bridge.stdout.on('end', resolve));
      const exited = new Promise((resolve) => bridge.on('exit', (code) => resolve(code)));
      const answered = new Promise((resolve) =>
        bridge.stdout.on('data', (d) => {
          stdout += d;
          if (stdout.includes('\n')) resolve();
        }),
      );
      bridge.stdin.write(JSON.stringify(initialize) + '\n');
      await answered; // the server is up (auto-started) and the session exists
      assert.equal(JSON.parse(stdout.split('\n')[0]).result.serverInfo.name, 'opentabs');
      bridge.stdin.end();
      await stdoutEnded; // hangs while the server holds a copy of the pipe
      assert.equal(await exited, 0);
      const rec = JSON.parse(readFileSync(join(dir, 'server.pid'), 'utf8'));
      assert.equal(rec.port, port);
      assert.ok(alive(rec.pid), 'the auto-started server should outlive the bridge');
      assert.equal(await health(port), true);
      // Its standard descriptors are /dev/null (stdin) and server.log, nothing of the client's.
      assert.equal(readlinkSync(`/proc/${rec.pid}/fd/0`), '/dev/null');
      await stopAndCheck(dir, port);
    } finally {
      killLeftovers(port);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('two `start --background` at once: one reports the server it started, the other "already running"', { timeout: 120_000 }, async () => {
    for (let round = 0; round < 5; ++round) {
      const dir = mkdtempSync(join(tmpdir(), 'opentabs-bgrace-'));
      const port = await freePort();
      try {
        const both = await Promise.all([0, 1].map(() => run(['start', '--background', '--port', String(port)], baseEnv(dir))));
        const rec = JSON.parse(readFileSync(join(dir, 'server.pid'), 'utf8'));
        assert.ok(alive(rec.pid));
        for (const r of both) {
          // Whoever says "running" names the pid that really serves (never the loser's).
          const m = /running in the background on http:\/\/127\.0\.0\.1:\d+ \(pid (\d+)\)/.exec(r.stdout);
          if (m) assert.equal(Number(m[1]), rec.pid, `${r.stdout}${r.stderr}`);
          else assert.match(r.stderr, new RegExp(`already running on port ${port}, pid ${rec.pid}`));
        }
        assert.ok(both.some((r) => r.code === 0));
        await stopAndCheck(dir, port);
      } finally {
        killLeftovers(port);
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });

  test('two clients auto-starting at once leave one server and a server.pid that stop uses', { timeout: 120_000 }, async () => {
    for (let round = 0; round < 3; ++round) {
      const dir = mkdtempSync(join(tmpdir(), 'opentabs-race-'));
      const port = await freePort();
      const clients = [];
      try {
        const connect = async (name) => {
          const transport = new StdioClientTransport({
            command: OPENTABS_BIN,
            args: ['start', '--stdio', '--port', String(port)],
            env: baseEnv(dir),
            stderr: 'pipe',
          });
          const client = new Client({ name, version: '1.0.0' });
          clients.push(client);
          await client.connect(transport);
          return client;
        };
        const both = await Promise.all([connect('first'), connect('second')]);
        const lists = await Promise.all(both.map((c) => c.listTools()));
        for (const l of lists) assert.ok(l.tools.length >= 76, `round ${round}: tools/list answered ${l.tools.length} tools`);
        const rec = JSON.parse(readFileSync(join(dir, 'server.pid'), 'utf8'));
        assert.equal(rec.port, port);
        assert.ok(alive(rec.pid), `round ${round}: server.pid names pid ${rec.pid}, which is not running`);
        await Promise.all(clients.map((c) => c.close()));
        clients.length = 0;
        await stopAndCheck(dir, port);
        // Neither bridge saw its start fail: the loser stepped aside for the winner.
        assert.doesNotMatch(readFileSync(join(dir, 'logs', 'stdio-bridge.log'), 'utf8'), /failed \(exit|could not start/);
      } finally {
        await Promise.all(clients.map((c) => c.close()));
        killLeftovers(port);
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });
});
