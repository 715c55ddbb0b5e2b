// Plugin management over the extension channel (spec §3.5: plugin.search, plugin.install,
// plugin.updateFromRegistry, plugin.remove, plugin.removeBySpecifier, plugin.checkUpdates,
// folder.open) against the real binary, the real `npm` client and real plugin packages.
//
// Where npm gets its packages:
// * The public npm registry, for a published OpenTabs plugin (OPENTABS_REAL_PLUGIN_PACKAGE,
//   default @opentabs-dev/opentabs-plugin-slack) and `npm search`.  Probed once at the start;
//   when it cannot serve them (offline CI, or a mirror without @opentabs-dev packages, as in
//   this sandbox) those tests are skipped with the probe's answer printed.
// * A local registry on 127.0.0.1 (support/npm_registry.mjs) serving our fixture plugins
//   packed with `npm pack`: install, shorthand resolution, update, checkUpdates, remove and
//   removeBySpecifier run through the real npm client against it in every run.
// Globals go to a temporary prefix (npm_config_prefix), so `npm root -g` of the server points
// there; the npm cache is temporary too.  The extension side is the scripted ExtensionClient.
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { promisify } from 'node:util';
import { cli } from './support/cli.mjs';
import { ExtensionClient } from './support/extension_client.mjs';
import { startNpmRegistry } from './support/npm_registry.mjs';
import { startServer } from './support/server.mjs';

const exec = promisify(execFile);
const FIXTURES = new URL('../fixtures/plugins/', import.meta.url).pathname;
const REAL_PLUGIN = process.env.OPENTABS_REAL_PLUGIN_PACKAGE ?? '@opentabs-dev/opentabs-plugin-slack';
const NPM_WAIT_MS = 150_000; // the test's own bound on one npm-backed request (the server's is 60 s)
const HASH_RE = /\.__adapterHash="([0-9a-f]{64})"/;

let seq = 0;
/** Sends one request and waits for its answer (bounded; npm may take a while). */
function rpc(ext, method, params, timeoutMs = NPM_WAIT_MS) {
  const id = `pm-${++seq}`;
  const reply = ext.next((m) => m.id === id && m.method === undefined, timeoutMs);
  ext.send({ jsonrpc: '2.0', id, method, ...(params !== undefined ? { params } : {}) });
  return reply;
}

function firstNpmError(err) {
  const lines = String(err.stderr ?? err.message ?? err).split('\n').map((l) => l.replace(/^npm (error|ERR!) /, '').trim());
  return lines.find((l) => l && !l.startsWith('code ') && !l.startsWith('Unknown user config') && !l.includes('Unknown user config') && !l.startsWith('npm warn')) ?? String(err);
}

/** A temporary npm prefix whose lib/node_modules exists (npm root -g points at it). */
function makePrefix() {
  const dir = mkdtempSync(join(tmpdir(), 'opentabs-npm-'));
  mkdirSync(join(dir, 'prefix', 'lib', 'node_modules'), { recursive: true });
  mkdirSync(join(dir, 'cache'));
  return { dir, prefix: join(dir, 'prefix'), root: join(dir, 'prefix', 'lib', 'node_modules'), cache: join(dir, 'cache') };
}

function npmEnv(p, registry) {
  return {
    npm_config_prefix: p.prefix,
    npm_config_cache: p.cache,
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    ...(registry ? { npm_config_registry: registry } : {}),
    OPENTABS_SKIP_NPM_DISCOVERY: '0',
  };
}

async function connect(server) {
  const ext = new ExtensionClient(server);
  ext.uninstalls = [];
  ext.on('plugin.uninstall', (params) => {
    ext.uninstalls.push(params);
    return { success: true };
  });
  ext.on('tool.dispatch', (params) => ({ output: { plugin: params.plugin, tool: params.tool, input: params.input } }));
  await ext.connect();
  await ext.waitFor((m) => m.method === 'sync.full');
  return ext;
}

/**
 * The proof that an installed package loads unchanged: sync.full lists it with the tools of its
 * own dist/tools.json, adapterHash equals the hash embedded in its adapter, the adapter file
 * the extension injects is on disk, /tools lists every tool, no schema failed to compile, and
 * plugin_inspect returns the installed adapter source.
 */
