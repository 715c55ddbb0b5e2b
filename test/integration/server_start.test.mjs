// Start-up order (issue 18): the server answers /health while the extension copy is still
// being made (it runs once the server listens), but says it is ready (the "listening" line)
// only when the copy is complete, and holds sync.full — which carries the copy's hash —
// for an extension that connected meanwhile until then.  While the copy is held, an
// extension connecting and a POST /reload (each of which writes adapter files) are served at
// once: their adapter writes follow the copy's instead of waiting for it on the io thread.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './support/server.mjs';
import { ExtensionClient } from './support/extension_client.mjs';

const OPENTABS_BIN = process.env.OPENTABS_BIN;

// A server on a new config folder whose extension copy is held for `copyDelayMs`; resolves
// once /health answers.  `stdout()` is what it printed so far; `exited` its exit.
async function startHeld(prefix, copyDelayMs) {
  const configDir = mkdtempSync(join(tmpdir(), prefix));
  const port = await freePort();
  const child = spawn(OPENTABS_BIN, ['start'], {
    env: {
      ...process.env, OPENTABS_CONFIG_DIR: configDir, PORT: String(port), OPENTABS_PORT: String(port),
      OPENTABS_SKIP_NPM_DISCOVERY: '1', OPENTABS_TELEMETRY_DISABLED: '1', NO_COLOR: '1',
      OPENTABS_TEST_EXTENSION_COPY_DELAY_MS: String(copyDelayMs),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  let health;
  while (!health) {
    health = await fetch(`http://127.0.0.1:${port}/health`).catch(() => null);
    if (!health) await new Promise((r) => setTimeout(r, 10));
  }
  return { configDir, port, child, exited, health, stdout: () => out };
}

test('a new folder: /health first, then the complete copy, then sync.full and the ready line', { timeout: 30_000 }, async () => {
  const { configDir, port, child, exited, health, stdout } = await startHeld('opentabs-start-order-', 1500);
  try {
    assert.equal(health.status, 200);
    const extDir = join(configDir, 'extension');
    assert.equal(existsSync(join(extDir, '.extension-hash')), false, 'the copy is still held');
    assert.doesNotMatch(stdout(), /listening on/, 'not ready before the copy');

    const secret = JSON.parse(readFileSync(join(extDir, 'auth.json'), 'utf8')).secret;
    const ext = await new ExtensionClient({ port, secret }, { connectionId: 'start-order' }).connect();
    const sync = await ext.waitFor((m) => m.method === 'sync.full');
    // sync.full came only after the copy: the folder is complete and its hash is the one sent.
    assert.ok(existsSync(join(extDir, 'manifest.json')));
    assert.equal(sync.params.extensionHash, readFileSync(join(extDir, '.extension-hash'), 'utf8'));
    assert.equal(ext.messages.filter((m) => m.method === 'sync.full').length, 1, 'one sync.full');
    while (!/listening on http:\/\/127\.0\.0\.1:/.test(stdout())) await new Promise((r) => setTimeout(r, 10));
    await ext.close();
  } finally {
    child.kill('SIGTERM');
    await exited;
    rmSync(configDir, { recursive: true, force: true });
  }
});

test('an extension and a POST /reload while the copy is held are answered at once, and the server stops cleanly', { timeout: 30_000 }, async () => {
  // Held longer than the test: the copy has not started when the test ends.
  const { configDir, port, child, exited, stdout } = await startHeld('opentabs-start-held-', 600_000);
  try {
    const extDir = join(configDir, 'extension');
    const secret = JSON.parse(readFileSync(join(extDir, 'auth.json'), 'utf8')).secret;
    const ext = await new ExtensionClient({ port, secret }, { connectionId: 'held-copy' }).connect();
    const reloaded = await fetch(`http://127.0.0.1:${port}/reload`, { method: 'POST', headers: { Authorization: `Bearer ${secret}` } });
    assert.equal(reloaded.status, 200, await reloaded.text());
    const after = await fetch(`http://127.0.0.1:${port}/health`);
    assert.equal(after.status, 200);
    assert.equal(existsSync(join(extDir, '.extension-hash')), false, 'answered while the copy is still held');
    assert.doesNotMatch(stdout(), /listening on/);
    assert.equal(ext.messages.filter((m) => m.method === 'sync.full').length, 0, 'sync.full still held');
    await ext.close();
  } finally {
    child.kill('SIGTERM');
    const code = await exited;
    rmSync(configDir, { recursive: true, force: true });
    assert.equal(code, 0, 'a held copy does not keep the server from stopping');
  }
});
