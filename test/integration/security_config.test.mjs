// Issue 13 item 8: `opentabs config set` and the server's own writes to config.json used to
// race (read, edit, rename with no lock between processes), so CLI changes were lost, one
// of them tightening a tool from auto to ask.  Against the real binary: 44 concurrent CLI
// runs interleaved with server-side writes (the extension's config.setToolPermission and
// POST /plugin-settings); afterwards every change is in config.json and the running server
// has picked up every CLI change.  Also: leftover config.json.tmp.* files are removed at
// start.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, OPENTABS_BIN } from './support/server.mjs';
import { ExtensionClient } from './support/extension_client.mjs';

function cli(args, env) {
  return new Promise((resolve) => {
    const child = spawn(OPENTABS_BIN, args, { env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

const readConfig = (dir) => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));

describe('security: config.json writers serialize', () => {
  test('leftover config.json.tmp.* files are removed at start', async () => {
    const configDir = mkdtempSync(join(tmpdir(), 'opentabs-sec-config-'));
    writeFileSync(join(configDir, 'config.json'), JSON.stringify({ permissions: { browser: { permission: 'auto' } } }));
    writeFileSync(join(configDir, 'config.json.tmp.4242.deadbeef'), '{"half a wri');
    writeFileSync(join(configDir, 'config.json.backup.tmp.4242.cafe'), '{');
    writeFileSync(join(configDir, 'notes.tmp.1'), 'not ours');
    const s = await startServer({ configDir });
    try {
      const left = readdirSync(configDir).filter((f) => f.includes('.tmp.'));
      assert.deepEqual(left, ['notes.tmp.1']);
      assert.equal(readConfig(configDir).permissions.browser.permission, 'auto');
    } finally {
      await s.stop();
      rmSync(configDir, { recursive: true, force: true });
    }
  });

  test('44 concurrent `config set` runs interleaved with server-side writes: no change is lost', async () => {
    const s = await startServer({
      config: { permissions: { browser: { permission: 'auto' } } },
      // Every server-side write is answered once it is in config.json (issue 38): under a
      // heavily loaded machine the 44 CLI runs may hold the lock long, so the answer may wait
      // longer than the default before it would say "not written yet".
      env: { OPENTABS_MTIME_POLL_MS: '100', OPENTABS_CONFIG_SAVE_WAIT_MS: '600000' },
    });
    const ext = await new ExtensionClient(s, { connectionId: 'sec-config' }).connect();
    try {
      const sync = await ext.waitFor((m) => m.method === 'sync.full');
      const names = sync.params.browserTools.map((t) => t.name);
      assert.ok(names.length >= 70, `${names.length} browser tools`);
      const cliTools = names.slice(0, 44);
      const serverTools = names.slice(44, 64);
      const env = { OPENTABS_CONFIG_DIR: s.configDir, OPENTABS_PORT: String(s.port) };

      // Every CLI run tightens one tool from auto to ask; at the same time the server writes
      // other tools (the side panel's per-tool switch) and plugin settings.
      const cliRuns = cliTools.map((tool) => cli(['config', 'set', `tool-permission.browser.${tool}`, 'ask'], env));
      const serverWrites = [];
      for (const [i, tool] of serverTools.entries()) {
        serverWrites.push(ext.request('config.setToolPermission', { plugin: 'browser', tool, permission: 'off' }, { timeoutMs: 600_000 }));
        if (i < 5) {
          serverWrites.push(
            s.fetch('/plugin-settings', {
              signal: AbortSignal.timeout(600_000),
              method: 'POST',
              headers: { 'Content-Type': 'application/json' },
              body: JSON.stringify({ plugin: `unloaded-${i}`, settings: { n: i } }),
            }).then(async (r) => ({ status: r.status, body: await r.json() })),
          );
        }
      }
      const results = await Promise.all(cliRuns);
      for (const [i, r] of results.entries()) assert.equal(r.code, 0, `config set ${cliTools[i]}: ${r.stderr}`);
      for (const w of await Promise.all(serverWrites)) {
        if ('status' in w) assert.equal(w.status, 200, JSON.stringify(w.body));
        else assert.equal(w.error, undefined, JSON.stringify(w));
      }

      const saved = readConfig(s.configDir);
      const tools = saved.permissions.browser.tools ?? {};
      const lostCli = cliTools.filter((t) => tools[t] !== 'ask');
      assert.deepEqual(lostCli, [], `${lostCli.length} of ${cliTools.length} CLI changes lost`);
      const lostServer = serverTools.filter((t) => tools[t] !== 'off');
      assert.deepEqual(lostServer, [], `${lostServer.length} of ${serverTools.length} server changes lost`);
      for (let i = 0; i < 5; i++) assert.deepEqual(saved.settings[`unloaded-${i}`], { n: i });
      assert.deepEqual(readdirSync(s.configDir).filter((f) => f.startsWith('config.json.tmp.')), []);

      // The running server applies every CLI change (its watcher and /reload), so a tightened
      // tool asks again.
      let view = [];
      for (let attempt = 0; attempt < 100; attempt++) {
        const state = await ext.request('config.getState', {});
        view = cliTools.filter((t) => state.result.browserTools.find((b) => b.name === t)?.permission !== 'ask');
        if (view.length === 0) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.deepEqual(view, [], 'tools whose CLI change the running server does not show');
    } finally {
      await ext.close();
      await s.stop();
    }
  });
});
