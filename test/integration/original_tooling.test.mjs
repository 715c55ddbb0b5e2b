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
import { pluginCopy } from './support/plugin_copy.mjs';

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
const hasLine = (s, line) => originalLines(s).some((l) => (line instanceof RegExp ? line.test(l) : l === line));
const countLine = (s, line) => originalLines(s).filter((l) => (line instanceof RegExp ? line.test(l) : l === line)).length;
const waitLine = (s, line, what = String(line)) => until(() => hasLine(s, line), `the line "${what}"`);
/** Waits until one more line matches `line` than `before` counted. */
const waitAnotherLine = (s, line, before) => until(() => countLine(s, line) > before, `another line "${line}"`);
const WATCHING = /^Config watcher: Watching .* for config\.json changes$/;
const RELOAD_COMPLETE = /^Config reload complete: \d+ plugin\(s\) in \d+ms$/;

/** Replaces config.json atomically with `edit(cfg)`. */
function rewriteConfig(s, edit) {
  const file = join(s.configDir, 'config.json');
  const cfg = edit(JSON.parse(readFileSync(file, 'utf8')));
  writeFileSync(`${file}.tmp`, JSON.stringify(cfg, null, 2));
  renameSync(`${file}.tmp`, file);
}

// One test per line of server/app/original_lines.hpp (exact words there and in its unit test).
describe("the original's log lines, on every path that causes them", () => {
  test('start: Config loaded, Discovered plugin, Plugin discovery complete, Config watcher: Watching, MCP server v… listening', async () => {
    const s = await startServer({ config: notesConfig });
    try {
      await waitLine(s, `Config watcher: Watching ${s.configDir} for config.json changes`);
      await waitLine(s, /^MCP server v\d+\.\d+\.\d+ listening on http:\/\/127\.0\.0\.1:\d+$/);
      assert.ok(hasLine(s, `MCP server v${(await (await s.fetch('/health')).json()).version} listening on http://127.0.0.1:${s.port}`), s.stdout);
      assert.ok(hasLine(s, 'Config loaded: 1 local plugin path(s), 2 plugin permission(s)'), s.stdout);
      assert.ok(hasLine(s, /^Discovered plugin: fixture-notes v1\.0\.0 \(local\) from \/\S*notes — tools: \[echo, list_notes, get_note, /), s.stdout);
      assert.ok(hasLine(s, 'Plugin discovery complete: 1 plugin(s) loaded, 0 error(s)'), s.stdout);
      assert.ok(!originalLines(s).some((l) => l.startsWith('File watcher:') || l.startsWith('Hot reload')), 'dev-only lines stay out');
    } finally {
      await s.stop();
    }
  });

  test('extension: connected, Sent sync.full, tab.syncAll, tab.stateChanged, same-profile reconnect, disconnected', async () => {
    const s = await startServer({ config: notesConfig });
    let ext;
    try {
      ext = await new ExtensionClient(s, { connectionId: 'original-lines' }).connect();
      await ext.waitFor((m) => m.method === 'sync.full');
      await waitLine(s, 'Extension WebSocket connected [A] (connectionId: original-lines)');
      await waitLine(s, 'Sent sync.full to extension with 1 plugin(s)');
      ext.notify('tab.syncAll', {
        tabs: { 'fixture-notes': { state: 'ready', tabs: [{ tabId: 5, url: 'http://localhost:9876/notes', title: 'Notes', ready: true }] } },
      });
      await waitLine(s, 'tab.syncAll received [A]: 1 plugin(s) mapped (connection: original-lines)');
      ext.notify('tab.stateChanged', { plugin: 'fixture-notes', state: 'closed', tabs: [] });
      await waitLine(s, 'tab.stateChanged: fixture-notes → closed [A]');

      const again = await new ExtensionClient(s, { connectionId: 'original-lines' }).connect();
      await waitLine(s, 'Closing previous extension WebSocket (replaced by same-profile reconnect, connectionId: original-lines)');
      await ext.closed;
      ext = again;
      const disconnected = 'Extension WebSocket disconnected [A] (connectionId: original-lines)';
      const before = countLine(s, disconnected);
      await ext.close();
      ext = undefined;
      await waitAnotherLine(s, disconnected, before);
    } finally {
      await ext?.close();
      await s.stop();
    }
  });

  test('config.json changed: triggering reload, Config reload complete, Config watcher: Watching again', async () => {
    const s = await startServer({ config: notesConfig, env: { OPENTABS_MTIME_POLL_MS: '100' } });
    try {
      await waitLine(s, WATCHING);
      const watching = countLine(s, WATCHING);
      rewriteConfig(s, (cfg) => ({ ...cfg, settings: { 'fixture-notes': {} } }));
      await waitLine(s, 'Config watcher: config.json changed — triggering reload');
      await waitLine(s, RELOAD_COMPLETE);
      await waitAnotherLine(s, WATCHING, watching);
      assert.ok(hasLine(s, /^Config reload complete: 1 plugin\(s\) in \d+ms$/), s.stdout);
    } finally {
      await s.stop();
    }
  });

  test('POST /reload: Config reload complete and Config watcher: Watching again', async () => {
    const s = await startServer({ config: notesConfig });
    try {
      await waitLine(s, WATCHING);
      const watching = countLine(s, WATCHING);
      const res = await s.fetch('/reload', { method: 'POST' });
      assert.equal(res.status, 200);
      await waitLine(s, /^Config reload complete: 1 plugin\(s\) in \d+ms$/);
      await waitAnotherLine(s, WATCHING, watching);
    } finally {
      await s.stop();
    }
  });

  test('a plugin change made through the extension (removeBySpecifier) reloads with Config reload complete', async () => {
    const missing = join(tmpdir(), `opentabs-no-such-plugin-lines-${process.pid}`);
    const s = await startServer({ config: { ...notesConfig, localPlugins: [notes, missing] } });
    const ext = await new ExtensionClient(s, { connectionId: 'original-lines-remove' }).connect();
    try {
      await waitLine(s, 'Plugin discovery complete: 1 plugin(s) loaded, 1 error(s)');
      // Answered after the reload it causes; the deadline is generous for a loaded machine.
      const reply = ext.next((m) => m.id === 'remove-stale' && m.method === undefined, 60_000);
      ext.send({ jsonrpc: '2.0', id: 'remove-stale', method: 'plugin.removeBySpecifier', params: { specifier: missing } });
      const removed = await reply;
      assert.deepEqual(removed.result, { ok: true }, JSON.stringify(removed));
      await waitLine(s, /^Config reload complete: 1 plugin\(s\) in \d+ms$/);
    } finally {
      await ext.close();
      await s.stop();
    }
  });

  test('a signal in production mode: Config reload complete', async () => {
    const s = await startServer({ config: notesConfig });
    try {
      await waitLine(s, WATCHING);
      s.child.kill('SIGHUP');
      await waitLine(s, RELOAD_COMPLETE);
      assert.ok(!hasLine(s, /^Hot reload/), 'a production server has no hot reload');
    } finally {
      await s.stop();
    }
  });
});

describe('--dev: file watcher, rebuilt adapters and signals', () => {
  test('SIGUSR1 and SIGHUP hot-reload (Config watcher: Watching again), SIGUSR2 is ignored, SIGTERM stops', async () => {
    const root = mkdtempSync(join(tmpdir(), 'opentabs-original-dev-'));
    const dir = join(root, 'devplug');
    writePlugin(dir, { name: 'devplug', tools: [{ name: 'first', input_schema: SCHEMA }] });
    const s = await startServer({
      args: ['--dev'],
      config: { localPlugins: [dir], additionalAllowedDirectories: [root], permissions: { devplug: { permission: 'auto' } } },
      env: { OPENTABS_MTIME_POLL_MS: '100' },
    });
    try {
      await waitLine(s, 'File watcher: Watching 1 loaded + 0 pending plugin path(s)');
      await waitLine(s, /^MCP server v[\d.]+ listening on http:\/\/127\.0\.0\.1:\d+ \(dev mode\)$/);
      const watching = countLine(s, WATCHING);
      s.child.kill('SIGUSR1');
      await waitLine(s, 'Hot reload detected (SIGUSR1)');
      await waitLine(s, /^Hot reload complete \(\d+ms\)$/);
      await waitAnotherLine(s, WATCHING, watching);
      s.child.kill('SIGHUP');
      await waitLine(s, 'Hot reload detected (SIGHUP)');
      await until(() => countLine(s, /^Hot reload complete \(\d+ms\)$/) === 2, 'the second hot reload');
      assert.ok(!hasLine(s, RELOAD_COMPLETE), 'a hot reload prints its own line instead');
      s.child.kill('SIGUSR2');
      await s.output(/received SIGUSR2: ignored/);
      assert.equal((await s.fetch('/health')).status, 200, 'the server is still serving');
      const { code, signal } = await s.stop();
      assert.deepEqual({ code, signal }, { code: 0, signal: null });
    } finally {
      await s.stop();
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('a rebuilt adapter alone (same __adapterHash) and a rebuilt tools.json alone each print their line and send plugin.update', async () => {
    const root = mkdtempSync(join(tmpdir(), 'opentabs-original-dev-'));
    const dir = join(root, 'devplug');
    writePlugin(dir, { name: 'devplug', tools: [{ name: 'first', input_schema: SCHEMA }] });
    const s = await startServer({
      args: ['--dev'],
      config: { localPlugins: [dir], additionalAllowedDirectories: [root], permissions: { devplug: { permission: 'auto' } } },
      env: { OPENTABS_MTIME_POLL_MS: '100' },
    });
    const ext = await new ExtensionClient(s, { connectionId: 'dev-rebuild' }).connect();
    try {
      const synced = (await ext.waitFor((m) => m.method === 'sync.full')).params.plugins.find((p) => p.name === 'devplug');
      await waitLine(s, /^File watcher: Watching 1 loaded/);
      // The build tool rewrote the IIFE with the same sources' hash: only the bytes differ.
      const iife = join(dir, 'dist', 'adapter.iife.js');
      const rebuilt = `${readFileSync(iife, 'utf8')}/* rebuilt */\n`;
      writeFileSync(`${iife}.tmp`, rebuilt);
      renameSync(`${iife}.tmp`, iife);
      await waitLine(s, 'File watcher: IIFE updated for "devplug" — sending plugin.update');
      const update = await ext.waitFor((m) => m.method === 'plugin.update' && m.params.name === 'devplug');
      assert.equal(update.params.adapterHash, synced.adapterHash, 'the embedded hash did not change');
      assert.equal(readFileSync(join(s.configDir, 'extension', update.params.adapterFile), 'utf8').includes('/* rebuilt */'), true,
        'the adapter copy the extension injects is the rebuilt one');
      assert.ok(!hasLine(s, /tools\.json updated/), 'tools.json did not change');

      const updates = ext.messages.filter((m) => m.method === 'plugin.update').length;
      const tools = join(dir, 'dist', 'tools.json');
      const manifest = JSON.parse(readFileSync(tools, 'utf8'));
      manifest.tools[0].description = 'Rebuilt description of the first tool.';
      writeFileSync(`${tools}.tmp`, JSON.stringify(manifest, null, 2));
      renameSync(`${tools}.tmp`, tools);
      await waitLine(s, 'File watcher: tools.json updated for "devplug" — re-registering MCP tools');
      await until(() => ext.messages.filter((m) => m.method === 'plugin.update').length > updates, 'a plugin.update for the new tools.json');
      assert.equal(countLine(s, /IIFE updated for/), 1, 'the adapter did not change again');
    } finally {
      await ext.close();
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
  test("a plugin without its adapter fails with the original's words (Adapter IIFE not found at …)", async () => {
    const root = mkdtempSync(join(tmpdir(), 'opentabs-no-adapter-'));
    const dir = pluginCopy(root, 'no-adapter');
    rmSync(join(dir, 'dist', 'adapter.iife.js'));
    const s = await startServer({ config: { ...notesConfig, localPlugins: [notes, dir], additionalAllowedDirectories: [fixtures, root] } });
    try {
      const health = await (await s.fetch('/health')).json();
      const failed = health.failedPlugins.find((f) => f.path === dir);
      assert.ok(failed, JSON.stringify(health.failedPlugins));
      assert.match(failed.error, /^Adapter IIFE not found at \/\S*no-adapter\/dist\/adapter\.iife\.js$/);
    } finally {
      await s.stop();
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('config.json rewritten without permissions.browser, then POST /reload: the browser permission in force stays', async () => {
    const s = await startServer({ config: notesConfig });
    const { client } = await connectSdk(s);
    try {
      const describeListTabs = async () => (await client.listTools()).tools.find((t) => t.name === 'browser_list_tabs').description;
      assert.doesNotMatch(await describeListTabs(), /^\[Disabled\]/);
      rewriteConfig(s, ({ permissions: { browser: _dropped, ...plugins }, ...cfg }) => ({ ...cfg, permissions: plugins }));
      const res = await s.fetch('/reload', { method: 'POST' });
      assert.equal(res.status, 200);
      assert.doesNotMatch(await describeListTabs(), /^\[Disabled\]/, 'the in-memory "auto" is kept, as by the original');
      const cfg = JSON.parse(readFileSync(join(s.configDir, 'config.json'), 'utf8'));
      assert.equal(cfg.permissions.browser, undefined, 'the file is left as written');
    } finally {
      await client.close();
      await s.stop();
    }
  });

  test('auth.json keeps a secret a person or a tool wrote that is not 64 hex, and it works; one that cannot be sent is replaced', async () => {
    const configDir = mkdtempSync(join(tmpdir(), 'opentabs-own-secret-'));
    const auth = join(configDir, 'extension', 'auth.json');
    mkdirSync(join(configDir, 'extension'), { recursive: true, mode: 0o700 });
    const own = 'Rotated-By-A-Tool_2026.v2~';
    writeFileSync(auth, JSON.stringify({ secret: own }) + '\n', { mode: 0o600 });
    let s = await startServer({ configDir, config: notesConfig });
    try {
      assert.equal(s.secret, own);
      assert.equal((await s.fetch('/tools')).status, 200, 'the bearer token is the secret as written');
      const ext = await new ExtensionClient(s, { connectionId: 'own-secret' }).connect();
      await ext.waitFor((m) => m.method === 'sync.full');
      await ext.close();
      assert.ok(!(s.stdout + s.stderr).includes(own), 'the secret is never logged');
      await s.stop();
      // A space would split the WebSocket subprotocol list: replaced, and the log says why
      // without the secret.
      const unsendable = 'two words secret';
      writeFileSync(auth, JSON.stringify({ secret: unsendable }) + '\n', { mode: 0o600 });
      s = await startServer({ configDir, config: notesConfig });
      assert.notEqual(s.secret, unsendable);
      assert.match(s.stderr, /auth\.json holds a secret that is empty, longer than 512 characters, or has a character other than/);
      assert.ok(!(s.stdout + s.stderr).includes(unsendable));
    } finally {
      await s.stop();
      rmSync(configDir, { recursive: true, force: true });
    }
  });


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
      // Listed where the original lists it, with its words.
      assert.deepEqual(health.discoveryErrors, [
        { specifier: missing, error: `Path not found: ${missing} — check that the directory exists in your config`, source: 'local' },
      ]);
    } finally {
      await s.stop();
    }
  });
});
