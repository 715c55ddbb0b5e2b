// `opentabs native-host run` as Chrome drives it: the real binary on stdin/stdout with the
// length-prefixed protocol (4-byte native-endian length + JSON).  Covers ping, getServer
// without and with starting the server (the secret it hands out is the server's), bad JSON,
// an oversized message (skipped, answered with an error, the host keeps serving), unknown
// types, a caller that is not our extension, and the install / status / uninstall commands
// for a custom profile (--user-data-dir).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OPENTABS_BIN, UNDER_WINE, freePort } from './support/server.mjs';

const EXTENSION_ORIGIN = 'chrome-extension://enhcedpbjdalmcjpikhimapoddplngdf/';

function frame(body) {
  const data = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  const len = Buffer.alloc(4);
  len.writeUInt32LE(data.length);  // x86-64 and arm64: little-endian is the native order
  return Buffer.concat([len, data]);
}

/** The host process with a frame reader on its stdout. */
function startHost(env, origin = EXTENSION_ORIGIN) {
  const child = spawn(OPENTABS_BIN, ['native-host', 'run', origin], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let buf = Buffer.alloc(0);
  const queue = [];
  const waiters = [];
  child.stdout.on('data', (d) => {
    buf = Buffer.concat([buf, d]);
    while (buf.length >= 4 && buf.length >= 4 + buf.readUInt32LE(0)) {
      const n = buf.readUInt32LE(0);
      const msg = JSON.parse(buf.subarray(4, 4 + n).toString());
      buf = buf.subarray(4 + n);
      const w = waiters.shift();
      if (w) w(msg); else queue.push(msg);
    }
  });
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  child.stdin.on('error', () => {});  // a host that refused the caller may be gone before we write
  return {
    child, exited,
    send: (body) => child.stdin.write(frame(body)),
    write: (bytes) => child.stdin.write(bytes),
    next: () => (queue.length ? Promise.resolve(queue.shift()) : new Promise((resolve) => waiters.push(resolve))),
    end: () => { child.stdin.end(); return exited; },
  };
}

describe('native messaging host', () => {
  let configDir;
  let port;
  let env;
  before(async () => {
    configDir = mkdtempSync(join(tmpdir(), 'opentabs-native-'));
    port = await freePort();
    env = { ...process.env, OPENTABS_CONFIG_DIR: configDir, OPENTABS_PORT: String(port), OPENTABS_SKIP_NPM_DISCOVERY: '1', NO_COLOR: '1' };
  });
  after(() => {
    spawnSync(OPENTABS_BIN, ['stop'], { env, encoding: 'utf8' });
    rmSync(configDir, { recursive: true, force: true });
  });

  test('ping, bad JSON, an oversized message, unknown types, and no server running', async () => {
    const host = startHost(env);
    host.send({ type: 'ping', id: 1 });
    const pong = await host.next();
    assert.equal(pong.type, 'pong');
    assert.equal(pong.id, 1);
    assert.match(pong.version, /^\d+\.\d+\.\d+/);

    host.send('{"type": "getServer", oops');
    const bad = await host.next();
    assert.equal(bad.type, 'error');
    assert.equal(bad.code, 'bad_json');
    assert.match(bad.message, /^message is not a JSON object: /);

    // 100 KiB is over the host's 64 KiB request limit: skipped, answered, host still serving.
    host.send({ type: 'ping', padding: 'x'.repeat(100 * 1024) });
    const big = await host.next();
    assert.deepEqual(big, { type: 'error', code: 'too_large', message: `message of ${JSON.stringify({ type: 'ping', padding: 'x'.repeat(100 * 1024) }).length} bytes exceeds the host's limit of 65536 bytes` });

    host.send({ type: 'selfDestruct' });
    const unknown = await host.next();
    assert.equal(unknown.code, 'unknown_type');
    host.send({ noType: true });
    assert.equal((await host.next()).code, 'bad_request');

    host.send({ type: 'getServer', start: false, id: 'a' });
    const none = await host.next();
    assert.equal(none.type, 'error');
    assert.equal(none.code, 'server_not_running');
    assert.equal(none.id, 'a');

    // A message split across writes still arrives whole.
    const split = frame({ type: 'ping', id: 2 });
    host.write(split.subarray(0, 3));
    await new Promise((r) => setImmediate(r));
    host.write(split.subarray(3));
    assert.equal((await host.next()).id, 2);
    assert.equal(await host.end(), 0);
  });

  test('getServer with start: the host starts the server and hands out its port and secret', async () => {
    const host = startHost(env);
    host.send({ type: 'getServer', start: true, id: 7 });
    const reply = await host.next();
    assert.equal(reply.type, 'server', JSON.stringify(reply));
    assert.equal(reply.port, port);
    assert.equal(reply.started, true);
    assert.equal(reply.id, 7);
    const secret = JSON.parse(readFileSync(join(configDir, 'extension', 'auth.json'), 'utf8')).secret;
    assert.equal(reply.secret, secret);
    const health = await fetch(`http://127.0.0.1:${port}/health`, { headers: { Authorization: `Bearer ${reply.secret}` } });
    assert.equal(health.status, 200);
    host.send({ type: 'getServer', start: true });
    const again = await host.next();
    assert.equal(again.started, false);
    assert.equal(await host.end(), 0);
  });

  test('a caller that is not our extension gets nothing', async () => {
    // The host answers before any request and exits.
    const host = startHost(env, 'chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/');
    const reply = await host.next();
    assert.deepEqual(reply, { type: 'error', code: 'forbidden_origin', message: 'this native host serves only the OpenTabs extension' });
    assert.equal(await host.exited, 1);
  });

  // Under Wine the Windows build writes its .cmd launcher (its text is unit-tested in the cli
  // suite on every OS) and Windows paths; this case reads the POSIX launcher.
  const windowsLauncher = UNDER_WINE && 'the Windows build writes a .cmd launcher, not the /bin/sh one this case reads';
  test('install / status / uninstall for a custom profile', { skip: windowsLauncher }, () => {
    const profile = mkdtempSync(join(tmpdir(), 'opentabs-profile-'));
    const run = (...args) => spawnSync(OPENTABS_BIN, ['native-host', ...args, '--user-data-dir', profile], { env, encoding: 'utf8' });
    const installed = run('install', '--json');
    assert.equal(installed.status, 0, installed.stderr);
    const info = JSON.parse(installed.stdout);
    assert.equal(info.extensionId, 'enhcedpbjdalmcjpikhimapoddplngdf');
    const file = join(profile, 'NativeMessagingHosts', 'com.opentabs.server.json');
    assert.equal(info.manifests[0].manifest, file);
    const manifest = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal(manifest.name, 'com.opentabs.server');
    assert.equal(manifest.type, 'stdio');
    assert.deepEqual(manifest.allowed_origins, [EXTENSION_ORIGIN]);
    assert.equal(manifest.path, join(configDir, 'native-host', 'opentabs-native-host'));
    assert.ok(statSync(manifest.path).mode & 0o100, 'launcher is executable');
    const launcher = readFileSync(manifest.path, 'utf8');
    assert.match(launcher, new RegExp(`OPENTABS_CONFIG_DIR='${configDir}'`));
    assert.match(launcher, new RegExp(`OPENTABS_PORT=${port}\\n`), 'OPENTABS_PORT set on purpose is pinned');
    assert.match(launcher, /native-host run "\$@"\n$/);

    const status = run('status', '--json');
    assert.equal(status.status, 0);
    assert.deepEqual(JSON.parse(status.stdout).locations.map((l) => [l.browser, l.installed, l.ok]), [['custom', true, true]]);

    // A manifest that names another extension is reported as broken.
    writeFileSync(file, JSON.stringify({ ...manifest, allowed_origins: ['chrome-extension://bbbb/'] }));
    const broken = run('status');
    assert.equal(broken.status, 1);
    assert.match(broken.stdout, /custom: BROKEN: allowed_origins does not name chrome-extension:\/\/enhcedpbjdalmcjpikhimapoddplngdf\//);

    const removed = run('uninstall');
    assert.equal(removed.status, 0);
    assert.ok(!existsSync(file));
    assert.match(run('status').stdout, /custom: not installed/);
    const unknownBrowser = spawnSync(OPENTABS_BIN, ['native-host', 'install', '--browser', 'firefox'], { env, encoding: 'utf8' });
    assert.equal(unknownBrowser.status, 2);
    assert.match(unknownBrowser.stderr, /unknown browser 'firefox': use chrome, chromium, edge, brave or all/);
    rmSync(profile, { recursive: true, force: true });
  });
});
