// Issue 25 points 2, 2b, 2c and 3 through the real binary: what tooling and tests written for
// the original OpenTabs server rely on.
//  - The original's stdout lines, exact strings, at the same moments (start, extension
//    connect and replace, tab.syncAll, tab.stateChanged, a config.json change; in --dev also
//    the file watcher, a rebuilt adapter and the hot reload on SIGUSR1).
//  - The adapter files are written again before every sync.full a connecting extension gets,
//    so an extension folder replaced under a running server still finds them.
//  - SIGUSR1 and SIGHUP reload a --dev server instead of killing it; SIGUSR2 is ignored;
//    SIGTERM still stops it with exit code 0.
//  - `opentabs config set toolNames double-underscore` changes the listed names without a
//    restart, and `opentabs doctor` tells a switching user about it.
// Waits are on the server's own output and messages, never on sleeps.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readFileSync, renameSync, rmSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startServer } from './support/server.mjs';
import { ExtensionClient } from './support/extension_client.mjs';
import { connectSdk } from './support/mcp_client.mjs';
import { cli } from './support/cli.mjs';
import { until } from './support/until.mjs';
import { writePlugin } from '../../bench/plugins.mjs';

const fixtures = resolve(new URL('../fixtures/plugins', import.meta.url).pathname);
const notes = join(fixtures, 'notes');
const notesConfig = {
  localPlugins: [notes],
  additionalAllowedDirectories: [fixtures],
  permissions: { browser: { permission: 'auto' }, 'fixture-notes': { permission: 'auto' } },
};
const SCHEMA = { type: 'object', properties: {}, additionalProperties: false };

/** The stdout lines (time stamp removed) in the original's "[opentabs] <ISO> <message>" form. */
const originalLines = (s) => s.stdout.split('\n').map((l) => /^\[opentabs\] \d{4}-\d\d-\d\dT[\d:.]+Z (.*)$/.exec(l)?.[1]).filter(Boolean);
const hasLine = (s, line) => originalLines(s).includes(line);
const countLine = (s, line) => originalLines(s).filter((l) => l === line).length;
const waitLine = (s, line, what = line) => until(() => hasLine(s, line), `the line "${what}"`);

describe("the original's log lines", () => {
  test('start, connect, replace, tab.syncAll, tab.stateChanged and a config.json change print them', async () => {
    const s = await startServer({ config: notesConfig, env: { OPENTABS_MTIME_POLL_MS: '100' } });
    let ext;
    try {
      const configJson = join(s.configDir, 'config.json');
      await waitLine(s, `Config watcher: Watching ${configJson}`);
      assert.ok(hasLine(s, `Config loaded from ${configJson}`), s.stdout);
      assert.ok(hasLine(s, 'Discovered plugin: fixture-notes v1.0.0 (local)'), s.stdout);
      assert.ok(hasLine(s, 'Plugin discovery complete: 1 plugin(s), 0 failed'), s.stdout);

      ext = await new ExtensionClient(s, { connectionId: 'original-lines' }).connect();
      await ext.waitFor((m) => m.method === 'sync.full');
      await waitLine(s, 'Extension WebSocket connected');
      await waitLine(s, 'Sent sync.full to extension');
      ext.notify('tab.syncAll', {
        tabs: { 'fixture-notes': { state: 'ready', tabs: [{ tabId: 5, url: 'http://localhost:9876/notes', title: 'Notes', ready: true }] } },
      });
      await waitLine(s, 'tab.syncAll received [A]: 1 plugin(s) mapped (connection: original-lines)');
      ext.notify('tab.stateChanged', { plugin: 'fixture-notes', state: 'closed', tabs: [] });
      await waitLine(s, 'tab.stateChanged: fixture-notes → closed');

      const again = await new ExtensionClient(s, { connectionId: 'original-lines' }).connect();
      await waitLine(s, 'Closing previous extension WebSocket');
      await ext.closed;
      ext = again;

      const cfg = JSON.parse(readFileSync(configJson, 'utf8'));
      cfg.settings = { 'fixture-notes': {} };
      writeFileSync(`${configJson}.tmp`, JSON.stringify(cfg, null, 2));
      renameSync(`${configJson}.tmp`, configJson);
      await waitLine(s, 'Config reload complete: 1 plugin(s)');
      assert.ok(!originalLines(s).some((l) => l.startsWith('File watcher:') || l.startsWith('Hot reload')), 'dev-only lines stay out');
    } finally {
      await ext?.close();
      await s.stop();
    }
  });
});

