// The npm packages as a user gets them: the main package and this platform's package,
// served by a local registry (local_registry.mjs), installed with the real npm into a fresh
// global prefix and run with npx, with a PATH that holds node and npm but no compiler.
// `opentabs` must start the platform binary without a postinstall download, serve MCP, and
// carry an SDK stdio session started the way an MCP client config starts it; a missing
// platform package gets one line saying what to do.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DIST, VERSION, run, waitForHealth, listToolsOverHttp, listToolsOverStdio } from './support.mjs';
import { npmUserEnv, startRegistry } from './local_registry.mjs';
import { freePort } from '../integration/support/server.mjs';

const platform = `${process.platform}-${process.arch}`;
const tarballs = readdirSync(DIST)
  .filter((n) => n === `opentabs-cpp-opentabs-${VERSION}.tgz` || n === `opentabs-cpp-opentabs-${platform}-${VERSION}.tgz`)
  .map((n) => join(DIST, n));

describe('npm packages', { skip: tarballs.length === 2 ? false : `needs the main and the ${platform} tarball in ${DIST}` }, () => {
  let registry, work, env;
  // Not spawnSync: the registry npm talks to runs in this process.
  const npm = (args) => run('npm', args, { env });
  before(async () => {
    registry = await startRegistry(tarballs);
    work = mkdtempSync(join(tmpdir(), 'opentabs-npm-'));
    // node, npm, npx and sh alone: no compiler can be used by anything the install runs.
    env = npmUserEnv(work, registry.url, join(work, 'prefix'));
  });
  after(async () => {
    spawnSync(join(work, 'prefix', 'bin', 'opentabs'), ['stop'], { env });
    await registry?.close();
    rmSync(work, { recursive: true, force: true });
  });

  test('no compiler on the PATH the install runs with', () => {
    const shell = (line) => spawnSync('sh', ['-c', line], { env });
    assert.equal(shell('command -v node && command -v npm').status, 0, 'node and npm must be found: the check below would pass for nothing');
    for (const cc of ['cc', 'gcc', 'g++', 'c++', 'clang']) assert.notEqual(shell(`command -v ${cc}`).status, 0, `${cc} is on PATH`);
  });

  test('npm install -g puts a working `opentabs` on PATH', { timeout: 180_000 }, async () => {
    const r = await npm(['install', '-g', '--prefix', join(work, 'prefix'), '@opentabs-cpp/opentabs']);
    assert.equal(r.status, 0, r.stderr);
    const version = spawnSync('opentabs', ['--version'], { env, encoding: 'utf8' });
    assert.equal(version.status, 0, version.stderr);
    assert.equal(version.stdout.trim(), VERSION);
    const help = spawnSync('opentabs', ['--help'], { env, encoding: 'utf8' });
    assert.equal(help.status, 0);
    assert.match(help.stdout, /^Usage: opentabs /m);
  });

  test('`opentabs start` serves /health and tools/list; `opentabs status` and `tool list` reach it', { timeout: 120_000 }, async () => {
    const port = await freePort();
    const server = spawn('opentabs', ['start', '--port', String(port)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise((resolve) => server.on('exit', (code, signal) => resolve({ code, signal })));
    try {
      const health = await waitForHealth(port, { what: 'opentabs from npm' });
      assert.equal(health.version, VERSION);
      const secret = JSON.parse(readFileSync(join(env.HOME, '.opentabs', 'extension', 'auth.json'), 'utf8')).secret;
      const tools = await listToolsOverHttp(port, secret);
      assert.ok(tools.some((t) => t.name === 'browser_list_tabs'));
      const status = spawnSync('opentabs', ['status', '--json'], { env: { ...env, OPENTABS_PORT: String(port) }, encoding: 'utf8' });
      assert.equal(status.status, 0, status.stdout + status.stderr);
      const list = spawnSync('opentabs', ['tool', 'list', '--plugin', 'browser'], { env: { ...env, OPENTABS_PORT: String(port) }, encoding: 'utf8' });
      assert.equal(list.status, 0, list.stdout + list.stderr);
      assert.match(list.stdout, /browser_list_tabs/);
    } finally {
      server.kill('SIGTERM');  // to the npm launcher, which passes it on to the binary
    }
    const end = await exited;
    assert.ok(end.code === 0 || end.signal === 'SIGTERM', JSON.stringify(end));
    await assert.rejects(fetch(`http://127.0.0.1:${port}/health`), 'the server outlived the launcher that was stopped');
  });

  test('an MCP client config of `npx -y @opentabs-cpp/opentabs start --stdio` gives an SDK session', { timeout: 180_000 }, async () => {
    const port = await freePort();
    const npxEnv = { ...env, npm_config_cache: join(work, 'npx-cache') };
    const session = await listToolsOverStdio('npx', ['-y', '@opentabs-cpp/opentabs', 'start', '--stdio', '--port', String(port)], npxEnv);
    assert.equal(session.server.name, 'opentabs');
    assert.ok(session.tools.some((t) => t.name === 'browser_list_tabs'));
    // The bridge started a server in the background: stop it as a person would.
    const stop = spawnSync('opentabs', ['stop'], { env: { ...env, OPENTABS_PORT: String(port) }, encoding: 'utf8' });
    assert.equal(stop.status, 0, stop.stdout + stop.stderr);
  });

  test('without the platform package, one line says what is missing and how to install it', { timeout: 180_000 }, async () => {
    // A registry (or mirror) that lacks the platform package: npm skips a missing optional
    // dependency and installs the main package alone.
    const partial = await startRegistry(tarballs.filter((t) => !t.includes(`-${platform}-`)));
    try {
      const prefix = join(work, 'no-platform');
      const r = await run('npm', ['install', '-g', '--prefix', prefix, '@opentabs-cpp/opentabs'], { env: { ...env, npm_config_registry: partial.url } });
      assert.equal(r.status, 0, r.stderr);
      const started = spawnSync(join(prefix, 'bin', 'opentabs'), ['--version'], { env, encoding: 'utf8' });
      assert.equal(started.status, 1);
      const lines = started.stderr.trim().split('\n');
      assert.equal(lines.length, 1, started.stderr);
      assert.match(lines[0], new RegExp(`@opentabs-cpp/opentabs-${platform} .*not installed.*--include=optional`));
    } finally {
      await partial.close();
    }
  });
});
