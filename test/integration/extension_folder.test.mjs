// Issue 14 items 3 and 4 with the real binary: a user switching from OpenTabs 0.0.115 has
// the original extension unpacked in <configDir>/extension (Chrome's id for it comes from
// that path, and Chrome keeps its settings under that id).  `opentabs start` must leave that
// folder byte for byte as it is (adding only the files the server owns there: auth.json,
// server.json, adapters/), say so on start and in `doctor`, and send the hash the installed
// bundle carries (.extension-hash) as sync.full.extensionHash, so the original side panel
// does not ask for a reload for ever.  `opentabs extension install --force` replaces it with
// ours after moving it to a backup, and keeps the secret.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServer, freePort } from './support/server.mjs';
import { cli } from './support/cli.mjs';
import { ExtensionClient } from './support/extension_client.mjs';

// Every file under dir (relative path → bytes).
function snapshot(dir) {
  const out = new Map();
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath ?? entry.path, entry.name);
    out.set(path.relative(dir, full), fs.readFileSync(full));
  }
  return out;
}

const FOREIGN_HASH = '5e1f0a9b8c7d6e2f';
const SECRET = 'ab'.repeat(32);

// What the original OpenTabs server leaves in ~/.opentabs/extension (no manifest `key`).
function writeOriginalExtension(dir) {
  fs.mkdirSync(path.join(dir, 'dist'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'adapters'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify({
    manifest_version: 3, name: 'OpenTabs', version: '0.0.115',
    background: { service_worker: 'dist/background.js', type: 'module' },
  }, null, 2));
  fs.writeFileSync(path.join(dir, 'dist', 'background.js'), '// the original background bundle\n');
  fs.writeFileSync(path.join(dir, 'dist', 'side-panel.js'), `window.__EXTENSION_HASH__ = "${FOREIGN_HASH}";\n`);
  fs.writeFileSync(path.join(dir, '.extension-hash'), FOREIGN_HASH);
  fs.writeFileSync(path.join(dir, '.opentabs-version'), '0.0.115');
  fs.writeFileSync(path.join(dir, 'auth.json'), JSON.stringify({ secret: SECRET }) + '\n', { mode: 0o600 });
}

describe('a foreign extension folder (the original OpenTabs extension)', () => {
  const root = fs.mkdtempSync(path.join(tmpdir(), 'opentabs-foreign-ext-'));
  const configDir = path.join(root, 'config');
  const extDir = path.join(configDir, 'extension');
  fs.mkdirSync(configDir, { recursive: true, mode: 0o700 });
  writeOriginalExtension(extDir);
  const before = snapshot(extDir);
  const env = { OPENTABS_CONFIG_DIR: configDir };
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  test('start leaves it byte for byte, says so, and sends its own .extension-hash as extensionHash', { timeout: 20_000 }, async () => {
    const s = await startServer({ configDir, config: { permissions: { browser: { permission: 'auto' } } } });
    try {
      const out = await s.output(/holds another extension \(OpenTabs 0\.0\.115\).*left unchanged/s);
      assert.match(out, /opentabs extension install --force/);
      assert.equal(s.secret, SECRET, 'the secret in the existing auth.json is used');
      const ext = await new ExtensionClient(s).connect();
      const sync = await ext.waitFor((m) => m.method === 'sync.full');
      assert.equal(sync.params.extensionHash, FOREIGN_HASH);
      // That extension (announcing nothing) cannot take browser_snapshot: say how to get ours there.
      const snap = await s.callTool('browser_snapshot', { tabId: 1 });
      assert.equal(snap.body.content[0].text,
        `Browser tool error: the connected extension does not support browser_snapshot; load the opentabs extension from ${extDir} ` +
        'after `opentabs extension install --force` (it now holds OpenTabs 0.0.115, which is backed up first)');
      await ext.close();
    } finally {
      await s.stop();
    }
    const now = snapshot(extDir);
    for (const [rel, bytes] of before) assert.ok(now.get(rel)?.equals(bytes), `${rel} unchanged`);
    const added = [...now.keys()].filter((rel) => !before.has(rel));
    assert.deepEqual(added.filter((rel) => rel !== 'server.json' && !rel.startsWith('adapters/')), [],
      'only files the server owns were added');
  });

  test('start --background says so too, and leaves it as well', { timeout: 30_000 }, async () => {
    const port = await freePort();
    const started = await cli(['start', '--background', '--port', String(port)], env);
    try {
      assert.equal(started.code, 0, started.stderr);
      assert.match(started.stderr, /holds another extension \(OpenTabs 0\.0\.115\).*left unchanged.*opentabs extension install --force/s);
    } finally {
      const stopped = await cli(['stop'], env);
      assert.equal(stopped.code, 0, stopped.stderr);
    }
    const now = snapshot(extDir);
    for (const [rel, bytes] of before) assert.ok(now.get(rel)?.equals(bytes), `${rel} unchanged`);
  });

  test('doctor warns and names the fix; install without --force refuses and changes nothing', async () => {
    const doctor = await cli(['doctor', '--json'], env);
    const check = JSON.parse(doctor.stdout).checks.find((c) => c.check === 'extension installed');
    assert.equal(check.status, 'warning', JSON.stringify(check));
    assert.match(check.detail, /holds another extension \(OpenTabs 0\.0\.115\)/);
    assert.match(check.fix, /opentabs extension install --force/);

    const refused = await cli(['extension', 'install'], env);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /holds another extension \(OpenTabs 0\.0\.115\).*--force/s);
    const now = snapshot(extDir);
    for (const [rel, bytes] of before) assert.ok(now.get(rel)?.equals(bytes), `${rel} unchanged`);
  });

  test('install --force backs the folder up, installs ours with the same secret, and start then keeps ours', { timeout: 20_000 }, async () => {
    const forced = await cli(['extension', 'install', '--force', '--json'], env);
    assert.equal(forced.code, 0, forced.stderr);
    const out = JSON.parse(forced.stdout);
    assert.equal(out.installed, extDir);
    assert.match(path.basename(out.backup), /^extension-backup-\d{8}-\d{6}/);
    assert.equal(path.dirname(out.backup), configDir);
    const backedUp = snapshot(out.backup);
    for (const [rel, bytes] of before) assert.ok(backedUp.get(rel)?.equals(bytes), `${rel} is in the backup unchanged`);

    const manifest = JSON.parse(fs.readFileSync(path.join(extDir, 'manifest.json'), 'utf8'));
    assert.equal(typeof manifest.key, 'string', 'our manifest (fixed key) is installed');
    assert.equal(JSON.parse(fs.readFileSync(path.join(extDir, 'auth.json'), 'utf8')).secret, SECRET);
    const ours = fs.readFileSync(path.join(extDir, '.extension-hash'), 'utf8');
    assert.match(ours, /^[0-9a-f]{16}$/);
    assert.equal(ours, out.extensionHash);

    const s = await startServer({ configDir });
    try {
      assert.doesNotMatch(s.stderr + s.stdout, /holds another extension/);
      const ext = await new ExtensionClient(s).connect();
      assert.equal((await ext.waitFor((m) => m.method === 'sync.full')).params.extensionHash, ours);
      await ext.close();
    } finally {
      await s.stop();
    }
    const doctor = await cli(['doctor', '--json'], env);
    assert.equal(JSON.parse(doctor.stdout).checks.find((c) => c.check === 'extension installed').status, 'ok');
  });
});
