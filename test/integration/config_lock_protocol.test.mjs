// Issue 25 point 1 through the real binary: the original OpenTabs plugin build registers a
// plugin under the lock DIRECTORY config.json.lock (mkdir, pid.txt, 20 retries 50 ms apart,
// stale after five minutes with a dead pid).  opentabs must speak the same protocol: the
// build's registration succeeds and the plugin appears in tools/list; while another process
// holds the directory the server neither writes config.json nor stops answering, and its
// own change lands once the directory is gone, without losing the holder's change.  A
// change is acknowledged only once it is in config.json (issue 38): the answer waits for
// the lock, or says "accepted, not written yet" after OPENTABS_CONFIG_SAVE_WAIT_MS.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, renameSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
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
      env: { OPENTABS_MTIME_POLL_MS: '100', OPENTABS_CONFIG_SAVE_WAIT_MS: '600000' },
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
      // The server reloads the holder's edit (its watcher) before the side panel's change,
      // so the change is made on top of it.
      await until(async () => {
        const health = await (await s.fetch('/health', { signal: AbortSignal.timeout(5000) })).json();
        return JSON.stringify(health.discoveryErrors ?? []).includes('held-edit');
      }, "the holder's edit is loaded", 30_000);

      // The side panel is answered only once the change is in config.json, which the
      // server cannot write while another process holds the lock.
      const answered = ext.request('config.setPluginPermission', { plugin: 'fixture-notes', permission: 'ask' }, { timeoutMs: 60_000 })
        .then((reply) => ({ reply, written: readConfig(s).permissions['fixture-notes'].permission }));
      await until(async () => {
        const health = await s.fetch('/health', { signal: AbortSignal.timeout(5000) });
        assert.equal(health.status, 200, '/health answers while the lock is held');
        return (await health.json()).pluginDetails.find((p) => p.name === 'fixture-notes').permission === 'ask';
      }, 'the change is in effect at once', 30_000);
      assert.equal(readConfig(s).permissions['fixture-notes'].permission, 'auto', 'nothing written under a lock held by another process');
      assert.ok(existsSync(join(s.configDir, 'config.json.lock', 'pid.txt')), 'the holder still holds its lock');

      releaseOriginalLock(s.configDir);
      const { reply, written } = await answered;
      assert.deepEqual(reply.result, { ok: true }, JSON.stringify(reply));
      assert.equal(written, 'ask', 'when the side panel hears "ok" the change is in config.json');
      assert.deepEqual(readConfig(s).localPlugins, [notes, '/nonexistent/held-edit'], "the holder's edit survives");
      await until(() => !existsSync(join(s.configDir, 'config.json.lock')), 'the server releases the lock');
    } finally {
      releaseOriginalLock(s.configDir);
      await ext.close();
    }
  });
});

describe('config.json.lock: an acknowledgement that cannot wait says the change is not written yet', () => {
  let s;
  before(async () => {
    s = await startServer({ env: { OPENTABS_CONFIG_SAVE_WAIT_MS: '1' } });
  });
  after(async () => {
    await s.stop();
  });

  test('POST /plugin-settings under a held lock: 202 "accepted but not written yet", then written once the lock is free', async () => {
    assert.equal(await acquireOriginalLock(s.configDir), true, 'the lock directory is free to take');
    try {
      const r = await s.fetch('/plugin-settings', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ plugin: 'held-settings', settings: { n: 2 } }),
      });
      const body = await r.json();
      assert.equal(r.status, 202, JSON.stringify(body));
      assert.equal(body.saved, false);
      assert.match(body.message, /not written yet: another program holds .*config\.json\.lock/);
      assert.equal(readConfig(s).settings?.['held-settings'], undefined, 'not in config.json while the lock is held');
    } finally {
      releaseOriginalLock(s.configDir);
    }
    await until(() => readConfig(s).settings?.['held-settings']?.n === 2, 'the server writes the settings once the lock is free');
  });

  test('a FIFO planted as config.json.lock/pid.txt blocks nothing: the change waits, /health answers', { skip: process.platform === 'win32' }, async () => {
    const lock = join(s.configDir, 'config.json.lock');
    // The server may still hold the lock for a moment after the previous test's write (its
    // reload reads config.json under it): take the directory once it is free.
    await until(() => {
      try {
        mkdirSync(lock);
        return true;
      } catch (e) {
        if (e.code !== 'EEXIST') throw e;
        return false;
      }
    }, 'the lock directory is free to take');
    execFileSync('mkfifo', [join(lock, 'pid.txt')]);
    const ext = await new ExtensionClient(s, { connectionId: 'fifo-lock' }).connect();
    try {
      const reply = await ext.request('config.setPluginPermission', { plugin: 'browser', permission: 'ask' });
      assert.equal(reply.result?.ok, true, JSON.stringify(reply));
      assert.equal(reply.result.saved, false, 'not written while the directory is there');
      const health = await s.fetch('/health', { signal: AbortSignal.timeout(5000) });
      assert.equal(health.status, 200);
    } finally {
      rmSync(lock, { recursive: true, force: true });
      await ext.close();
    }
    await until(() => readConfig(s).permissions?.browser?.permission === 'ask', 'the change is written once the directory is gone');
  });
});
