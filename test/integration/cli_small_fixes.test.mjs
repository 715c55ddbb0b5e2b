// Issue 25 point 5, the CLI's rough edges a new user met, through the real binary: `logs
// --plugin` prints that plugin's lines and nothing else; `tool list --plugin nosuch` fails;
// `audit --since 5q` says what is wrong once; `stop` on a terminal prints its outcome once;
// `extension install` does not ask for a reload when nothing changed.  (`plugin search`
// with the registry's 404 is in plugin_management.test.mjs, next to its local registry.)
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort, OPENTABS_BIN } from './support/server.mjs';
import { cli, runBinary, cliEnv } from './support/cli.mjs';
import { ExtensionClient } from './support/extension_client.mjs';
import { until } from './support/until.mjs';

const fixtures = resolve(new URL('../fixtures/plugins', import.meta.url).pathname);

describe('CLI rough edges', () => {
  test('logs --plugin, tool list --plugin nosuch, audit --since 5q and stop on a terminal', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opentabs-cli-edges-'));
    const port = await freePort();
    const env = { OPENTABS_CONFIG_DIR: dir, OPENTABS_PORT: String(port) };
    writeFileSync(join(dir, 'config.json'), JSON.stringify({
      localPlugins: [join(fixtures, 'notes')],
      additionalAllowedDirectories: [fixtures],
      permissions: { 'fixture-notes': { permission: 'auto' } },
    }));
    const started = await cli(['start', '--background'], env);
    assert.equal(started.code, 0, started.stderr);
    let stopped = false;
    try {
      const secret = JSON.parse(readFileSync(join(dir, 'extension', 'auth.json'), 'utf8')).secret;
      const ext = await new ExtensionClient({ port, secret }, { connectionId: 'cli-edges' }).connect();
      ext.notify('plugin.log', { plugin: 'fixture-notes', level: 'info', message: 'first note saved', ts: Date.now() });
      ext.notify('plugin.log', { plugin: 'fixture-notes', level: 'warning', message: 'second note slow', data: { ms: 812 }, ts: Date.now() });
      await until(() => (readFileSync(join(dir, 'server.log'), 'utf8').match(/\[plugin:fixture-notes\]/g) ?? []).length === 2, 'both plugin lines in server.log');
      await ext.close();

      const logs = await cli(['logs', '--plugin', 'fixture-notes'], env);
      assert.equal(logs.code, 0, logs.stderr);
      const lines = logs.stdout.split('\n');
      assert.equal(lines.pop(), '', 'output ends with a newline');
      assert.equal(lines.length, 2, JSON.stringify(logs.stdout));
      assert.match(lines[0], /^\[plugin:fixture-notes\] .*first note saved/);
      assert.match(lines[1], /^\[plugin:fixture-notes\] .*second note slow \{"ms":812\}/);

      const tools = await cli(['tool', 'list', '--plugin', 'nosuch'], env);
      assert.equal(tools.code, 1);
      assert.equal(tools.stderr, "opentabs: no plugin named 'nosuch' is loaded; `opentabs plugin list` shows the installed plugins\n");

      const audit = await cli(['audit', '--since', '5q'], env);
      assert.equal(audit.code, 2);
      assert.equal(audit.stderr, 'opentabs: Invalid --since "5q": the unit must be s, m, h or d (e.g. 30m, 1h, 2d)\n');

      // `script` gives the command a terminal, where the spinner's line is its outcome.
      const stop = await runBinary('script', ['-qec', `${OPENTABS_BIN} stop`, '/dev/null'], cliEnv(env));
      stopped = stop.code === 0;
      assert.equal(stop.code, 0, stop.stdout);
      assert.equal((stop.stdout.match(/stopped opentabs \(pid \d+\)/g) ?? []).length, 1, JSON.stringify(stop.stdout));
    } finally {
      if (!stopped) await cli(['stop'], env);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('extension install twice: the second says nothing changed instead of asking for a reload', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opentabs-ext-install-'));
    try {
      const env = { OPENTABS_CONFIG_DIR: dir };
      const first = await cli(['extension', 'install'], env);
      assert.equal(first.code, 0, first.stderr);
      assert.match(first.stdout, /Load it in Chrome/);
      const second = await cli(['extension', 'install'], env);
      assert.equal(second.code, 0, second.stderr);
      assert.match(second.stdout, /\(0 files written, \d+ unchanged\)/);
      assert.match(second.stdout, /Nothing changed: the extension Chrome loads is already this version\./);
      assert.doesNotMatch(second.stdout, /Reload it/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
