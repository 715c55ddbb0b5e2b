// Files the running server watches, through the real binary (spec §3 plugin.update, §6.8
// reload pipeline, §2.3 auth.json; §7 rows hot-reload-dynamic, config-watcher, secret-rotation):
// in dev mode (`--dev` or OPENTABS_DEV=1) a rebuilt dist/ of a local plugin pushes
// plugin.update to the extension, rewrites the adapter copy under <configDir>/extension/adapters
// and tells MCP sessions tools/list_changed, while a production server ignores the same edit;
// config.json edited on disk applies without POST /reload in every mode, and an unparsable
// config.json keeps the last good state; `opentabs config rotate-secret` makes the server
// refuse the old bearer token, accept the new one and send extension.reload to the extension.
// File watching is shortened with OPENTABS_MTIME_POLL_MS; waits are on observable events
// (messages, /health counters), never on sleeps.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, OPENTABS_BIN } from './support/server.mjs';
import { ExtensionClient } from './support/extension_client.mjs';
import { connectSdk } from './support/mcp_client.mjs';
import { writePlugin } from '../../bench/plugins.mjs';
import { until } from './support/until.mjs';

const POLL_MS = '100';
const SCHEMA = { type: 'object', properties: { n: { type: 'integer' } }, additionalProperties: false };
const HASH_SNIPPET_START = '(function(){var o=globalThis.__openTabs';

const sha256Hex = (text) => createHash('sha256').update(text, 'utf8').digest('hex');