async function verifyLoaded({ server, sync, pkgDir, pluginName, packageName }) {
  const installedTools = JSON.parse(readFileSync(join(pkgDir, 'dist', 'tools.json'), 'utf8'));
  const toolNames = (Array.isArray(installedTools) ? installedTools : installedTools.tools).map((t) => t.name).sort();
  const adapter = readFileSync(join(pkgDir, 'dist', 'adapter.iife.js'), 'utf8');
  const embedded = HASH_RE.exec(adapter)?.[1];
  assert.ok(embedded, 'the published adapter embeds its __adapterHash');

  const p = sync.params.plugins.find((x) => x.name === pluginName);
  assert.ok(p, `sync.full lists ${pluginName}`);
  assert.equal(p.source, 'npm');
  assert.equal(p.npmPackageName, packageName);
  assert.equal(p.sourcePath, realPath(pkgDir));
  assert.deepEqual(p.tools.map((t) => t.name).sort(), toolNames);
  assert.equal(p.adapterHash, embedded);
  assert.match(p.adapterFile, new RegExp(`^adapters/${pluginName}-[0-9a-f]{8}\\.js$`));
  const written = readFileSync(join(server.configDir, 'extension', p.adapterFile), 'utf8');
  assert.equal(HASH_RE.exec(written)?.[1], embedded, 'the adapter file carries the same hash');
  assert.ok(!sync.params.failedPlugins.some((f) => f.specifier === packageName), 'not among failedPlugins');

  const res = await server.fetch(`/tools?plugin=${encodeURIComponent(pluginName)}`);
  assert.equal(res.status, 200);
  const listed = await res.json();
  const prefix = new RegExp(`^${pluginName}_{1,2}`);
  assert.deepEqual(listed.map((t) => t.name.replace(prefix, '')).sort(), toolNames);
  for (const t of listed) {
    assert.equal(t.inputSchema?.type, 'object', `${t.name} has an object input schema`);
    assert.ok(t.inputSchema.properties?.tabId, `${t.name} has the injected tabId`);
  }
  assert.doesNotMatch(server.stderr, new RegExp(`plugin ${pluginName}: .*cannot be called`), 'every input schema compiled');

  const inspect = await server.callTool('plugin_inspect', { plugin: pluginName });
  assert.equal(inspect.status, 200);
  const report = JSON.parse(inspect.body.content[0].text);
  assert.equal(report.plugin, pluginName);
  assert.equal(report.version, p.version);
  assert.equal(report.npmPackage, packageName);
  assert.equal(report.adapterSource, adapter);
  assert.match(report.reviewToken, /^[0-9a-f-]{36}$/);
  return p;
}

const realPath = (p) => realpathSync(p);

// ---------------------------------------------------------------------------------------
// Probes of the public registry (once)
// ---------------------------------------------------------------------------------------

const probeDir = makePrefix();
// No retries: an offline machine answers at once instead of after npm's minute of retries.
const probeEnv = { ...process.env, ...npmEnv(probeDir), npm_config_fetch_retries: '0' };
async function probe(args) {
  try {
    const { stdout } = await exec('npm', args, { env: probeEnv, timeout: 30_000 });
    return { ok: true, stdout };
  } catch (err) {
    return { ok: false, reason: err.killed ? 'no answer within 30 s' : firstNpmError(err) };
  }
}
const [realView, realSearch, registryConfig] = await Promise.all([
  probe(['view', '--json', '--', REAL_PLUGIN, 'version']),
  probe(['search', '--json', '--searchlimit=5', '--', 'keywords:opentabs-plugin']),
  probe(['config', 'get', 'registry']),
]);
const registryName = registryConfig.stdout?.trim() || 'the npm registry';
const realSkip = realView.ok ? false : `${registryName} cannot serve ${REAL_PLUGIN}: ${realView.reason}`;
let searchSkip = realSearch.ok ? false : `${registryName} has no working search: ${realSearch.reason}`;
if (!searchSkip) {
  try {
    if (!JSON.parse(realSearch.stdout).length) searchSkip = `${registryName} search found no opentabs-plugin packages`;
  } catch {
    searchSkip = `${registryName} search printed no JSON list`;
  }
}
if (realSkip) console.log(`# skipping the public-registry install test: ${realSkip}`);
if (searchSkip) console.log(`# skipping the public-registry search test: ${searchSkip}`);
rmSync(probeDir.dir, { recursive: true, force: true });

