// Issue 25 point 1 through the real binary: the original OpenTabs plugin build registers a
// plugin under the lock DIRECTORY config.json.lock (mkdir, pid.txt, 20 retries 50 ms apart,
// stale after five minutes with a dead pid).  opentabs must speak the same protocol: the
// build's registration succeeds and the plugin appears in tools/list; while another process
// holds the directory the server neither writes config.json nor stops answering, and its
// own change lands once the directory is gone, without losing the holder's change.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync, renameSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startServer } from './support/server.mjs';
import { ExtensionClient } from './support/extension_client.mjs';
import { connectSdk } from './support/mcp_client.mjs';
import { until } from './support/until.mjs';
import { acquireOriginalLock, registerLikeOriginalBuild, releaseOriginalLock } from './support/original_plugin_build.mjs';

const fixtures = resolve(new URL('../fixtures/plugins', import.meta.url).pathname);
const notes = join(fixtures, 'notes');

const readConfig = (s) => JSON.parse(readFileSync(join(s.configDir, 'config.json'), 'utf8'));

describe('config.json.lock: the original plugin build and opentabs share one lock', () => {
  let s;
  before(async () => {
    s = await startServer({
      config: {
        additionalAllowedDirectories: [fixtures],
        permissions: { browser: { permission: 'auto' }, 'fixture-notes': { permission: 'auto' } },
      },
      env: { OPENTABS_MTIME_POLL_MS: '100' },
    });
  });
  after(async () => {
    await s.stop();
  });

  test('a plugin built with the original tools registers and appears in tools/list', async () => {
    const built = await registerLikeOriginalBuild(s.configDir, notes);
    assert.equal(built.message, `Registered ${notes} in localPlugins`);
    assert.equal(existsSync(join(s.configDir, 'config.json.lock')), false, 'the build released its lock');
    const reload = await s.fetch('/reload', { method: 'POST' });
    assert.equal(reload.status, 200);
    const { client } = await connectSdk(s);
    try {
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name.startsWith('fixture-notes_')), `fixture-notes tools listed: ${tools.map((t) => t.name)}`);
    } finally {
      await client.close();
    }
  });

  test('while another process holds the lock directory the server keeps answering and writes afterwards', async () => {
    const ext = await new ExtensionClient(s, { connectionId: 'lock-holder-test' }).connect();
    try {
      assert.equal(await acquireOriginalLock(s.configDir), true, 'the lock directory is free to take');
      // The holder edits config.json under its lock, as the original build does.
      const path = join(s.configDir, 'config.json');
      const held = readConfig(s);
      held.localPlugins = [notes, '/nonexistent/held-edit'];
      writeFileSync(`${path}.tmp.test`, JSON.stringify(held, null, 2));
      renameSync(`${path}.tmp.test`, path);

      const reply = await ext.request('config.setPluginPermission', { plugin: 'fixture-notes', permission: 'ask' });
      assert.deepEqual(reply.result, { ok: true }, JSON.stringify(reply));
      const health = await s.fetch('/health', { signal: AbortSignal.timeout(5000) });
      assert.equal(health.status, 200, '/health answers while the lock is held');
      const details = (await health.json()).pluginDetails.find((p) => p.name === 'fixture-notes');
      assert.equal(details.permission, 'ask', 'the change is in effect at once');
      assert.equal(readConfig(s).permissions['fixture-notes'].permission, 'auto', 'nothing written under a lock held by another process');
      assert.ok(existsSync(join(s.configDir, 'config.json.lock', 'pid.txt')), 'the holder still holds its lock');

      releaseOriginalLock(s.configDir);
      await until(() => readConfig(s).permissions['fixture-notes'].permission === 'ask', 'the server writes its change once the lock is free');
      assert.deepEqual(readConfig(s).localPlugins, [notes, '/nonexistent/held-edit'], "the holder's edit survives");
      await until(() => !existsSync(join(s.configDir, 'config.json.lock')), 'the server releases the lock');
    } finally {
      releaseOriginalLock(s.configDir);
      await ext.close();
    }
  });
});
