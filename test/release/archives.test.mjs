// The Linux release archives where a user runs them, never from the build tree: each
// archive is unpacked into an empty root (a chroot holding only the unpacked archive,
// /proc, /dev/null and a temp folder: no C library, no shell, nothing else) and its binary
// must answer --version, start a server that answers /health and tools/list, and carry a
// stdio bridge session of the official SDK client.  The arm64 archive runs the same way
// under qemu-user (qemu-aarch64-static, itself static, copied into the root).  The binaries
// must be static ELF files: no program interpreter, no dynamic section.
// Needs root (chroot, mounting /proc); skipped with the reason otherwise.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readSync, closeSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { artifact, VERSION, waitForHealth, listToolsOverHttp, listToolsOverStdio } from './support.mjs';
import { freePort } from '../integration/support/server.mjs';
import { until } from '../integration/support/until.mjs';

const isRoot = process.getuid?.() === 0;
const QEMU = '/usr/bin/qemu-aarch64-static';
const CHROOT = '/usr/sbin/chroot';  // by path: the root's environment has no PATH to find it

// ELF program header types that only a dynamically linked file has.
const PT_DYNAMIC = 2;
const PT_INTERP = 3;
/** The machine and the program header types of a 64-bit little-endian ELF file. */
function elfFacts(file) {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(64);
    readSync(fd, head, 0, 64, 0);
    assert.equal(head.toString('latin1', 0, 4), '\x7fELF', `${file} is not an ELF file`);
    assert.equal(head[4], 2, 'not a 64-bit ELF file');
    const machine = head.readUInt16LE(18);
    const phoff = Number(head.readBigUInt64LE(32));
    const phentsize = head.readUInt16LE(54);
    const phnum = head.readUInt16LE(56);
    const table = Buffer.alloc(phentsize * phnum);
    readSync(fd, table, 0, table.length, phoff);
    const types = [];
    for (let i = 0; i < phnum; i++) types.push(table.readUInt32LE(i * phentsize));
    return { machine, types };
  } finally {
    closeSync(fd);
  }
}

/** An empty root holding the unpacked archive, /proc, /dev/null and /tmp. */
function makeRoot(archive, withQemu) {
  const root = mkdtempSync(join(tmpdir(), 'opentabs-root-'));
  execFileSync('tar', ['-xzf', archive, '-C', root]);
  for (const dir of ['proc', 'dev', 'tmp/home']) mkdirSync(join(root, dir), { recursive: true });
  chmodSync(join(root, 'tmp'), 0o1777);
  execFileSync('mknod', ['-m', '666', join(root, 'dev/null'), 'c', '1', '3']);
  execFileSync('mount', ['-t', 'proc', 'proc', join(root, 'proc')]);
  if (withQemu) copyFileSync(QEMU, join(root, 'qemu'));
  return root;
}
function removeRoot(root) {
  try {
    execFileSync('umount', [join(root, 'proc')]);
  } catch {}
  rmSync(root, { recursive: true, force: true });
}

const ENV = { PATH: '/bin', HOME: '/tmp/home', OPENTABS_SKIP_NPM_DISCOVERY: '1', NO_COLOR: '1', TMPDIR: '/tmp' };

for (const { platform, machine, qemu } of [
  { platform: 'linux-x64', machine: 62 /* EM_X86_64 */, qemu: false },
  { platform: 'linux-arm64', machine: 183 /* EM_AARCH64 */, qemu: true },
]) {
  const skip = !isRoot ? 'needs root (chroot and mounting /proc)' : qemu && !existsSync(QEMU) ? `needs ${QEMU} (qemu-user-static)` : false;
  describe(`release archive ${platform}`, { skip }, () => {
    const top = `opentabs-${VERSION}-${platform}`;
    let root;
    // The command line that runs the binary inside the root (through qemu for arm64).
    const inRoot = (...args) => [root, ...(qemu ? ['/qemu'] : []), `/${top}/bin/opentabs`, ...args];
    before(() => {
      root = makeRoot(artifact(new RegExp(`^${top.replaceAll('.', '\\.')}\\.tar\\.gz$`)), qemu);
    });
    after(() => removeRoot(root));

    test('holds bin/opentabs and share/opentabs/extension, and the binary is static', () => {
      const exe = join(root, top, 'bin', 'opentabs');
      assert.ok(existsSync(join(root, top, 'share/opentabs/extension/manifest.json')));
      const facts = elfFacts(exe);
      assert.equal(facts.machine, machine);
      assert.ok(!facts.types.includes(PT_INTERP), 'the binary names a program interpreter (it is dynamically linked)');
      assert.ok(!facts.types.includes(PT_DYNAMIC), 'the binary has a dynamic section (it needs shared libraries)');
    });

    test('answers --version in the empty root', () => {
      const out = execFileSync(CHROOT, inRoot('--version'), { env: ENV, encoding: 'utf8' });
      assert.equal(out.trim(), VERSION);
    });

    test('starts a server that answers /health and tools/list, and carries a stdio session', { timeout: 240_000 }, async () => {
      const port = await freePort();
      const server = spawn(CHROOT, inRoot('start', '--port', String(port)), { env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      server.stdout.on('data', (d) => (output += d));
      server.stderr.on('data', (d) => (output += d));
      const exited = new Promise((resolve) => server.on('exit', resolve));
      try {
        const health = await waitForHealth(port, { what: `${platform} in its root` });
        assert.equal(health.version, VERSION);
        // The extension comes from share/ beside the binary into the config folder; the copy
        // runs beside the server, so it may finish after /health first answers.
        const config = join(root, 'tmp/home/.opentabs');
        await until(() => existsSync(join(config, 'extension/manifest.json')), `the extension copied into ~/.opentabs (output:\n${output})`, 120_000);
        const secret = JSON.parse(readFileSync(join(config, 'extension/auth.json'), 'utf8')).secret;
        const tools = await listToolsOverHttp(port, secret);
        assert.ok(tools.some((t) => t.name === 'browser_list_tabs'), 'tools/list has no browser tools');

        const session = await listToolsOverStdio(CHROOT, inRoot('start', '--stdio', '--port', String(port)), ENV);
        assert.equal(session.server.name, 'opentabs');
        assert.equal(session.tools.length, tools.length);
      } finally {
        server.kill('SIGTERM');
        await exited;
      }
    });
  });
}
