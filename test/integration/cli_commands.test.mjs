// The `opentabs` CLI against a live server (the real binary on an ephemeral port) with a
// WebSocket client playing the extension: status, tool list/schema/call end to end, audit
// (server and --file), config set round trips through config.json and /reload, config
// show/path/rotate-secret, doctor, logs, plugin list/create, and every kind of bad input
// (unknown command or flag, bad JSON with its position, unknown tool with the closest
// names, huge --params-file, no server, wrong secret) — each a clear message and a
// non-zero exit.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, OPENTABS_BIN, freePort } from './support/server.mjs';
import { ExtensionClient } from './support/extension_client.mjs';

/** Runs the CLI; resolves {code, stdout, stderr}. */
function cli(args, { env = {}, input, cwd } = {}) {
  return new Promise((resolve) => {
    const child = spawn(OPENTABS_BIN, args, {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...env },
      cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.stdin.on('error', () => {});
    if (input !== undefined) child.stdin.end(input);
    else child.stdin.end();
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('opentabs CLI against a live server', () => {
  let s;
  let env;
  let ext;
  before(async () => {
    s = await startServer({ config: { permissions: { browser: { permission: 'auto' } } } });
    env = { OPENTABS_CONFIG_DIR: s.configDir, OPENTABS_PORT: String(s.port) };
    ext = await new ExtensionClient(s, { connectionId: 'cli-test' }).connect();
    ext.on('browser.listTabs', () => [{ id: 7, title: 'Example', url: 'https://example.com/', active: true, windowId: 1 }]);
  });
  after(async () => {
    await ext.close();
    await s.stop();
  });

  test('--help, --version and per-command help exit 0', async () => {
    const help = await cli(['--help'], { env });
    assert.equal(help.code, 0);
    assert.match(help.stdout, /tool call/);
    assert.match(help.stdout, /config rotate-secret/);
    const v = await cli(['--version'], { env });
    assert.equal(v.code, 0);
    assert.match(v.stdout.trim(), /^\d+\.\d+\.\d+$/);
    for (const args of [['start', '--help'], ['tool', 'call', '--help'], ['config', '--help'], ['audit', '-h']]) {
      const r = await cli(args, { env });
      assert.equal(r.code, 0, args.join(' '));
      assert.match(r.stdout, /Usage: opentabs/);
    }
  });

  test('unknown commands and flags: did-you-mean and exit 2', async () => {
    const r = await cli(['stauts'], { env });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /unknown command 'stauts'; did you mean 'status'\?/);
    const sub = await cli(['tool', 'lst'], { env });
    assert.equal(sub.code, 2);
    assert.match(sub.stderr, /did you mean 'tool list'\?/);
    const flag = await cli(['tool', 'list', '--jsno'], { env });
    assert.equal(flag.code, 2);
    assert.match(flag.stderr, /unknown option '--jsno'.*did you mean '--json'\?/);
    const json = await cli(['status', '--bogus', '--json'], { env });
    assert.equal(json.code, 2);
    assert.equal(JSON.parse(json.stdout).error.code, 'usage');
  });

  test('status: bare opentabs prints the summary; --json is the /health payload', async () => {
    const bare = await cli([], { env });
    assert.equal(bare.code, 0, bare.stderr);
    assert.match(bare.stdout, new RegExp(`running on http://127.0.0.1:${s.port}`));
    assert.match(bare.stdout, /Extension: +connected/);
    const j = await cli(['status', '--json'], { env });
    assert.equal(j.code, 0);
    const h = JSON.parse(j.stdout);
    assert.equal(h.status, 'ok');
    assert.equal(h.extensionConnected, true);
    assert.ok(h.browserToolCount >= 76);
  });

  test('tool list (table and --json, --plugin filter) and tool schema', async () => {
    const t = await cli(['tool', 'list'], { env });
    assert.equal(t.code, 0, t.stderr);
    assert.match(t.stdout, /^TOOL +PLUGIN +DESCRIPTION/m);
    assert.match(t.stdout, /^browser_list_tabs +browser /m);
    const j = await cli(['tool', 'list', '--json', '--plugin', 'browser'], { env });
    const tools = JSON.parse(j.stdout);
    assert.ok(tools.every((x) => x.plugin === 'browser'));
    assert.ok(tools.some((x) => x.name === 'browser_list_tabs'));
    const schema = await cli(['tool', 'schema', 'browser_list_tabs'], { env });
    assert.equal(schema.code, 0);
    assert.equal(JSON.parse(schema.stdout).type, 'object');
  });

  test('a tool that does not exist: the closest names and exit 1', async () => {
    const r = await cli(['tool', 'schema', 'browser_list_tab'], { env });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /tool 'browser_list_tab' not found; closest: browser_list_tabs/);
    const c = await cli(['tool', 'call', 'browser_lst_tabs', '{}'], { env });
    assert.equal(c.code, 1);
    assert.match(c.stderr, /not found; closest: .*browser_list_tabs/);
  });

  test('tool call end to end: the extension answers, the result is printed, audit sees it', async () => {
    const r = await cli(['tool', 'call', 'browser_list_tabs', '{}'], { env });
    assert.equal(r.code, 0, r.stderr);
    const tabs = JSON.parse(r.stdout);
    assert.equal(tabs[0].id, 7);
    assert.equal(tabs[0].connectionId, 'cli-test');
    const j = await cli(['tool', 'call', 'browser_list_tabs', '--json'], { env });
    assert.equal(j.code, 0);
    assert.equal(JSON.parse(j.stdout).content[0].type, 'text');
    const audit = await cli(['audit', '--json', '--tool', 'browser_list_tabs', '--limit', '1'], { env });
    assert.equal(audit.code, 0, audit.stderr);
    const entries = JSON.parse(audit.stdout);
    assert.equal(entries.length, 1);
    assert.equal(entries[0].success, true);
    const file = await cli(['audit', '--file', '--since', '1h', '--json'], { env });
    assert.equal(file.code, 0, file.stderr);
    assert.ok(JSON.parse(file.stdout).some((e) => e.tool === 'browser_list_tabs' && e.success));
    const table = await cli(['audit', '--limit', '2'], { env });
    assert.match(table.stdout, /^TIME +TOOL +RESULT/m);
  });

  test('tool call arguments: --params, --params-file - and --tab-id are merged and sent', async () => {
    let seen;
    ext.on('browser.getTabInfo', (p) => {
      seen = p;
      return { id: p.tabId, title: 'T' };
    });
    const a = await cli(['tool', 'call', 'browser_get_tab_info', '--params', '{}', '--tab-id', '12'], { env });
    assert.equal(a.code, 0, a.stderr);
    assert.equal(seen.tabId, 12);
    const b = await cli(['tool', 'call', 'browser_get_tab_info', '--params-file', '-'], { env, input: '{"tabId": 13}' });
    assert.equal(b.code, 0, b.stderr);
    assert.equal(seen.tabId, 13);
  });

  test('a tool error is printed on stderr with exit 1', async () => {
    ext.on('browser.focusTab', () => {
      throw { code: -32603, message: 'No tab with id 99' };
    });
    const r = await cli(['tool', 'call', 'browser_focus_tab', '{"tabId":99}'], { env });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /tool browser_focus_tab failed: .*No tab with id 99/);
  });

  test('bad arguments: JSON error position, non-object, two sources, bad --tab-id, huge file', async () => {
    const bad = await cli(['tool', 'call', 'browser_list_tabs', '{"a":}'], { env });
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /invalid JSON in arguments: .*line 1, column 6/);
    const arr = await cli(['tool', 'call', 'browser_list_tabs', '[1]'], { env });
    assert.equal(arr.code, 1);
    assert.match(arr.stderr, /must be a JSON object/);
    const two = await cli(['tool', 'call', 'browser_list_tabs', '{}', '--params', '{}'], { env });
    assert.equal(two.code, 2);
    const tab = await cli(['tool', 'call', 'browser_list_tabs', '--tab-id', 'abc'], { env });
    assert.equal(tab.code, 2);
    assert.match(tab.stderr, /invalid --tab-id 'abc'/);
    const dir = mkdtempSync(join(tmpdir(), 'opentabs-cli-'));
    const huge = join(dir, 'huge.json');
    writeFileSync(huge, '{"x":"' + 'a'.repeat(11 * 1024 * 1024) + '"}');
    const h = await cli(['tool', 'call', 'browser_list_tabs', '--params-file', huge], { env });
    assert.equal(h.code, 1);
    assert.match(h.stderr, /--params-file .*huge\.json is 11\.0 MiB; the limit is/);
    const missing = await cli(['tool', 'call', 'browser_list_tabs', '--params-file', join(dir, 'nope.json')], { env });
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /cannot read --params-file/);
    rmSync(dir, { recursive: true, force: true });
  });

  test('config set round-trips through config.json and /reload', async () => {
    const r = await cli(['config', 'set', 'tool-permission.browser.browser_list_tabs', 'off'], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /server reloaded/);
    const cfg = JSON.parse(readFileSync(join(s.configDir, 'config.json'), 'utf8'));
    assert.equal(cfg.permissions.browser.tools.browser_list_tabs, 'off');
    const tools = await (await s.fetch('/tools?plugin=browser')).json();
    assert.match(tools.find((t) => t.name === 'browser_list_tabs').description, /^\[Disabled\] /);
    const off = await cli(['tool', 'call', 'browser_list_tabs', '{}'], { env });
    assert.equal(off.code, 1);
    assert.match(off.stderr, /currently disabled/);
    const back = await cli(['config', 'set', 'tool-permission.browser.browser_list_tabs', 'auto'], { env });
    assert.equal(back.code, 0, back.stderr);
    const on = await cli(['tool', 'call', 'browser_list_tabs', '{}'], { env });
    assert.equal(on.code, 0, on.stderr);
  });

  test('config set refuses bad keys, bad values and unknown plugins', async () => {
    const key = await cli(['config', 'set', 'plugin-permision.browser', 'auto'], { env });
    assert.notEqual(key.code, 0);
    assert.match(key.stderr, /plugin-permission/);
    const val = await cli(['config', 'set', 'plugin-permission.browser', 'maybe'], { env });
    assert.notEqual(val.code, 0);
    assert.match(val.stderr, /off|ask|auto/);
    const plugin = await cli(['config', 'set', 'plugin-permission.slakc', 'auto'], { env });
    assert.equal(plugin.code, 1);
    assert.match(plugin.stderr, /no plugin 'slakc'.*--force/);
    const missing = await cli(['config', 'set', 'port'], { env });
    assert.equal(missing.code, 2);
  });

  test('config show/path: masked secret, --show-secret | jq -r .secret, and the path', async () => {
    const secret = JSON.parse(readFileSync(join(s.configDir, 'extension', 'auth.json'), 'utf8')).secret;
    const shown = await cli(['config', 'show', '--json', '--show-secret'], { env });
    assert.equal(shown.code, 0);
    assert.equal(JSON.parse(shown.stdout).secret, secret);
    const masked = await cli(['config', 'show', '--json'], { env });
    const m = JSON.parse(masked.stdout).secret;
    assert.equal(m, `${secret.slice(0, 4)}...${secret.slice(-4)}`);
    const text = await cli(['config', 'show'], { env });
    assert.ok(!text.stdout.includes(secret));
    const p = await cli(['config', 'path'], { env });
    assert.equal(p.stdout.trim(), join(s.configDir, 'config.json'));
  });

  test('doctor: every check with the live server and a connected extension', async () => {
    const r = await cli(['doctor', '--json'], { env: { ...env, HOME: s.configDir } });
    const report = JSON.parse(r.stdout);
    const byName = Object.fromEntries(report.checks.map((c) => [c.check, c]));
    assert.equal(byName['server reachable'].status, 'ok');
    assert.equal(byName['server version'].status, 'ok');
    assert.equal(byName['secret (auth.json)'].status, 'ok');
    assert.equal(byName['websocket handshake'].status, 'ok');
    assert.equal(byName['extension connected'].status, 'ok');
    assert.equal(byName['extension installed'].status, 'ok');
    assert.equal(byName['MCP client config'].status, 'warning');
    assert.ok(byName['MCP client config'].fix.includes('--show-config'));
    assert.equal(r.code, report.ok ? 0 : 1);
  });

  test('logs: the tail of server.log, filtered by plugin', async () => {
    const r = await cli(['logs', '--lines', '3'], { env });
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trim().split('\n');
    assert.ok(lines.length >= 1 && lines.length <= 3);
    const none = await cli(['logs', '--plugin', 'no-such-plugin'], { env });
    assert.equal(none.code, 0);
    assert.equal(none.stdout, '');
  });

  test('plugin list from the server; plugin create scaffolds; bad names are refused', async () => {
    const list = await cli(['plugin', 'list', '--json'], { env });
    assert.equal(list.code, 0, list.stderr);
    assert.deepEqual(JSON.parse(list.stdout), []);
    const cwd = mkdtempSync(join(tmpdir(), 'opentabs-create-'));
    const c = await cli(['plugin', 'create', 'acme-crm', '--domain', 'crm.acme.test'], { env, cwd });
    assert.equal(c.code, 0, c.stderr);
    const pkg = JSON.parse(readFileSync(join(cwd, 'opentabs-plugin-acme-crm', 'package.json'), 'utf8'));
    assert.equal(pkg.name, 'opentabs-plugin-acme-crm');
    assert.deepEqual(pkg.opentabs.urlPatterns, ['*://crm.acme.test/*']);
    assert.ok(existsSync(join(cwd, 'opentabs-plugin-acme-crm', 'src', 'index.ts')));
    const again = await cli(['plugin', 'create', 'acme-crm'], { env, cwd });
    assert.equal(again.code, 1);
    const bad = await cli(['plugin', 'create', 'Bad_Name'], { env, cwd });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /invalid plugin name/);
    rmSync(cwd, { recursive: true, force: true });
  });

  test('a wrong secret names the file', async () => {
    const other = mkdtempSync(join(tmpdir(), 'opentabs-other-'));
    mkdirSync(join(other, 'extension'), { recursive: true });
    writeFileSync(join(other, 'extension', 'auth.json'), JSON.stringify({ secret: 'a'.repeat(64) }) + '\n', { mode: 0o600 });
    const r = await cli(['tool', 'list'], { env: { OPENTABS_CONFIG_DIR: other, OPENTABS_PORT: String(s.port) } });
    assert.equal(r.code, 1);
    assert.match(r.stderr, new RegExp(`could not prove it knows the secret .*secret file: ${join(other, 'extension', 'auth.json').replace(/[/.]/g, '\\$&')}`));
    assert.ok(!r.stderr.includes('a'.repeat(64)));
    rmSync(other, { recursive: true, force: true });
  });

  test('config rotate-secret: new secret on disk, the server reloads with it', async () => {
    const before = JSON.parse(readFileSync(join(s.configDir, 'extension', 'auth.json'), 'utf8')).secret;
    const refused = await cli(['config', 'rotate-secret'], { env });
    assert.equal(refused.code, 2);
    const r = await cli(['config', 'rotate-secret', '--confirm'], { env });
    assert.equal(r.code, 0, r.stderr);
    const after = JSON.parse(readFileSync(join(s.configDir, 'extension', 'auth.json'), 'utf8')).secret;
    assert.notEqual(after, before);
    assert.match(after, /^[0-9a-f]{64}$/);
    const h = await fetch(`${s.base}/health`, { headers: { Authorization: `Bearer ${after}` } });
    assert.ok('version' in (await h.json()));
    const status = await cli(['status', '--json'], { env });
    assert.equal(status.code, 0, status.stderr);
    s.secret = after;
  });
});

