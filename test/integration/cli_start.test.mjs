// `opentabs start` modes with the real binary: --background writes server.pid and
// server.log and is recognised by a second start; stop ends it safely; a port held by
// another program is refused with a helpful message; --show-config prints the client
// snippets (and only those); a foreground start on port 0 prints snippets with the bound
// port and keeps the secret out of server.log.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import { startServer, freePort } from './support/server.mjs';
import { cli, alive } from './support/cli.mjs';

describe('opentabs start / stop', () => {
  test('--background: pid file, log file, status, refusal of a second start, stop', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opentabs-bg-'));
    const port = await freePort();
    const env = { OPENTABS_CONFIG_DIR: dir, OPENTABS_PORT: String(port) };
    const started = await cli(['start', '--background'], env);
    let pid;
    try {
      assert.equal(started.code, 0, started.stderr);
      assert.match(started.stdout, new RegExp(`running in the background on http://127.0.0.1:${port} \\(pid \\d+\\)`));
      assert.match(started.stdout, /Load unpacked/);
      const rec = JSON.parse(readFileSync(join(dir, 'server.pid'), 'utf8'));
      pid = rec.pid;
      assert.equal(rec.port, port);
      assert.ok(alive(pid));
      assert.match(readFileSync(join(dir, 'server.log'), 'utf8'), new RegExp(`listening on http://127.0.0.1:${port}`));

      const status = await cli(['status', '--json'], env);
      assert.equal(status.code, 0, status.stderr);
      assert.equal(JSON.parse(status.stdout).status, 'ok');

      const again = await cli(['start', '--background'], env);
      assert.equal(again.code, 1);
      assert.match(again.stderr, new RegExp(`opentabs \\S+ is already running on port ${port}, pid ${pid}`));
      const fg = await cli(['start'], env);
      assert.equal(fg.code, 1);
      assert.match(fg.stderr, /already running/);

      const logs = await cli(['logs', '--lines', '50'], env);
      assert.match(logs.stdout, /listening on/);
    } finally {
      const stopped = await cli(['stop'], env);
      assert.equal(stopped.code, 0, stopped.stderr);
      assert.match(stopped.stdout + stopped.stderr, /stopped opentabs \(pid \d+\)/);
    }
    assert.ok(!existsSync(join(dir, 'server.pid')));
    assert.ok(!alive(pid));
    const status = await cli(['status'], env);
    assert.equal(status.code, 1);
    const stopAgain = await cli(['stop'], env);
    assert.equal(stopAgain.code, 1);
    assert.match(stopAgain.stderr, /not running/);
    rmSync(dir, { recursive: true, force: true });
  });

  test('stop refuses a pid file that points at something else', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opentabs-stale-'));
    const { writeFileSync } = await import('node:fs');
    // Our own test process is alive and certainly not an opentabs server.
    writeFileSync(join(dir, 'server.pid'), JSON.stringify({ pid: process.pid, port: 1 }));
    const r = await cli(['stop'], { OPENTABS_CONFIG_DIR: dir });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /is not an opentabs server/);
    assert.ok(alive(process.pid));
    rmSync(dir, { recursive: true, force: true });
  });

  test('a port held by another program is refused with a helpful message', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opentabs-busy-'));
    const other = createServer((req, res) => res.end('not opentabs'));
    await new Promise((r) => other.listen(0, '127.0.0.1', r));
    const port = other.address().port;
    for (const args of [['start'], ['start', '--background']]) {
      const r = await cli(args, { OPENTABS_CONFIG_DIR: dir, OPENTABS_PORT: String(port) });
      assert.equal(r.code, 1);
      assert.match(r.stderr, new RegExp(`port ${port} is in use by another program.*--port`));
    }
    await new Promise((r) => other.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  test('--show-config prints only the client snippets, with the secret and port', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opentabs-show-'));
    const r = await cli(['start', '--show-config', '--port', '9600'], { OPENTABS_CONFIG_DIR: dir });
    assert.equal(r.code, 0, r.stderr);
    const secret = JSON.parse(readFileSync(join(dir, 'extension', 'auth.json'), 'utf8')).secret;
    const out = r.stdout;
    assert.ok(out.includes(`claude mcp add --transport http opentabs http://127.0.0.1:9600/mcp`));
    assert.ok(out.includes(`"Authorization": "Bearer ${secret}"`));
    assert.match(out, /"type": "remote"/); // OpenCode
    assert.match(out, /"serverUrl": "http:\/\/127.0.0.1:9600\/mcp"/); // Windsurf
    assert.match(out, /\/mcp\/gateway/);
    assert.match(out, /"command": "opentabs"/);
    assert.match(out, /"--stdio"/);
    assert.ok(!out.includes('listening'));
    rmSync(dir, { recursive: true, force: true });
  });

  test('foreground start on port 0: a short summary names the bound port and --show-config, the extension steps last; no secret printed or logged', async () => {
    const s = await startServer();
    try {
      await s.fetch('/health');
      // The ~85 lines of client snippets are behind --show-config; the summary says so.
      assert.match(s.stdout, new RegExp(`MCP clients connect to http://127.0.0.1:${s.port}/mcp`));
      assert.match(s.stdout, new RegExp(`opentabs start --show-config --port ${s.port}`));
      assert.match(s.stdout, new RegExp(`opentabs start --stdio --port ${s.port}`));
      assert.ok(!s.stdout.includes('claude mcp add'), 'the full snippets are printed by default');
      assert.ok(s.stdout.indexOf('Load unpacked') > s.stdout.indexOf('--show-config'), 'the first-run steps come last');
      assert.ok(!s.stdout.includes(s.secret), 'the secret is printed');
      assert.doesNotMatch(s.stdout, /127\.0\.0\.1:0\//);
      const log = readFileSync(join(s.configDir, 'server.log'), 'utf8');
      assert.match(log, new RegExp(`listening on http://127.0.0.1:${s.port}`));
      assert.ok(!log.includes(s.secret), 'the secret is in server.log');
    } finally {
      assert.equal((await s.stop()).code, 0);
      rmSync(s.configDir, { recursive: true, force: true });
    }
  });

  test('a foreground start copies the extension once (the server does it): a copy that fails is reported once', async () => {
    const missing = join(tmpdir(), 'opentabs-no-such-extension-source');
    const s = await startServer({ env: { OPENTABS_EXTENSION_SOURCE: missing } });
    try {
      await s.output(/extension not installed: the extension files were not found/);
    } finally {
      assert.equal((await s.stop()).code, 0);
    }
    const said = (s.stderr + s.stdout).split('the extension files were not found').length - 1;
    assert.equal(said, 1, s.stderr + s.stdout);
    // Still the first run: the summary shows where to load the extension from.
    assert.match(s.stdout, /Load unpacked/);
  });

  test('start refuses conflicting modes and bad ports', async () => {
    const r = await cli(['start', '--background', '--stdio'], {});
    assert.equal(r.code, 2);
    const p = await cli(['start', '--background', '--port', '0'], {});
    assert.equal(p.code, 2);
    assert.match(p.stderr, /invalid port '0'/);
  });
});
