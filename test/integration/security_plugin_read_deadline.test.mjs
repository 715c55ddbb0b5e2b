// Plugin folders on a slow filesystem (issue 24, "reads off the io thread with a deadline"),
// against the real binary.  A read that hangs on NFS or a fuse mount cannot be made here, and
// FIFOs and devices are refused before any read (security_plugin_files.test.mjs), so the test
// knob OPENTABS_TEST_PLUGIN_READ_DELAY_MS makes the server's plugin reader sleep before it
// reads one folder (OPENTABS_TEST_PLUGIN_READ_DELAY_DIR), on the reader's own thread, and
// OPENTABS_PLUGIN_READ_DEADLINE_MS shortens the deadline.  That folder's plugin must fail with
// the deadline reason and nothing else; /health must answer while a reload waits for it,
// whether POST /reload or a SIGHUP started it; and however often it is reloaded while the
// slow read still hangs, the other plugin keeps loading.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from './support/server.mjs';
import { pluginCopy } from './support/plugin_copy.mjs';

const DEADLINE_MS = 1500;
// Far longer than the deadline: the slow read is still asleep when the test ends.
const DELAY_MS = 120_000;

describe('a plugin folder whose reads are slow', () => {
  let root;
  let server;
  const dirs = {};

  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'opentabs-slow-reads-'));
    dirs.slow = pluginCopy(root, 'slow-reads');
    dirs.quick = pluginCopy(root, 'quick-reads');
    server = await startServer({
      config: { localPlugins: [dirs.slow, dirs.quick], version: 3, updateCheckIntervalMinutes: 0 },
      env: {
        OPENTABS_TEST_PLUGIN_READ_DELAY_MS: String(DELAY_MS),
        OPENTABS_TEST_PLUGIN_READ_DELAY_DIR: 'slow-reads',
        OPENTABS_PLUGIN_READ_DEADLINE_MS: String(DEADLINE_MS),
      },
    });
  });

  after(async () => {
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  const health = async () => {
    const res = await server.fetch('/health', { signal: AbortSignal.timeout(10_000) });
    return res.json();
  };

  test('only the slow plugin fails, with the deadline as its reason', async () => {
    const h = await health();
    const failed = Object.fromEntries(h.failedPlugins.map((f) => [f.path, f.error]));
    assert.match(failed[dirs.slow] ?? '', new RegExp(`reading the plugin's files did not finish within ${DEADLINE_MS} ms`));
    assert.equal(failed[dirs.quick], undefined);
    assert.ok(h.pluginDetails.some((p) => /quick-reads/.test(p.name)), 'the other plugin loaded');
  });

  test('/health answers while a reload waits on the slow folder; the reload then ends with the same outcome', async () => {
    const loadsBefore = (server.stdout + server.stderr).split('Config loaded: ').length;
    let reloadDone = false;
    const reload = server.fetch('/reload', { method: 'POST', signal: AbortSignal.timeout(30_000) })
      .then(async (res) => { reloadDone = true; return { status: res.status, body: await res.json() }; });
    // The reload has read config.json: its discovery, with the slow folder, runs now.
    await server.output({ test: (text) => text.split('Config loaded: ').length > loadsBefore }, 10_000);
    const during = await health();
    assert.equal(reloadDone, false, '/health answered before the reload ended');
    assert.equal(during.status, 'ok');
    const r = await reload;
    assert.equal(r.status, 200);
    const after = await health();
    const failed = Object.fromEntries(after.failedPlugins.map((f) => [f.path, f.error]));
    assert.match(failed[dirs.slow] ?? '', /did not finish within/);
    assert.ok(after.pluginDetails.some((p) => /quick-reads/.test(p.name)));
  });

  test('a SIGHUP reload waits on the slow folder off the io thread too', async () => {
    const count = (marker) => (server.stdout + server.stderr).split(marker).length;
    const loadsBefore = count('Config loaded: ');
    const discoveriesBefore = count('Plugin discovery complete');
    server.child.kill('SIGHUP');
    await server.output({ test: (text) => text.split('Config loaded: ').length > loadsBefore }, 10_000);
    const during = await health();
    assert.equal(during.status, 'ok');
    assert.equal(count('Plugin discovery complete'), discoveriesBefore, '/health answered while discovery waited on the slow folder');
    await server.output({ test: (text) => text.split('Plugin discovery complete').length > discoveriesBefore }, 20_000);
    const failed = Object.fromEntries((await health()).failedPlugins.map((f) => [f.path, f.error]));
    assert.match(failed[dirs.slow] ?? '', /did not finish within/);
  });

  test('reloaded again and again while the slow folder still hangs: the other plugin always loads (issue 38)', { timeout: 120_000 }, async () => {
    const count = (marker) => (server.stdout + server.stderr).split(marker).length;
    // More reloads than the server lets reads hang at once (8): each waits for the slow
    // folder's one read instead of starting another.
    for (let i = 0; i < 9; i++) {
      const before = count('Plugin discovery complete');
      server.child.kill('SIGHUP');
      await server.output({ test: (text) => text.split('Plugin discovery complete').length > before }, 30_000);
    }
    const h = await health();
    const failed = Object.fromEntries(h.failedPlugins.map((f) => [f.path, f.error]));
    assert.match(failed[dirs.slow] ?? '', /did not finish within/);
    assert.equal(failed[dirs.quick], undefined, failed[dirs.quick]);
    assert.ok(h.pluginDetails.some((p) => /quick-reads/.test(p.name)), 'the other plugin loaded');
  });
});