describe('opentabs CLI without a server', () => {
  test('a server that is not running: say how to start it (text and --json)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opentabs-none-'));
    const port = await freePort();
    const env = { OPENTABS_CONFIG_DIR: dir, OPENTABS_PORT: String(port) };
    for (const args of [['status'], ['tool', 'list'], ['tool', 'call', 'browser_list_tabs', '{}']]) {
      const r = await cli(args, { env });
      assert.equal(r.code, 1, args.join(' '));
      assert.match(r.stderr, new RegExp(`no opentabs server is running on port ${port}\\. Start one with \`opentabs start\``));
    }
    const j = await cli(['status', '--json'], { env });
    assert.equal(JSON.parse(j.stdout).error.code, 'server_not_running');
    const d = await cli(['doctor'], { env: { ...env, HOME: dir } });
    assert.equal(d.code, 1);
    assert.match(d.stdout, /✗ server reachable/);
    assert.match(d.stdout, /fix: `opentabs start`/);
    rmSync(dir, { recursive: true, force: true });
  });

  test('port precedence: --port over OPENTABS_PORT over PORT over config.json over 9515', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opentabs-port-'));
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ port: 40001 }));
    const show = async (args, env) => (await cli(['config', 'show', ...args], { env: { OPENTABS_CONFIG_DIR: dir, ...env } })).stdout;
    assert.match(await show([], {}), /Port: +40001 \(from config\.json\)/);
    assert.match(await show([], { OPENTABS_PORT: '40002' }), /Port: +40002 \(from OPENTABS_PORT\)/);
    assert.match(await show(['--port', '40003'], { OPENTABS_PORT: '40002' }), /Port: +40003 \(from --port\)/);
    // PORT, the server's variable, applies to every command (not only `start`), below OPENTABS_PORT.
    assert.match(await show([], { PORT: '40004' }), /Port: +40004 \(from PORT\)/);
    assert.match(await show([], { PORT: '40004', OPENTABS_PORT: '40002' }), /Port: +40002 \(from OPENTABS_PORT\)/);
    writeFileSync(join(dir, 'config.json'), JSON.stringify({}));
    assert.match(await show([], {}), /Port: +9515 \(from default\)/);
    const bad = await cli(['status', '--port', '70000'], { env: { OPENTABS_CONFIG_DIR: dir } });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /invalid port '70000' from --port/);
    rmSync(dir, { recursive: true, force: true });
  });

  test('colour only on a terminal, and never with NO_COLOR', async (t) => {
    // `script` (util-linux) gives the CLI a real pseudo-terminal.
    if (!existsSync('/usr/bin/script')) return t.skip('util-linux script is not installed');
    const dir = mkdtempSync(join(tmpdir(), 'opentabs-tty-'));
    const run = (env) =>
      new Promise((resolve) => {
        const c = spawn('/usr/bin/script', ['-qec', `${OPENTABS_BIN} config show`, '/dev/null'], {
          env: { PATH: process.env.PATH, HOME: process.env.HOME, TERM: 'xterm', OPENTABS_CONFIG_DIR: dir, ...env },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        c.stdout.on('data', (d) => (out += d));
        c.on('exit', () => resolve(out));
      });
    assert.ok((await run({})).includes('\x1b['), 'a terminal gets colour');
    assert.ok(!(await run({ NO_COLOR: '1' })).includes('\x1b['), 'NO_COLOR is honoured');
    const piped = await cli(['config', 'show'], { env: { OPENTABS_CONFIG_DIR: dir, NO_COLOR: '' } });
    assert.ok(!piped.stdout.includes('\x1b['), 'a pipe gets plain text');
    rmSync(dir, { recursive: true, force: true });
  });

  test('config set works offline and writes config.json (0600)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opentabs-offline-'));
    const port = await freePort();
    const r = await cli(['config', 'set', 'port', '40123'], { env: { OPENTABS_CONFIG_DIR: dir, OPENTABS_PORT: String(port) } });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /server not running/);
    assert.equal(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).port, 40123);
    rmSync(dir, { recursive: true, force: true });
  });
});