describe('public npm registry: a published OpenTabs plugin', () => {
  let server, ext, npmDir;
  before(async () => {
    if (realSkip && searchSkip) return;
    npmDir = makePrefix();
    server = await startServer({ env: npmEnv(npmDir) });
    ext = await connect(server);
  });
  after(async () => {
    await ext?.close();
    await server?.stop();
    if (npmDir) rmSync(npmDir.dir, { recursive: true, force: true });
  });

  test('plugin.search returns real plugins', { skip: searchSkip }, async () => {
    const reply = await rpc(ext, 'plugin.search', { query: '' });
    assert.equal(reply.error, undefined, JSON.stringify(reply.error));
    assert.ok(reply.result.results.length > 0);
    for (const r of reply.result.results) {
      assert.match(r.name, /^(@[a-z0-9-~][a-z0-9-._~]*\/)?opentabs-plugin-/);
      for (const k of ['name', 'displayName', 'description', 'version', 'author', 'iconSvg', 'iconDarkSvg']) assert.equal(typeof r[k], 'string', k);
    }
  });

  test(`plugin.install ${REAL_PLUGIN} loads the published build unchanged; plugin.remove takes it away`, { skip: realSkip }, async () => {
    const pluginName = REAL_PLUGIN.replace(/^@opentabs-dev\//, '').replace(/^@([^/]+)\/opentabs-plugin-/, '$1-').replace(/^opentabs-plugin-/, '');
    const synced = ext.next((m) => m.method === 'sync.full' && m.params.plugins.some((p) => p.name === pluginName), NPM_WAIT_MS);
    const reply = await rpc(ext, 'plugin.install', { name: REAL_PLUGIN });
    assert.equal(reply.error, undefined, JSON.stringify(reply.error));
    assert.equal(reply.result.ok, true);
    assert.equal(reply.result.plugin.name, pluginName);
    const sync = await synced;
    const p = await verifyLoaded({ server, sync, pkgDir: join(npmDir.root, REAL_PLUGIN), pluginName, packageName: REAL_PLUGIN });
    assert.equal(reply.result.plugin.toolCount, p.tools.length);
    assert.equal(reply.result.plugin.version, p.version);

    const gone = ext.next((m) => m.method === 'sync.full' && !m.params.plugins.some((x) => x.name === pluginName), NPM_WAIT_MS);
    const removed = await rpc(ext, 'plugin.remove', { name: pluginName });
    assert.deepEqual(removed.result, { ok: true });
    await gone;
    assert.ok(ext.uninstalls.some((u) => u.name === pluginName));
    assert.equal(existsSync(join(npmDir.root, REAL_PLUGIN)), false);
  });
});

// ---------------------------------------------------------------------------------------
// Local registry: every operation through the real npm client
// ---------------------------------------------------------------------------------------

describe('plugin management through npm (local registry)', () => {
  let registry, server, ext, npmDir, openerLog, missingLocal;
  const notesTools = JSON.parse(readFileSync(join(FIXTURES, 'notes', 'dist', 'tools.json'), 'utf8')).tools;

  before(async () => {
    registry = await startNpmRegistry();
    await registry.publish(join(FIXTURES, 'notes'));
    await registry.publish(join(FIXTURES, 'tracker'));
    // A package that claims to be a plugin but ships no build: loads as a failed plugin.
    await registry.publish(join(FIXTURES, 'notes'), {
      edit: (pj) => {
        pj.name = 'opentabs-plugin-fixture-broken';
        pj.version = '0.1.0';
        pj.description = 'A package with an opentabs field but no build (dist/ left out).';
        pj.opentabs.displayName = 'Fixture Broken';
      },
      remove: ['dist'],
    });
    npmDir = makePrefix();
    openerLog = join(npmDir.dir, 'opened.txt');
    const opener = join(npmDir.dir, 'record-opener.sh');
    // Stand-in for xdg-open (no desktop here): records what it was asked to open.
    writeFileSync(opener, `#!/bin/sh\nprintf '%s\\n' "$@" >> '${openerLog}'\n`);
    chmodSync(opener, 0o755);
    // A folder that is there but holds no plugin: a failed plugin (a path that is not there
    // at all is skipped without a failedPlugins entry, as by the original).
    missingLocal = join(npmDir.dir, 'not-a-plugin');
    mkdirSync(missingLocal, { recursive: true });
    server = await startServer({
      env: { ...npmEnv(npmDir, registry.url), OPENTABS_FOLDER_OPENER: opener },
      config: { localPlugins: [missingLocal], localPluginDirs: [], permissions: {}, settings: {}, version: 3 },
    });
    ext = await connect(server);
  });
  after(async () => {
    await ext?.close();
    await server?.stop();
    await registry?.close();
    if (npmDir) rmSync(npmDir.dir, { recursive: true, force: true });
  });

  test('plugin.search: npm search over keywords:opentabs-plugin, display names and icons from each manifest', async () => {
    const reply = await rpc(ext, 'plugin.search', { query: 'notes' });
    assert.equal(reply.error, undefined, JSON.stringify(reply.error));
    assert.deepEqual(reply.result.results.map((r) => r.name), ['opentabs-plugin-fixture-notes']);
    const [hit] = reply.result.results;
    assert.equal(hit.displayName, 'Fixture Notes');
    assert.equal(hit.version, '1.0.0');
    assert.equal(hit.author, 'fixture-publisher');
    assert.match(hit.description, /Test fixture plugin/);
    assert.match(hit.iconSvg, /^<svg /);
    assert.match(hit.iconDarkSvg, /^<svg /);
    assert.ok(registry.requests.some((r) => r.path === '/-/v1/search' && r.search.includes('text=keywords%3Aopentabs-plugin+notes')));

    const all = await rpc(ext, 'plugin.search', {});
    assert.deepEqual(all.result.results.map((r) => r.name).sort(), ['@fixture/opentabs-plugin-tracker', 'opentabs-plugin-fixture-broken', 'opentabs-plugin-fixture-notes']);
    const tracker = all.result.results.find((r) => r.name === '@fixture/opentabs-plugin-tracker');
    assert.equal(tracker.displayName, 'Fixture Tracker');
    assert.equal(tracker.iconSvg, '', 'tracker ships no icons');
  });

  test('a search the registry answers with 404 is an empty result, in the side panel and in `plugin search`', async () => {
    registry.setSearchStatus(404);
    try {
      const reply = await rpc(ext, 'plugin.search', { query: 'nothing-matches' });
      assert.equal(reply.error, undefined, JSON.stringify(reply.error));
      assert.deepEqual(reply.result, { results: [] });
      const r = await cli(['plugin', 'search', 'nothing-matches'], { ...npmEnv(npmDir, registry.url), OPENTABS_CONFIG_DIR: server.configDir });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 'No plugins found matching "nothing-matches"\n');
      assert.doesNotMatch(r.stderr, /E404/);
    } finally {
      registry.setSearchStatus(200);
    }
  });

  test('plugin.install shorthand: @opentabs-dev/opentabs-plugin-<x> first, then opentabs-plugin-<x>; the plugin loads unchanged', async () => {
    const synced = ext.next((m) => m.method === 'sync.full' && m.params.plugins.some((p) => p.name === 'fixture-notes'), NPM_WAIT_MS);
    const changed = ext.next((m) => m.method === 'plugins.changed' && m.params.plugins.some((p) => p.name === 'fixture-notes'), NPM_WAIT_MS);
    const seen = registry.requests.length;
    const reply = await rpc(ext, 'plugin.install', { name: 'fixture-notes' });
    assert.equal(reply.error, undefined, JSON.stringify(reply.error));
    assert.deepEqual(reply.result, {
      ok: true,
      plugin: { name: 'fixture-notes', displayName: 'Fixture Notes', version: '1.0.0', toolCount: notesTools.length },
    });
    const asked = registry.requests.slice(seen).map((r) => r.path);
    assert.ok(asked.indexOf('/@opentabs-dev/opentabs-plugin-fixture-notes') >= 0, 'the official scope was tried first');
    assert.ok(asked.indexOf('/@opentabs-dev/opentabs-plugin-fixture-notes') < asked.indexOf('/opentabs-plugin-fixture-notes'));
    const sync = await synced;
    await changed;
    await verifyLoaded({
      server,
      sync,
      pkgDir: join(npmDir.root, 'opentabs-plugin-fixture-notes'),
      pluginName: 'fixture-notes',
      packageName: 'opentabs-plugin-fixture-notes',
    });
  });

  test('the installed plugin is callable: validation against its compiled schemas, dispatch to the extension', async () => {
    const enabled = await rpc(ext, 'config.setPluginPermission', { plugin: 'fixture-notes', permission: 'auto', reviewedVersion: '1.0.0' });
    assert.deepEqual(enabled.result, { ok: true });
    const tools = await (await server.fetch('/tools?plugin=fixture-notes')).json();
    const echo = tools.find((t) => /^fixture-notes_{1,2}echo$/.test(t.name)).name;
    const bad = await server.callTool(echo, { message: 5 });
    assert.equal(bad.status, 422);
    assert.match(bad.body.content[0].text, /Invalid arguments/);
    const good = await server.callTool(echo, { message: 'hello' });
    assert.equal(good.status, 200, JSON.stringify(good.body));
    assert.deepEqual(JSON.parse(good.body.content[0].text), { plugin: 'fixture-notes', tool: 'echo', input: { message: 'hello' } });
  });

  test('plugin.install of a scoped package name; health lists both npm plugins', async () => {
    const reply = await rpc(ext, 'plugin.install', { name: '@fixture/opentabs-plugin-tracker' });
    assert.equal(reply.error, undefined, JSON.stringify(reply.error));
    assert.equal(reply.result.plugin.name, 'fixture-tracker');
    assert.equal(reply.result.plugin.version, '0.3.1');
    const health = await (await server.fetch('/health')).json();
    const npmPlugins = health.pluginDetails.filter((d) => d.source === 'npm').map((d) => d.name).sort();
    assert.deepEqual(npmPlugins, ['fixture-notes', 'fixture-tracker']);
  });

  test('two installs at once: the second is refused as busy with retryAfterMs, the first completes', async () => {
    const first = rpc(ext, 'plugin.install', { name: 'opentabs-plugin-fixture-notes' });
    const second = rpc(ext, 'plugin.install', { name: '@fixture/opentabs-plugin-tracker' });
    const busy = await second;
    assert.equal(busy.error.code, -32603);
    assert.match(busy.error.message, /Another plugin operation is in progress \(install opentabs-plugin-fixture-notes\)/);
    assert.equal(typeof busy.error.data.retryAfterMs, 'number');
    const done = await first;
    assert.equal(done.result.ok, true);
  });

  test('plugin.checkUpdates finds a newer published version; plugin.updateFromRegistry installs it', async () => {
    const none = await rpc(ext, 'plugin.checkUpdates');
    assert.deepEqual(none.result, { outdatedPlugins: [] });
    await registry.publish(join(FIXTURES, 'notes'), { version: '1.0.1' });
    const check = await rpc(ext, 'plugin.checkUpdates');
    assert.deepEqual(check.result, {
      outdatedPlugins: [
        {
          name: 'opentabs-plugin-fixture-notes',
          currentVersion: '1.0.0',
          latestVersion: '1.0.1',
          updateCommand: 'npm update -g opentabs-plugin-fixture-notes',
        },
      ],
    });
    const synced = ext.next((m) => m.method === 'sync.full' && m.params.plugins.some((p) => p.name === 'fixture-notes' && p.version === '1.0.1'), NPM_WAIT_MS);
    const reply = await rpc(ext, 'plugin.updateFromRegistry', { name: 'fixture-notes' });
    assert.equal(reply.error, undefined, JSON.stringify(reply.error));
    assert.deepEqual(reply.result.plugin, { name: 'fixture-notes', displayName: 'Fixture Notes', version: '1.0.1', toolCount: notesTools.length });
    await synced;
    const installed = JSON.parse(readFileSync(join(npmDir.root, 'opentabs-plugin-fixture-notes', 'package.json'), 'utf8'));
    assert.equal(installed.version, '1.0.1');
    assert.deepEqual((await rpc(ext, 'plugin.checkUpdates')).result, { outdatedPlugins: [] });
  });

  test('plugin.remove: npm uninstall, sync.full without it, plugin.uninstall sent to the extension, tools gone', async () => {
    const gone = ext.next((m) => m.method === 'sync.full' && !m.params.plugins.some((p) => p.name === 'fixture-notes'), NPM_WAIT_MS);
    const reply = await rpc(ext, 'plugin.remove', { name: 'fixture-notes' });
    assert.deepEqual(reply.result, { ok: true });
    await gone;
    assert.deepEqual(ext.uninstalls.map((u) => u.name), ['fixture-notes']);
    assert.equal(existsSync(join(npmDir.root, 'opentabs-plugin-fixture-notes')), false);
    const tools = await (await server.fetch('/tools?plugin=fixture-notes')).json();
    assert.deepEqual(tools, []);
    // The scoped one by its package name.
    const scoped = await rpc(ext, 'plugin.remove', { name: '@fixture/opentabs-plugin-tracker' });
    assert.deepEqual(scoped.result, { ok: true });
    assert.equal(existsSync(join(npmDir.root, '@fixture', 'opentabs-plugin-tracker')), false);
  });

  test('a package that is not a loadable plugin: install says why; removeBySpecifier uninstalls it', async () => {
    const reply = await rpc(ext, 'plugin.install', { name: 'opentabs-plugin-fixture-broken' });
    assert.equal(reply.error.code, -32603);
    assert.match(reply.error.message, /^Package "opentabs-plugin-fixture-broken" was installed but could not be loaded as an OpenTabs plugin: .+/);
    const state = await rpc(ext, 'config.getState');
    assert.ok(state.result.failedPlugins.some((f) => f.specifier === 'opentabs-plugin-fixture-broken'));
    const synced = ext.next((m) => m.method === 'sync.full' && !m.params.failedPlugins.some((f) => f.specifier === 'opentabs-plugin-fixture-broken'), NPM_WAIT_MS);
    const removed = await rpc(ext, 'plugin.removeBySpecifier', { specifier: 'opentabs-plugin-fixture-broken' });
    assert.deepEqual(removed.result, { ok: true });
    await synced;
    assert.equal(existsSync(join(npmDir.root, 'opentabs-plugin-fixture-broken')), false);
  });

  test('removeBySpecifier drops a failed localPlugins entry from config.json', async () => {
    const before = await rpc(ext, 'config.getState');
    assert.ok(before.result.failedPlugins.some((f) => f.specifier === missingLocal));
    const removed = await rpc(ext, 'plugin.removeBySpecifier', { specifier: missingLocal });
    assert.deepEqual(removed.result, { ok: true });
    const cfg = JSON.parse(readFileSync(join(server.configDir, 'config.json'), 'utf8'));
    assert.deepEqual(cfg.localPlugins, []);
    const after = await rpc(ext, 'config.getState');
    assert.ok(!after.result.failedPlugins.some((f) => f.specifier === missingLocal));
  });

  test('bad names and unknown plugins are −32602 and never reach npm', async () => {
    const before = registry.requests.length;
    const cases = [
      ['plugin.install', {}, /name must be a non-empty string/],
      ['plugin.install', { name: 42 }, /name must be a non-empty string/],
      ['plugin.install', { name: '--global' }, /Invalid plugin name/],
      ['plugin.install', { name: '../../etc/passwd' }, /Invalid plugin name/],
      ['plugin.install', { name: 'Slack' }, /Invalid plugin name/],
      ['plugin.install', { name: '@scope/not-a-plugin' }, /Invalid plugin name/],
      ['plugin.install', { name: 'opentabs-plugin-x;rm -rf ~' }, /Invalid plugin name/],
      ['plugin.install', { name: 'https://example.invalid/evil.tgz' }, /Invalid plugin name/],
      ['plugin.install', { name: 'x'.repeat(300) }, /at most 214 characters/],
      ['plugin.updateFromRegistry', { name: 'not-installed' }, /Plugin "not-installed" is not currently installed/],
      ['plugin.remove', { name: 'not-installed' }, /Plugin "not-installed" is not currently installed/],
      ['plugin.remove', { name: '../../etc' }, /Invalid plugin name/],
      ['plugin.removeBySpecifier', { specifier: 'opentabs-plugin-never-failed' }, /No failed plugin has the specifier/],
      ['plugin.removeBySpecifier', {}, /specifier must be a non-empty string/],
      ['plugin.search', { query: 5 }, /query must be a string if provided/],
      ['plugin.search', { query: 'x'.repeat(201) }, /longer than 200 characters/],
      ['folder.open', {}, /path must be a non-empty string/],
      ['folder.open', { path: 'relative/dir' }, /path must be an absolute path/],
    ];
    for (const [method, params, want] of cases) {
      const reply = await rpc(ext, method, params);
      assert.equal(reply.error?.code, -32602, `${method} ${JSON.stringify(params).slice(0, 80)} → ${JSON.stringify(reply)}`);
      assert.match(reply.error.message, want);
    }
    assert.equal(registry.requests.length, before, 'npm was not asked anything');
  });

  test('folder.open: an existing folder goes to the opener; missing folders and files are −32603', async () => {
    const dir = join(npmDir.dir, 'a folder with spaces');
    mkdirSync(dir);
    const ok = await rpc(ext, 'folder.open', { path: dir });
    assert.deepEqual(ok.result, { ok: true });
    assert.equal(readFileSync(openerLog, 'utf8'), `${realPath(dir)}\n`);
    const missing = await rpc(ext, 'folder.open', { path: join(npmDir.dir, 'nope') });
    assert.equal(missing.error.code, -32603);
    assert.match(missing.error.message, /^Folder does not exist: /);
    const file = await rpc(ext, 'folder.open', { path: openerLog });
    assert.equal(file.error.code, -32603);
    assert.match(file.error.message, /^Not a folder: /);
  });

  test('an answer for a connection that went away is dropped; the server keeps serving', async () => {
    const other = await connect(server);
    const id = 'pm-gone';
    other.send({ jsonrpc: '2.0', id, method: 'plugin.search', params: { query: 'tracker' } });
    await other.close();
    // The same search from the remaining connection still works.
    const reply = await rpc(ext, 'plugin.search', { query: 'tracker' });
    assert.deepEqual(reply.result.results.map((r) => r.name), ['@fixture/opentabs-plugin-tracker']);
    assert.equal((await server.fetch('/health')).status, 200);
  });

  test('the periodic update check announces a newer version in the `update` fields; updating clears them', async () => {
    // Its own server and npm prefix, with update checks every second (knob) instead of
    // every updateCheckIntervalMinutes.
    const dir = makePrefix();
    const watcher = await startServer({ env: { ...npmEnv(dir, registry.url), OPENTABS_UPDATE_CHECK_INTERVAL_MS: '1000' } });
    const wext = await connect(watcher);
    try {
      const installed = await rpc(wext, 'plugin.install', { name: '@fixture/opentabs-plugin-tracker' });
      assert.equal(installed.error, undefined, JSON.stringify(installed.error));
      const current = installed.result.plugin.version;
      const next = current.replace(/\d+$/, (n) => String(Number(n) + 1));
      const announced = wext.next((m) => m.method === 'plugins.changed' &&
        m.params.plugins.some((p) => p.name === 'fixture-tracker' && p.update?.latestVersion === next), NPM_WAIT_MS);
      await registry.publish(join(FIXTURES, 'tracker'), { version: next });
      const changed = await announced;
      assert.deepEqual(changed.params.plugins.find((p) => p.name === 'fixture-tracker').update,
        { latestVersion: next, updateCommand: 'npm update -g @fixture/opentabs-plugin-tracker' });
      // sync.full carries it too (after a reload, which itself runs no check).
      const synced = wext.next((m) => m.method === 'sync.full', NPM_WAIT_MS);
      assert.equal((await watcher.fetch('/reload', { method: 'POST' })).status, 200);
      assert.equal((await synced).params.plugins.find((p) => p.name === 'fixture-tracker').update.latestVersion, next);
      const updated = await rpc(wext, 'plugin.updateFromRegistry', { name: 'fixture-tracker' });
      assert.equal(updated.error, undefined, JSON.stringify(updated.error));
      assert.equal(updated.result.plugin.version, next);
      const state = await rpc(wext, 'config.getState');
      const entry = state.result.plugins.find((p) => p.name === 'fixture-tracker');
      assert.equal(entry.version, next);
      assert.equal(entry.update, undefined, 'no update once installed');
    } finally {
      await wext.close();
      await watcher.stop();
      rmSync(dir.dir, { recursive: true, force: true });
    }
  });
});

