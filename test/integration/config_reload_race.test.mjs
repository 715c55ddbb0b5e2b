// Issue 38: a config change the server acknowledged is never undone by a reload that read
// an older config.json.  POST /reload (like the config watcher) reads config.json on the io
// thread, then discovers the plugins on a reader thread while the server keeps serving; a
// side-panel change made in that window used to be overwritten in memory when the reload
// applied the file it had read before.  The test knob OPENTABS_TEST_RELOAD_GATE holds the
// reload between the two steps, so the window is opened on purpose, not by timing luck.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startServer } from './support/server.mjs';
import { ExtensionClient } from './support/extension_client.mjs';
import { until } from './support/until.mjs';

const fixtures = resolve(new URL('../fixtures/plugins', import.meta.url).pathname);
const notes = join(fixtures, 'notes');
const readConfig = (s) => JSON.parse(readFileSync(join(s.configDir, 'config.json'), 'utf8'));

const notesPermission = async (s) => {
  const health = await (await s.fetch('/health', { signal: AbortSignal.timeout(5000) })).json();
  return health.pluginDetails.find((p) => p.name === 'fixture-notes')?.permission;
};

describe('a reload that read config.json before a side-panel change does not undo it', () => {
  let s;
  let gate;
  before(async () => {
    const configDir = mkdtempSync(join(tmpdir(), 'opentabs-reload-race-'));
    gate = join(configDir, 'reload-gate');
    s = await startServer({
      configDir,
      config: {
        localPlugins: [notes],
        additionalAllowedDirectories: [fixtures],
        permissions: { browser: { permission: 'auto' }, 'fixture-notes': { permission: 'auto' } },
      },
      // The watcher would mend the state from the file after its next poll; a long poll
      // leaves the reload's outcome as the only thing that decides.
      env: { OPENTABS_MTIME_POLL_MS: '600000', OPENTABS_TEST_RELOAD_GATE: gate },
    });
  });
  after(async () => {
    rmSync(gate, { force: true });
    await s?.stop();
    if (s) rmSync(s.configDir, { recursive: true, force: true });
  });

  test('POST /reload held after reading config.json; config.setPluginPermission acknowledged meanwhile; the change stays in effect', async () => {
    assert.equal(await notesPermission(s), 'auto');
    const ext = await new ExtensionClient(s, { connectionId: 'reload-race' }).connect();
    try {
      writeFileSync(gate, '');
      const reloaded = s.fetch('/reload', { method: 'POST', signal: AbortSignal.timeout(60_000) });
      await until(() => existsSync(`${gate}.reached`), 'the reload has read config.json and waits at the gate', 30_000);

      const reply = await ext.request('config.setPluginPermission', { plugin: 'fixture-notes', permission: 'off' }, { timeoutMs: 30_000 });
      assert.deepEqual(reply.result, { ok: true }, JSON.stringify(reply));
      assert.equal(readConfig(s).permissions['fixture-notes'].permission, 'off', 'acknowledged: in config.json');
      assert.equal(await notesPermission(s), 'off', 'acknowledged: in effect');

      rmSync(gate);
      const r = await reloaded;
      assert.equal(r.status, 200, await r.text());
      assert.equal(await notesPermission(s), 'off', 'the reload that read the older file did not bring "auto" back');
      assert.equal(readConfig(s).permissions['fixture-notes'].permission, 'off');
    } finally {
      rmSync(gate, { force: true });
      await ext.close();
    }
  });
});
