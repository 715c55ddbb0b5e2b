// The install step: `cmake --install` of the build tree OPENTABS_BIN belongs to puts the
// binary in <prefix>/bin and the extension in <prefix>/share/opentabs/extension; the prefix
// is then moved elsewhere and the installed binary, started from there, installs the
// extension from its own share/ folder (a marker file only that copy has proves it did not
// use the source tree compiled into it), and serves.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, existsSync, writeFileSync, renameSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { OPENTABS_BIN, freePort } from './support/server.mjs';
import { runBinary } from './support/cli.mjs';

const buildDir = dirname(OPENTABS_BIN);
const installable = existsSync(join(buildDir, 'cmake_install.cmake'));

describe('install', () => {
  test('an installed, moved prefix finds its own extension files and serves', { skip: !installable && 'OPENTABS_BIN is not in a CMake build tree', timeout: 120_000 }, async () => {
    const root = mkdtempSync(join(tmpdir(), 'opentabs-install-'));
    const first = join(root, 'first');
    const moved = join(root, 'moved');
    const configDir = join(root, 'config');
    try {
      const inst = spawnSync('cmake', ['--install', buildDir, '--prefix', first], { encoding: 'utf8' });
      assert.equal(inst.status, 0, inst.stdout + inst.stderr);
      assert.ok(existsSync(join(first, 'bin', 'opentabs')));
      const share = join(first, 'share', 'opentabs', 'extension');
      assert.ok(existsSync(join(share, 'manifest.json')));
      assert.ok(!existsSync(join(share, 'README.md')), 'development files are not installed');
      writeFileSync(join(share, 'installed-copy-marker.txt'), 'from the installed share folder\n');
      renameSync(first, moved); // relocatable: nothing refers to the first prefix

      const port = await freePort();
      const bin = join(moved, 'bin', 'opentabs');
      const env = { HOME: process.env.HOME, PATH: process.env.PATH, NO_COLOR: '1', OPENTABS_CONFIG_DIR: configDir, OPENTABS_SKIP_NPM_DISCOVERY: '1' };
      const started = await runBinary(bin, ['start', '--background', '--port', String(port)], env);
      try {
        assert.equal(started.code, 0, started.stderr);
        assert.ok(existsSync(join(configDir, 'extension', 'installed-copy-marker.txt')), 'the extension came from somewhere else');
        assert.equal(
          readFileSync(join(configDir, 'extension', 'manifest.json'), 'utf8'),
          readFileSync(join(moved, 'share', 'opentabs', 'extension', 'manifest.json'), 'utf8'),
        );
        const health = await fetch(`http://127.0.0.1:${port}/health`);
        assert.ok(health.headers.get('x-opentabs-version'));
      } finally {
        const stop = await runBinary(bin, ['stop'], env);
        assert.equal(stop.code, 0, stop.stderr);
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