/** Replaces a file the way a build does: write a sibling, then rename over it (no torn reads). */
function atomicWrite(path, text) {
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

/**
 * Rebuilds a plugin's dist/adapter.iife.js with a changed body and the matching new
 * __adapterHash (the SHA-256 of everything before the hash-and-freeze snippet, spec §4.2);
 * tools.json is left alone.  Returns {hash, text}.
 */
function rebuildAdapter(pluginDir, marker) {
  const path = join(pluginDir, 'dist', 'adapter.iife.js');
  const text = readFileSync(path, 'utf8');
  const cut = text.lastIndexOf(HASH_SNIPPET_START);
  assert.ok(cut > 0, 'generated adapter ends with the hash-and-freeze snippet');
  const oldHash = /__adapterHash="([0-9a-f]{64})"/.exec(text.slice(cut))[1];
  const body = text.slice(0, cut) + `/* rebuilt: ${marker} */\n`;
  const hash = sha256Hex(body);
  const next = body + text.slice(cut).replace(oldHash, hash);
  atomicWrite(path, next);
  return { hash, text: next, file: `adapters/${pluginName(pluginDir)}-${sha256Hex(next).slice(0, 8)}.js` };
}

/**
 * writePlugin into a staging directory, then renames each file over the plugin's own, so the
 * server's poller never reads a half-written tools.json or adapter.
 */
function rebuildPlugin(dir, spec) {
  const stage = mkdtempSync(`${dir}.stage-`);
  writePlugin(stage, spec);
  for (const f of ['package.json', 'dist/tools.json', 'dist/adapter.iife.js']) renameSync(join(stage, f), join(dir, f));
  rmSync(stage, { recursive: true, force: true });
}

/** The name writePlugin gave the plugin in `dir` (its directory name here). */
const pluginName = (dir) => dir.split('/').at(-1);

/** The adapter copy's name: <plugin>-<first 8 hex of the SHA-256 of the adapter file>.js. */
const adapterCopyName = (dir) => `adapters/${pluginName(dir)}-${sha256Hex(readFileSync(join(dir, 'dist', 'adapter.iife.js'), 'utf8')).slice(0, 8)}.js`;

function makePluginRoot() {
  return mkdtempSync(join(tmpdir(), 'opentabs-dev-mode-'));
}

function pluginConfig(root, dirs, names) {
  return {
    localPlugins: dirs,
    additionalAllowedDirectories: [root],
    permissions: Object.fromEntries([['browser', { permission: 'auto' }], ...names.map((n) => [n, { permission: 'auto' }])]),
  };
}

async function health(s) {
  const r = await s.fetch('/health');
  assert.equal(r.status, 200);
  return r.json();
}

/** Resolves after the server's mtime poller has completed `ticks` more polls (read from /health). */
async function pollTicks(s, ticks = 2) {
  let seen = (await health(s)).fileWatcher.lastPollAt ?? 0;
  for (let i = 0; i < ticks; i++) {
    await until(async () => {
      const now = (await health(s)).fileWatcher.lastPollAt ?? 0;
      if (now > seen) {
        seen = now;
        return true;
      }
      return false;
    }, 'a file-watcher poll');
  }
}

const connectMcp = (s, secret = s.secret) => connectSdk(s, { name: 'dev-mode-test', secret });

const restToolNames = async (s) => (await (await s.fetch('/tools')).json()).map((t) => t.name);

function runCli(args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(OPENTABS_BIN, args, { env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('dev mode (--dev): a rebuilt local plugin is pushed live', () => {
  let s;
  let ext;
  let mcp;
  let mcp2;
  let root;
  let dir;
  before(async () => {
    root = makePluginRoot();
    dir = join(root, 'devplug');
    writePlugin(dir, { name: 'devplug', tools: [{ name: 'first', input_schema: SCHEMA }] });
    s = await startServer({ config: pluginConfig(root, [dir], ['devplug']), args: ['--dev'], env: { OPENTABS_MTIME_POLL_MS: POLL_MS } });
    ext = await new ExtensionClient(s, { connectionId: 'dev-conn' }).connect();
    await ext.waitFor((m) => m.method === 'sync.full');
    mcp = await connectMcp(s);
    mcp2 = await connectMcp(s);
  });
  after(async () => {
    await mcp?.client.close();
    await mcp2?.client.close();
    await ext?.close();
    await s?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  test('/health reports dev mode and watches the local plugin', async () => {
    const h = await health(s);
    assert.equal(h.mode, 'dev');
    await until(async () => (await health(s)).fileWatcher.watchedPlugins === 1, 'watchedPlugins = 1');
  });

  test('a rebuilt adapter sends plugin.update with the new hash, rewrites the adapter copy and signals MCP sessions', async () => {
    const sync = await ext.waitFor((m) => m.method === 'sync.full');
    const before = sync.params.plugins.find((p) => p.name === 'devplug');
    assert.ok(before, 'devplug in the first sync.full');
    const toolsBefore = (await mcp.client.listTools()).tools.map((t) => t.name);
    assert.ok(toolsBefore.includes('devplug_first'), 'MCP tools/list has devplug_first');
    const listChangedBefore = mcp.listChanged.length;
    const fullsBefore = ext.messages.filter((m) => m.method === 'sync.full').length;

    const { hash, text, file } = rebuildAdapter(dir, 'adapter only');
    assert.notEqual(hash, before.adapterHash);
    const update = await ext.waitFor((m) => m.method === 'plugin.update' && m.params.name === 'devplug' && m.params.adapterHash === hash, 10_000);

    assert.equal(update.id, undefined, 'plugin.update is a notification');
    assert.equal(update.params.adapterFile, file);
    assert.notEqual(update.params.adapterFile, before.adapterFile);
    assert.equal(update.params.sourcePath, before.sourcePath);
    assert.equal(update.params.permission, 'auto');
    assert.deepEqual(update.params.tools.map((t) => t.name), ['first']);
    // The extension injects what the server copied under <configDir>/extension/adapters.
    const copy = join(s.configDir, 'extension', update.params.adapterFile);
    assert.equal(readFileSync(copy, 'utf8'), text);
    assert.equal(existsSync(join(s.configDir, 'extension', before.adapterFile)), false, 'the stale adapter copy is removed');
    // The same reload also sent sync.full carrying the new hash.
    const full = ext.messages.filter((m) => m.method === 'sync.full').slice(fullsBefore).find((m) => m.params.plugins.some((p) => p.name === 'devplug' && p.adapterHash === hash));
    assert.ok(full, 'sync.full with the new adapter hash');
    // MCP sessions learn that the catalogue may have changed; the tool is still there.
    await until(() => mcp.listChanged.length > listChangedBefore, 'tools/list_changed on the MCP session');
    assert.ok((await mcp.client.listTools()).tools.some((t) => t.name === 'devplug_first'));
  });

  test('a rebuilt dist/ with a new tool in tools.json shows in GET /tools, every MCP session\'s tools/list and plugin.update', async () => {
    assert.ok(!(await restToolNames(s)).includes('devplug_second'));
    const listChangedBefore = [mcp.listChanged.length, mcp2.listChanged.length];
    rebuildPlugin(dir, { name: 'devplug', tools: [{ name: 'first', input_schema: SCHEMA }, { name: 'second', input_schema: SCHEMA }] });
    const update = await ext.waitFor((m) => m.method === 'plugin.update' && m.params.name === 'devplug' && m.params.tools.some((t) => t.name === 'second'), 10_000);
    const expected = /__adapterHash="([0-9a-f]{64})"/.exec(readFileSync(join(dir, 'dist', 'adapter.iife.js'), 'utf8'))[1];
    await until(async () => (await health(s)).pluginDetails.find((p) => p.name === 'devplug')?.toolCount === 2, 'devplug has two tools');
    const last = ext.messages.filter((m) => m.method === 'plugin.update' && m.params.name === 'devplug').at(-1);
    assert.equal(last.params.adapterHash, expected, 'the last plugin.update carries the rebuilt adapter hash');
    assert.equal(last.params.adapterFile, adapterCopyName(dir));
    assert.equal(readFileSync(join(s.configDir, 'extension', last.params.adapterFile), 'utf8'), readFileSync(join(dir, 'dist', 'adapter.iife.js'), 'utf8'));
    assert.deepEqual(update.params.tools.map((t) => t.name).sort(), ['first', 'second']);
    const rest = await restToolNames(s);
    assert.ok(rest.includes('devplug_second') && rest.includes('devplug_first'), 'GET /tools lists the new tool');
    for (const [i, session] of [mcp, mcp2].entries()) {
      await until(() => session.listChanged.length > listChangedBefore[i], `tools/list_changed on MCP session ${i + 1}`);
      const names = (await session.client.listTools()).tools.map((t) => t.name);
      assert.ok(names.includes('devplug_second'), `MCP session ${i + 1}: tools/list has the new tool`);
    }
    // The new tool dispatches to the extension under its plugin/tool names.
    ext.on('tool.dispatch', (p) => ({ output: { plugin: p.plugin, tool: p.tool, input: p.input } }));
    const r = await s.callTool('devplug_second', { n: 7 });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(JSON.parse(r.body.content[0].text), { plugin: 'devplug', tool: 'second', input: { n: 7 } });
  });

  test('a broken rebuild (tools.json unparsable) is reported, the server keeps serving, and the fixed build is picked up by itself', async () => {
    const toolsPath = join(dir, 'dist', 'tools.json');
    const good = readFileSync(toolsPath, 'utf8');
    const detections = (await health(s)).fileWatcher.pollDetections;
    atomicWrite(toolsPath, '{"tools": [');
    await until(async () => (await health(s)).fileWatcher.pollDetections > detections, 'the watcher noticed the broken tools.json');
    // The reload the watcher starts reads the plugin off the io thread, so its outcome shows in
    // /health a moment after the detection does.
    let h;
    await until(async () => {
      h = await health(s);
      return h.failedPlugins.some((f) => f.path === dir);
    }, 'the broken plugin listed in failedPlugins');
    assert.equal(h.status, 'ok');
    const failed = h.failedPlugins.find((f) => f.path === dir);
    assert.match(failed.error, /dist\/tools\.json/);
    const rest = await restToolNames(s);
    assert.ok(rest.includes('browser_list_tabs'), 'GET /tools still answers');
    // The plugin failed to load, but its folder is still watched: the fix needs no /reload.
    atomicWrite(toolsPath, good);
    await until(async () => (await restToolNames(s)).includes('devplug_second'), 'devplug back after the fix, without POST /reload');
  });
});

describe('dev mode: plugins that appear later', () => {
  test('a configured local plugin built after start, and a new folder in localPluginDirs, load without POST /reload', async () => {
    const root = makePluginRoot();
    const later = join(root, 'later');
    const pluginsDir = join(root, 'many');
    writePlugin(join(pluginsDir, 'one'), { name: 'one', tools: [{ name: 'ping', input_schema: SCHEMA }] });
    const config = { ...pluginConfig(root, [later], ['later', 'one', 'two']), localPluginDirs: [pluginsDir] };
    const s = await startServer({ config, args: ['--dev'], env: { OPENTABS_MTIME_POLL_MS: POLL_MS } });
    try {
      const h0 = await health(s);
      assert.deepEqual(h0.pluginDetails.map((d) => d.name), ['one']);
      // Not there yet: skipped as by the original, not a failed plugin.
      assert.ok(!h0.failedPlugins.some((f) => f.path === later || f.specifier === later), JSON.stringify(h0.failedPlugins));
      const reloads = h0.reloadCount;
      writePlugin(later, { name: 'later', tools: [{ name: 'go', input_schema: SCHEMA }] });
      await until(async () => (await restToolNames(s)).includes('later_go'), 'the plugin built after start');
      writePlugin(join(pluginsDir, 'two'), { name: 'two', tools: [{ name: 'pong', input_schema: SCHEMA }] });
      await until(async () => (await restToolNames(s)).includes('two_pong'), 'the new folder in localPluginDirs');
      const h1 = await health(s);
      assert.deepEqual(h1.pluginDetails.map((d) => d.name).sort(), ['later', 'one', 'two']);
      assert.ok(h1.reloadCount > reloads);
      assert.equal(h1.fileWatcher.watchedPlugins, 3);
    } finally {
      await s.stop();
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('dev mode through OPENTABS_DEV=1', () => {
  test('the environment switch alone turns on the dist/ watcher and plugin.update', async () => {
    const root = makePluginRoot();
    const dir = join(root, 'envdev');
    writePlugin(dir, { name: 'envdev', tools: [{ name: 'only', input_schema: SCHEMA }] });
    const s = await startServer({ config: pluginConfig(root, [dir], ['envdev']), env: { OPENTABS_DEV: '1', OPENTABS_MTIME_POLL_MS: POLL_MS } });
    const ext = await new ExtensionClient(s, { connectionId: 'env-dev-conn' }).connect();
    try {
      await ext.waitFor((m) => m.method === 'sync.full');
      assert.equal((await health(s)).mode, 'dev');
      const { hash, file } = rebuildAdapter(dir, 'env dev');
      const update = await ext.waitFor((m) => m.method === 'plugin.update' && m.params.adapterHash === hash, 10_000);
      assert.equal(update.params.name, 'envdev');
      assert.equal(update.params.adapterFile, file);
    } finally {
      await ext.close();
      await s.stop();
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('production mode: the same rebuild is not pushed', () => {
  let s;
  let ext;
  let root;
  let dir;
  before(async () => {
    root = makePluginRoot();
    dir = join(root, 'prodplug');
    writePlugin(dir, { name: 'prodplug', tools: [{ name: 'first', input_schema: SCHEMA }] });
    s = await startServer({ config: pluginConfig(root, [dir], ['prodplug']), env: { OPENTABS_DEV: '0', OPENTABS_MTIME_POLL_MS: POLL_MS } });
    ext = await new ExtensionClient(s, { connectionId: 'prod-conn' }).connect();
    await ext.waitFor((m) => m.method === 'sync.full');
  });
  after(async () => {
    await ext?.close();
    await s?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  test('a rebuilt adapter neither reloads nor sends plugin.update; a later reload picks it up still without plugin.update', async () => {
    const h0 = await health(s);
    assert.equal(h0.mode, 'production');
    const original = ext.messages.find((m) => m.method === 'sync.full').params.plugins.find((p) => p.name === 'prodplug');
    const fullsBefore = ext.messages.filter((m) => m.method === 'sync.full').length;

    const { hash, file } = rebuildAdapter(dir, 'prod');
    // Two complete polls after the edit: a dev watcher would have fired by now.
    await pollTicks(s, 3);
    const h1 = await health(s);
    assert.equal(h1.reloadCount, h0.reloadCount, 'no reload for a dist/ change in production');
    assert.equal(h1.fileWatcher.pollDetections, h0.fileWatcher.pollDetections);
    assert.equal(ext.messages.filter((m) => m.method === 'sync.full').length, fullsBefore);
    assert.ok(existsSync(join(s.configDir, 'extension', original.adapterFile)), 'the old adapter copy is still served');

    // A config.json edit (watched in every mode) reloads: the new adapter arrives by sync.full only.
    const cfgPath = join(s.configDir, 'config.json');
    const cfg = JSON.parse(readFileSync(cfgPath, 'utf8'));
    cfg.settings = { ...(cfg.settings ?? {}) };
    atomicWrite(cfgPath, JSON.stringify(cfg, null, 2) + '\n');
    const full = await ext.next((m) => m.method === 'sync.full' && m.params.plugins.some((p) => p.name === 'prodplug' && p.adapterHash === hash), 10_000);
    assert.equal(full.params.plugins.find((p) => p.name === 'prodplug').adapterFile, file);
    // plugins.changed follows sync.full in the same reload; once it is here the reload's messages are all in.
    await ext.waitFor((m) => m.method === 'plugins.changed' && ext.messages.indexOf(m) > ext.messages.indexOf(full));
    assert.equal(ext.messages.filter((m) => m.method === 'plugin.update').length, 0, 'plugin.update is only sent by dev-mode file watchers');
  });
});

describe('config.json watcher', () => {
  let s;
  let ext;
  let mcp;
  let root;
  let dirA;
  let dirB;
  before(async () => {
    root = makePluginRoot();
    dirA = join(root, 'alpha');
    dirB = join(root, 'bravo');
    writePlugin(dirA, { name: 'alpha', tools: [{ name: 'ping', input_schema: SCHEMA }] });
    writePlugin(dirB, { name: 'bravo', tools: [{ name: 'pong', input_schema: SCHEMA }, { name: 'serve', input_schema: SCHEMA }] });
    s = await startServer({ config: pluginConfig(root, [dirA], ['alpha']), env: { OPENTABS_MTIME_POLL_MS: POLL_MS } });
    ext = await new ExtensionClient(s, { connectionId: 'cfg-conn' }).connect();
    await ext.waitFor((m) => m.method === 'sync.full');
    mcp = await connectMcp(s);
  });
  after(async () => {
    await mcp?.client.close();
    await ext?.close();
    await s?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  test('adding a local plugin to config.json on disk loads it without POST /reload', async () => {
    const names0 = await restToolNames(s);
    assert.ok(names0.includes('alpha_ping') && !names0.includes('bravo_pong'));
    const h0 = await health(s);
    const listChangedBefore = mcp.listChanged.length;

    atomicWrite(join(s.configDir, 'config.json'), JSON.stringify(pluginConfig(root, [dirA, dirB], ['alpha', 'bravo']), null, 2));
    const full = await ext.next((m) => m.method === 'sync.full' && m.params.plugins.some((p) => p.name === 'bravo'), 10_000);
    const bravo = full.params.plugins.find((p) => p.name === 'bravo');
    assert.equal(bravo.permission, 'auto');
    assert.deepEqual(bravo.tools.map((t) => t.name).sort(), ['pong', 'serve']);
    assert.ok(full.params.plugins.some((p) => p.name === 'alpha'), 'alpha stays loaded');
    assert.ok(existsSync(join(s.configDir, 'extension', bravo.adapterFile)), 'bravo adapter copied');

    const names1 = await restToolNames(s);
    for (const n of ['alpha_ping', 'bravo_pong', 'bravo_serve']) assert.ok(names1.includes(n), `GET /tools lists ${n}`);
    const h1 = await health(s);
    assert.equal(h1.plugins, 2);
    assert.ok(h1.reloadCount > h0.reloadCount);
    assert.ok(h1.fileWatcher.pollDetections > h0.fileWatcher.pollDetections, 'the reload came from the watcher');
    await until(() => mcp.listChanged.length > listChangedBefore, 'tools/list_changed');
    assert.ok((await mcp.client.listTools()).tools.some((t) => t.name === 'bravo_serve'));
  });

  test('an unparsable config.json keeps the last good state; the server keeps serving and recovers', async () => {
    const cfgPath = join(s.configDir, 'config.json');
    const h0 = await health(s);
    atomicWrite(cfgPath, '{"localPlugins": [ this is not json');
    await until(async () => (await health(s)).fileWatcher.pollDetections > h0.fileWatcher.pollDetections, 'the watcher noticed the broken config');
    // The bad file is seen once, not reloaded on every poll.
    const h1 = await health(s);
    await pollTicks(s, 3);
    const h2 = await health(s);
    assert.equal(h2.fileWatcher.pollDetections, h1.fileWatcher.pollDetections, 'a broken config.json is not re-read on every poll');
    assert.equal(h2.status, 'ok');
    assert.equal(h2.plugins, 2, 'both plugins still loaded');
    const names = await restToolNames(s);
    for (const n of ['alpha_ping', 'bravo_pong', 'bravo_serve']) assert.ok(names.includes(n), `GET /tools still lists ${n}`);
    // Calls still work with the last good permissions.
    ext.on('tool.dispatch', (p) => ({ output: { tool: p.tool } }));
    const r = await s.callTool('bravo_pong', { n: 1 });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(JSON.parse(r.body.content[0].text), { tool: 'pong' });
    // The failed reload's sync.full still carried both plugins.
    assert.deepEqual(ext.messages.filter((x) => x.method === 'sync.full').at(-1).params.plugins.map((p) => p.name).sort(), ['alpha', 'bravo']);
    // The broken file is not overwritten behind the user's back.
    assert.equal(readFileSync(cfgPath, 'utf8'), '{"localPlugins": [ this is not json');

    // Fixing it (dropping bravo) applies on the next poll.
    atomicWrite(cfgPath, JSON.stringify(pluginConfig(root, [dirA], ['alpha']), null, 2));
    await ext.next((m) => m.method === 'sync.full' && !m.params.plugins.some((p) => p.name === 'bravo'), 10_000);
    const after = await restToolNames(s);
    assert.ok(after.includes('alpha_ping') && !after.includes('bravo_pong'));
  });
});

describe('secret rotation through `opentabs config rotate-secret`', () => {
  let s;
  let ext;
  before(async () => {
    s = await startServer({ env: { OPENTABS_MTIME_POLL_MS: POLL_MS } });
    ext = await new ExtensionClient(s, { connectionId: 'rotate-conn' }).connect();
    await ext.waitFor((m) => m.method === 'sync.full');
  });
  after(async () => {
    await ext?.close();
    await s?.stop();
  });

  test('the old token is refused, the new one works, and the extension gets sync.full then extension.reload', async () => {
    const oldSecret = s.secret;
    const withToken = (t) => ({ headers: { Authorization: `Bearer ${t}` } });
    assert.equal((await s.fetch('/tools', withToken(oldSecret))).status, 200);
    const fullsBefore = ext.messages.filter((m) => m.method === 'sync.full').length;

    const started = Date.now();
    const r = await runCli(['config', 'rotate-secret', '--confirm'], { OPENTABS_CONFIG_DIR: s.configDir, OPENTABS_PORT: String(s.port) });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /new secret written to /);
    assert.match(r.stdout + r.stderr, /server reloaded/);
    assert.ok(!(r.stdout + r.stderr).includes(oldSecret), 'the CLI does not print the old secret');

    const newSecret = JSON.parse(readFileSync(join(s.configDir, 'extension', 'auth.json'), 'utf8')).secret;
    assert.match(newSecret, /^[0-9a-f]{64}$/);
    assert.notEqual(newSecret, oldSecret);
    assert.ok(!(r.stdout + r.stderr).includes(newSecret), 'the CLI does not print the new secret');

    const refused = await s.fetch('/tools', withToken(oldSecret));
    assert.equal(refused.status, 401);
    assert.ok(!(await refused.text()).includes(oldSecret));
    const ok = await s.fetch('/tools', withToken(newSecret));
    assert.equal(ok.status, 200);
    assert.ok((await ok.json()).some((t) => t.name === 'browser_list_tabs'));

    // Spec §2.3 / §6.8: sync.full, then (after 500 ms) extension.reload, to the connection
    // that authenticated with the old secret.
    const reload = await ext.waitFor((m) => m.method === 'extension.reload', 10_000);
    const reloadAt = Date.now();
    assert.equal(reload.id, undefined, 'extension.reload is a notification');
    const fullsAfter = ext.messages.filter((m) => m.method === 'sync.full').slice(fullsBefore);
    assert.ok(fullsAfter.length >= 1, 'the rotation reload sent sync.full');
    assert.ok(ext.messages.indexOf(fullsAfter[0]) < ext.messages.indexOf(reload), 'sync.full before extension.reload');
    // Lower bound only (it cannot flake): the 500 ms delay follows the reload the CLI triggered.
    assert.ok(reloadAt - started >= 500, `extension.reload ${reloadAt - started} ms after the CLI started`);

    // The extension comes back with the secret it re-reads from auth.json; the old one is refused.
    await assert.rejects(new ExtensionClient({ port: s.port, secret: oldSecret }, { connectionId: 'rotate-old' }).connect(), (e) => e.status === 401);
    const fresh = await new ExtensionClient({ port: s.port, secret: newSecret }, { connectionId: 'rotate-new' }).connect();
    try {
      const sync = await fresh.waitFor((m) => m.method === 'sync.full');
      assert.ok(Array.isArray(sync.params.plugins));
    } finally {
      await fresh.close();
    }

    // MCP clients need the new secret too.
    const stale = await s.fetch('/mcp', {
      method: 'POST',
      headers: { Authorization: `Bearer ${oldSecret}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '0' } } }),
    });
    assert.equal(stale.status, 401);
    const mcp = await connectMcp(s, newSecret);
    try {
      assert.ok((await mcp.client.listTools()).tools.some((t) => t.name === 'browser_list_tabs'));
    } finally {
      await mcp.client.close();
    }
  });
});