// ---------------------------------------------------------------------------------------
// A registry that cannot be reached: clear errors, never a hang
// ---------------------------------------------------------------------------------------

describe('unreachable registry (127.0.0.1:9, nothing listens)', () => {
  const UNREACHABLE = 'http://127.0.0.1:9/';
  let refused, slow, noNpm, registry, dirs = [];

  before(async () => {
    // refused: npm gives up at once (no retries) → npm's own ECONNREFUSED.
    const a = makePrefix();
    dirs.push(a);
    // One plugin already installed (from the local registry) so checkUpdates has work.
    registry = await startNpmRegistry();
    await registry.publish(join(FIXTURES, 'notes'));
    await exec('npm', ['install', '--global', '--no-audit', '--no-fund', '--', 'opentabs-plugin-fixture-notes'], {
      env: { ...process.env, ...npmEnv(a, registry.url) },
    });
    await registry.close();
    registry = null;
    const failing = join(a.dir, 'failing-opener.sh');
    writeFileSync(failing, '#!/bin/sh\necho "no method available for opening it" >&2\nexit 4\n');
    chmodSync(failing, 0o755);
    refused = await startServer({ env: { ...npmEnv(a, UNREACHABLE), npm_config_fetch_retries: '0', OPENTABS_FOLDER_OPENER: failing } });
    refused.ext = await connect(refused);

    // slow: npm would retry for about a minute; the server's deadline (knob: 1.5 s) stops it.
    const b = makePrefix();
    dirs.push(b);
    slow = await startServer({
      env: { ...npmEnv(b, UNREACHABLE), OPENTABS_NPM_TIMEOUT_MS: '1500', OPENTABS_NPM_QUERY_TIMEOUT_MS: '1500' },
    });
    slow.ext = await connect(slow);

    // noNpm: npm is not on the server's PATH.
    noNpm = await startServer({ env: { PATH: '/nonexistent', OPENTABS_FOLDER_OPENER: '/nonexistent/xdg-open' } });
    noNpm.ext = await connect(noNpm);
  });
  after(async () => {
    for (const s of [refused, slow, noNpm]) {
      await s?.ext?.close();
      await s?.stop();
    }
    await registry?.close();
    for (const d of dirs) rmSync(d.dir, { recursive: true, force: true });
  });

  test('install: −32603 saying the registry could not be reached, with npm\'s code', async () => {
    const reply = await rpc(refused.ext, 'plugin.install', { name: 'opentabs-plugin-fixture-tracker' });
    assert.equal(reply.error.code, -32603);
    assert.match(reply.error.message, /^npm install opentabs-plugin-fixture-tracker failed: the npm registry could not be reached \(.*ECONNREFUSED/);
    assert.equal(reply.error.data.npmErrorCode, 'ECONNREFUSED');
  });

  test('search and checkUpdates: −32603 with the reason', async () => {
    const search = await rpc(refused.ext, 'plugin.search', { query: 'x' });
    assert.equal(search.error.code, -32603);
    assert.match(search.error.message, /could not be reached/);
    const sync = await refused.ext.waitFor((m) => m.method === 'sync.full');
    assert.ok(sync.params.plugins.some((p) => p.name === 'fixture-notes' && p.source === 'npm'), 'the pre-installed plugin was discovered');
    const check = await rpc(refused.ext, 'plugin.checkUpdates');
    assert.equal(check.error.code, -32603);
    assert.match(check.error.message, /^Could not check for plugin updates: npm view opentabs-plugin-fixture-notes failed: the npm registry could not be reached/);
  });

  test('a hanging npm is stopped at the deadline: −32603 "timed out", for install and search', async () => {
    const install = await rpc(slow.ext, 'plugin.install', { name: 'fixture-notes' });
    assert.equal(install.error.code, -32603);
    assert.match(install.error.message, /^npm install @opentabs-dev\/opentabs-plugin-fixture-notes timed out after 1500 ms and was stopped; is the npm registry reachable/);
    const search = await rpc(slow.ext, 'plugin.search', {});
    assert.equal(search.error.code, -32603);
    assert.match(search.error.message, /^npm search timed out after 1500 ms/);
    // Nothing of that npm is left running.
    const { stdout } = await exec('ps', ['-eo', 'args']);
    assert.doesNotMatch(stdout, /npm install --global --no-audit --no-fund --no-update-notifier -- @opentabs-dev\/opentabs-plugin-fixture-notes/);
    // And the server still answers.
    assert.equal((await slow.fetch('/health')).status, 200);
  });

  test('npm missing from PATH, opener missing or failing: −32603 naming the program', async () => {
    const search = await rpc(noNpm.ext, 'plugin.search', {});
    assert.equal(search.error.code, -32603);
    assert.match(search.error.message, /^npm is not installed or not on the server's PATH/);
    const open = await rpc(noNpm.ext, 'folder.open', { path: tmpdir() });
    assert.equal(open.error.code, -32603);
    assert.match(open.error.message, /^Cannot open folders on this machine: \/nonexistent\/xdg-open is not installed/);
    const failing = await rpc(refused.ext, 'folder.open', { path: tmpdir() });
    assert.equal(failing.error.code, -32603);
    assert.match(failing.error.message, /could not open .* \(exit 4\): no method available for opening it$/);
  });
});
