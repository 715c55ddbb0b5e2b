// install.sh as a user runs it: `sh install.sh --prefix DIR` with OPENTABS_BASE_URL at a
// local HTTP server that serves dist/ (as the release's host would).  A good install runs;
// a tampered archive, a tampered SHA256SUMS, a download cut short, an unsupported OS and an
// unwritable prefix each get one clear line and leave nothing installed; installing again
// keeps ~/.opentabs as it was; an older `opentabs` earlier on PATH is named.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DIST, VERSION, run } from './support.mjs';

const os = process.platform === 'darwin' ? 'macos' : 'linux';
const cpu = process.arch === 'x64' ? 'x64' : process.arch;
const archiveName = `opentabs-${VERSION}-${os}-${cpu}.tar.gz`;

// Serves dist/, with `changes` replacing what some paths answer:
// { body: Buffer } or { cutAfter: n } (sends the full Content-Length, then closes after n bytes).
async function serveDist() {
  const changes = new Map();
  const server = createServer((req, res) => {
    const name = decodeURIComponent(req.url.split('?')[0]).replace(/^\/+/, '');
    const change = changes.get(name);
    let body;
    try {
      body = change?.body ?? readFileSync(join(DIST, name));
    } catch {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { 'content-length': body.length });
    if (change?.cutAfter !== undefined) {
      res.write(body.subarray(0, change.cutAfter));
      res.socket.destroy();
      return;
    }
    res.end(body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, changes, close: () => new Promise((r) => server.close(r)) };
}

describe('install.sh', { skip: existsSync(join(DIST, archiveName)) ? false : `needs ${archiveName} in ${DIST}` }, () => {
  let served, work;
  // Not spawnSync: the server answering the script's downloads runs in this process.
  const install = (prefix, { path = process.env.PATH, home } = {}) =>
    run('sh', [join(DIST, 'install.sh'), '--prefix', prefix], {
      env: { PATH: path, HOME: home ?? join(work, 'home'), OPENTABS_BASE_URL: served.url, TMPDIR: work },
    });
  const nothingInstalled = (prefix) => {
    assert.ok(!existsSync(join(prefix, 'bin', 'opentabs')), 'a binary was installed');
    assert.ok(!existsSync(join(prefix, 'share', 'opentabs')), 'extension files were installed');
    assert.deepEqual(readdirSync(work).filter((n) => n.startsWith('opentabs-install.')), [], 'the download folder was left behind');
  };
  before(async () => {
    served = await serveDist();
    work = mkdtempSync(join(tmpdir(), 'opentabs-install-'));
    mkdirSync(join(work, 'home'));
  });
  after(async () => {
    await served.close();
    rmSync(work, { recursive: true, force: true });
  });

  test('installs bin/opentabs and the extension into the prefix, and it runs', async () => {
    const prefix = join(work, 'good');
    const r = await install(prefix);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(execFileSync(join(prefix, 'bin', 'opentabs'), ['--version'], { encoding: 'utf8' }).trim(), VERSION);
    assert.ok(existsSync(join(prefix, 'share', 'opentabs', 'extension', 'manifest.json')));
    assert.match(r.stderr, new RegExp(`installed opentabs ${VERSION.replaceAll('.', '\\.')}`));
  });

  test('installing again keeps ~/.opentabs (config, secret, audit log) as it was', async () => {
    const prefix = join(work, 'again');
    const home = join(work, 'home-again');
    const config = join(home, '.opentabs');
    mkdirSync(join(config, 'extension'), { recursive: true });
    const files = { 'config.json': '{"localPlugins":["/plugins/mine"]}\n', 'extension/auth.json': '{"secret":"keep-me"}\n', 'audit.log': '{"tool":"x"}\n' };
    for (const [f, text] of Object.entries(files)) writeFileSync(join(config, f), text);
    assert.equal((await install(prefix, { home })).status, 0);
    const second = await install(prefix, { home });
    assert.equal(second.status, 0, second.stderr);
    for (const [f, text] of Object.entries(files)) assert.equal(readFileSync(join(config, f), 'utf8'), text, `${f} changed`);
  });

  for (const [what, change, message] of [
    ['a tampered archive', () => {
      const body = readFileSync(join(DIST, archiveName));
      body[body.length >> 1] ^= 0xff;
      served.changes.set(archiveName, { body });
    }, /does not match SHA256SUMS/],
    ['a tampered SHA256SUMS', () => {
      const line = new RegExp(`^[0-9a-f]{64}(?=  ${archiveName.replaceAll('.', '\\.')}$)`, 'm');
      served.changes.set('SHA256SUMS', { body: Buffer.from(readFileSync(join(DIST, 'SHA256SUMS'), 'utf8').replace(line, 'f'.repeat(64))) });
    }, /does not match SHA256SUMS/],
    ['a download cut short', () => served.changes.set(archiveName, { body: readFileSync(join(DIST, archiveName)), cutAfter: 4096 }), /cut short|does not match/],
  ]) {
    test(`${what} is refused with one clear line and nothing installed`, async () => {
      change();
      try {
        const prefix = join(work, what.replaceAll(' ', '-'));
        const r = await install(prefix);
        assert.notEqual(r.status, 0);
        const last = r.stderr.trim().split('\n').at(-1);
        assert.match(last, message);
        assert.match(last, /nothing was installed/);
        nothingInstalled(prefix);
      } finally {
        served.changes.clear();
      }
    });
  }

  test('an unsupported OS or CPU is named, with what exists', async () => {
    const fake = join(work, 'fake-uname');
    mkdirSync(fake, { recursive: true });
    writeFileSync(join(fake, 'uname'), '#!/bin/sh\n[ "$1" = -s ] && echo FreeBSD || echo riscv64\n');
    chmodSync(join(fake, 'uname'), 0o755);
    const prefix = join(work, 'freebsd');
    const r = await install(prefix, { path: `${fake}:${process.env.PATH}` });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /no prebuilt opentabs for FreeBSD; there are builds for Linux and macOS/);
    nothingInstalled(prefix);
  });

  test('a prefix that cannot be written is named before anything is downloaded', async () => {
    const blocker = join(work, 'a-file');
    writeFileSync(blocker, '');
    const r = await install(join(blocker, 'prefix'));
    assert.equal(r.status, 1);
    assert.match(r.stderr, /cannot create .*a-file\/prefix; choose another with --prefix/);
  });

  test('an older opentabs earlier on PATH is named after the install', async () => {
    const old = join(work, 'old-cli');
    mkdirSync(old, { recursive: true });
    writeFileSync(join(old, 'opentabs'), '#!/bin/sh\necho 0.0.115\n');
    chmodSync(join(old, 'opentabs'), 0o755);
    const r = await install(join(work, 'shadowed'), { path: `${old}:${process.env.PATH}` });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /another opentabs comes first on your PATH: .*old-cli\/opentabs \(0\.0\.115\)/);
  });
});