describe('--dev: file watcher, rebuilt adapters and signals', () => {
  test('SIGUSR1 and SIGHUP reload, SIGUSR2 is ignored, a rebuilt IIFE is announced, SIGTERM stops', async () => {
    const root = mkdtempSync(join(tmpdir(), 'opentabs-original-dev-'));
    const dir = join(root, 'devplug');
    writePlugin(dir, { name: 'devplug', tools: [{ name: 'first', input_schema: SCHEMA }] });
    const s = await startServer({
      args: ['--dev'],
      config: { localPlugins: [dir], additionalAllowedDirectories: [root], permissions: { devplug: { permission: 'auto' } } },
      env: { OPENTABS_MTIME_POLL_MS: '100' },
    });
    try {
      await waitLine(s, 'File watcher: Watching 1 local plugin(s) for rebuilds');
      s.child.kill('SIGUSR1');
      await waitLine(s, 'Hot reload detected (SIGUSR1)');
      await waitLine(s, 'Hot reload complete: 1 plugin(s)');
      s.child.kill('SIGHUP');
      await waitLine(s, 'Hot reload detected (SIGHUP)');
      await until(() => countLine(s, 'Hot reload complete: 1 plugin(s)') === 2, 'the second hot reload');
      s.child.kill('SIGUSR2');
      await s.output(/received SIGUSR2: ignored/);
      assert.equal((await s.fetch('/health')).status, 200, 'the server is still serving');

      const stage = mkdtempSync(`${dir}.stage-`);
      writePlugin(stage, { name: 'devplug', tools: [{ name: 'first', input_schema: SCHEMA }, { name: 'second', input_schema: SCHEMA }] });
      for (const f of ['package.json', 'dist/tools.json', 'dist/adapter.iife.js']) renameSync(join(stage, f), join(dir, f));
      rmSync(stage, { recursive: true, force: true });
      await waitLine(s, 'IIFE updated for devplug');
      const { code, signal } = await s.stop();
      assert.deepEqual({ code, signal }, { code: 0, signal: null });
    } finally {
      await s.stop();
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('adapter files before every sync.full', () => {
  test('an extension folder whose adapters vanished gets them back when the extension connects', async () => {
    const s = await startServer({ config: notesConfig });
    try {
      let ext = await new ExtensionClient(s, { connectionId: 'adapter-rewrite' }).connect();
      const first = (await ext.waitFor((m) => m.method === 'sync.full')).params.plugins.find((p) => p.name === 'fixture-notes');
      const file = join(s.configDir, 'extension', first.adapterFile);
      const content = readFileSync(file, 'utf8');
      await ext.close();
      // A reinstall or a test harness replaces the extension folder's adapters.
      rmSync(join(s.configDir, 'extension', 'adapters'), { recursive: true, force: true });
      mkdirSync(join(s.configDir, 'extension', 'adapters'));
      ext = await new ExtensionClient(s, { connectionId: 'adapter-rewrite' }).connect();
      const again = (await ext.waitFor((m) => m.method === 'sync.full')).params.plugins.find((p) => p.name === 'fixture-notes');
      assert.equal(again.adapterFile, first.adapterFile);
      assert.equal(existsSync(file), true, 'the adapter named in sync.full is on disk again');
      assert.equal(readFileSync(file, 'utf8'), content);
      await ext.close();
    } finally {
      await s.stop();
    }
  });
});

describe('toolNames for users of the original CLI', () => {
  test('config set toolNames double-underscore applies to a running server; doctor explains it', async () => {
    const s = await startServer({ config: notesConfig, env: { OPENTABS_MTIME_POLL_MS: '100' } });
    const { client } = await connectSdk(s);
    try {
      const names = async () => (await client.listTools()).tools.map((t) => t.name);
      assert.ok((await names()).includes('fixture-notes_echo'));
      const env = { OPENTABS_CONFIG_DIR: s.configDir, OPENTABS_PORT: String(s.port) };
      const doctor = await cli(['doctor'], env);
      assert.match(doctor.stdout, /tool names .*<plugin>_<tool>; if you keep the original OpenTabs CLI or its <plugin>__<tool> names, run `opentabs config set toolNames double-underscore`/);
      const set = await cli(['config', 'set', 'toolNames', 'double-underscore'], env);
      assert.equal(set.code, 0, set.stderr);
      await until(async () => (await names()).includes('fixture-notes__echo'), 'the listed names change without a restart');
      const rest = await (await s.fetch('/tools')).json();
      assert.ok(rest.some((t) => t.name === 'fixture-notes__echo'), 'GET /tools, which the original CLI reads, uses them too');
    } finally {
      await client.close();
      await s.stop();
    }
  });
});

describe("small differences from the original's answers", () => {
  test('a request on an expired session is 404 whatever its Accept header; a missing local plugin path is not a failed plugin', async () => {
    const missing = join(tmpdir(), `opentabs-no-such-plugin-${process.pid}`);
    const s = await startServer({ config: { ...notesConfig, localPlugins: [notes, missing] } });
    try {
      const res = await s.fetch('/mcp', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'Mcp-Session-Id': 'gone-session' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      assert.equal(res.status, 404);
      assert.match((await res.json()).error.message, /^Session not found/);
      const health = await (await s.fetch('/health')).json();
      assert.deepEqual(health.failedPlugins, []);
      assert.deepEqual(health.pluginDetails.map((p) => p.name), ['fixture-notes']);
      assert.match(s.stderr, /local plugin .*opentabs-no-such-plugin-\d+: plugin directory .* does not exist; skipped/);
    } finally {
      await s.stop();
    }
  });
});
