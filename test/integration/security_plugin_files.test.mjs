// Special files in a plugin folder (issue 24, findings 4 and 5), against the real binary:
// a FIFO as package.json, dist/tools.json as a symbolic link to /dev/ptmx, and
// dist/adapter.iife.js as a symbolic link to a private file outside the folder.  The server
// must start and answer, fail exactly those plugins with a reason that names the file and the
// rule, keep loading the good ones (a link that stays inside its folder is fine), and copy no
// byte of the private file into the extension's adapters.  audit.log as a symbolic link is
// not followed either.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from './support/server.mjs';
import { pluginCopy } from './support/plugin_copy.mjs';

const PRIVATE_MARKER = 'PRIVATE-KEY-MATERIAL-9f1c';

const fetchJson = async (server, path, init) => {
  const res = await server.fetch(path, { ...init, signal: AbortSignal.timeout(10_000) });
  return { status: res.status, body: await res.json() };
};

describe('plugin folders with special files', () => {
  let root;
  let server;
  const dirs = {};

  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'opentabs-special-files-'));
    const privateFile = join(root, 'id_rsa');
    writeFileSync(privateFile, `${PRIVATE_MARKER}\n`, { mode: 0o600 });

    dirs.fifo = pluginCopy(root, 'fifo-package');
    unlinkSync(join(dirs.fifo, 'package.json'));
    assert.equal(spawnSync('mkfifo', [join(dirs.fifo, 'package.json')]).status, 0);

    dirs.device = pluginCopy(root, 'device-tools');
    unlinkSync(join(dirs.device, 'dist/tools.json'));
    symlinkSync('/dev/ptmx', join(dirs.device, 'dist/tools.json'));

    dirs.leak = pluginCopy(root, 'leaking-adapter');
    unlinkSync(join(dirs.leak, 'dist/adapter.iife.js'));
    symlinkSync(privateFile, join(dirs.leak, 'dist/adapter.iife.js'));

    dirs.inside = pluginCopy(root, 'inside-link');
    mkdirSync(join(dirs.inside, 'build'));
    renameSync(join(dirs.inside, 'dist/adapter.iife.js'), join(dirs.inside, 'build/adapter.js'));
    symlinkSync('../build/adapter.js', join(dirs.inside, 'dist/adapter.iife.js'));

    const configDir = join(root, 'config');
    mkdirSync(configDir, { mode: 0o700 });
    const auditTarget = join(root, 'audit-target.txt');
    writeFileSync(auditTarget, 'untouched\n');
    symlinkSync(auditTarget, join(configDir, 'audit.log'));
    server = await startServer({
      configDir,
      config: { localPlugins: Object.values(dirs), permissions: { browser: { permission: 'auto' } }, version: 3, updateCheckIntervalMinutes: 0 },
    });
  });

  after(async () => {
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  test('the server answers; exactly the plugins with special files fail, each with its reason', async () => {
    const health = await fetchJson(server, '/health');
    assert.equal(health.status, 200);
    const failed = Object.fromEntries(health.body.failedPlugins.map((f) => [f.path, f.error]));
    assert.match(failed[dirs.fifo] ?? '', /package\.json:? is a FIFO; a plugin may contain only regular files/);
    assert.match(failed[dirs.device] ?? '', /dist\/tools\.json:? .*(leads out of the plugin folder|is a device)/);
    assert.match(failed[dirs.leak] ?? '', /dist\/adapter\.iife\.js:? is a symbolic link that leads out of the plugin folder/);
    assert.equal(failed[dirs.inside], undefined, `a link inside the folder is fine: ${failed[dirs.inside]}`);
    assert.ok(health.body.pluginDetails.some((p) => /inside-link/.test(p.name)), 'the plugin with an inside link loaded');
  });

  test('/reload returns and no byte of the private file reaches the extension folder', async () => {
    const reload = await fetchJson(server, '/reload', { method: 'POST' });
    assert.equal(reload.status, 200);
    const adapters = join(server.configDir, 'extension', 'adapters');
    for (const f of readdirSync(adapters)) assert.ok(!readFileSync(join(adapters, f), 'utf8').includes(PRIVATE_MARKER), f);
  });

  test('audit.log as a symbolic link is not followed', async () => {
    await server.callTool('browser_list_tabs');
    assert.equal(readFileSync(join(root, 'audit-target.txt'), 'utf8'), 'untouched\n');
  });
});
