// Issues 2 and 4 through the real binary: the fixture plugins of test/fixtures load from
// localPlugins, their tools are listed under the seed's <plugin>_<tool> names (the
// spec's <plugin>__<tool> is accepted too), arguments are validated with precise errors,
// platform arguments are stripped, tool.dispatch carries what the extension expects,
// progress extends the timeout, ToolErrors map to the structured text, instances route to
// the right tab, review tokens enable a plugin, and config.json edits apply without restart.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawn } from 'node:child_process';
import { startServer, OPENTABS_BIN } from './support/server.mjs';
import { ExtensionClient } from './support/extension_client.mjs';
import { connectSdk } from './support/mcp_client.mjs';
import { until } from './support/until.mjs';

const fixtures = resolve(new URL('../fixtures/plugins', import.meta.url).pathname);
const notes = join(fixtures, 'notes');
const tracker = join(fixtures, 'tracker');

function baseConfig(extra = {}) {
  return {
    localPlugins: [notes, tracker],
    additionalAllowedDirectories: [fixtures],
    permissions: { browser: { permission: 'auto' }, 'fixture-notes': { permission: 'auto' }, 'fixture-tracker': { permission: 'auto' }, ...(extra.permissions ?? {}) },
    settings: extra.settings ?? {},
  };
}

describe('fixture plugins', () => {
  let s;
  let ext;
  before(async () => {
    s = await startServer({
      config: baseConfig({
        settings: { 'fixture-tracker': { instanceUrl: { alpha: 'http://localhost:7001', beta: 'http://127.0.0.1:7002' } } },
      }),
      env: { OPENTABS_DISPATCH_TIMEOUT_MS: '500', OPENTABS_MTIME_POLL_MS: '100' },
    });
    ext = await new ExtensionClient(s, { connectionId: 'plugins-conn' }).connect();
  });
  after(async () => {
    await ext.close();
    await s.stop();
  });

  test('sync.full carries each plugin with its adapter file on disk and the embedded hash', async () => {
    const sync = await ext.waitFor((m) => m.method === 'sync.full');
    const p = sync.params.plugins.find((x) => x.name === 'fixture-notes');
    assert.ok(p, 'fixture-notes in sync.full');
    assert.match(p.adapterFile, /^adapters\/fixture-notes-[0-9a-f]{8}\.js$/);
    assert.match(p.adapterHash, /^[0-9a-f]{64}$/);
    assert.equal(p.permission, 'auto');
    assert.ok(existsSync(join(s.configDir, 'extension', p.adapterFile)));
    const js = readFileSync(join(s.configDir, 'extension', p.adapterFile), 'utf8');
    assert.ok(js.includes(`.__adapterHash="${p.adapterHash}"`) || js.includes(p.adapterHash));
    const t = sync.params.plugins.find((x) => x.name === 'fixture-tracker');
    assert.deepEqual(Object.keys(t.instanceMap).sort(), ['alpha', 'beta']);
  });

  test('tools are listed as <plugin>_<tool> with injected tabId, and instance when there are two instances', async () => {
    const tools = await (await s.fetch('/tools')).json();
    const echo = tools.find((t) => t.name === 'fixture-notes_echo');
    assert.ok(echo, 'fixture-notes_echo listed');
    assert.equal(echo.plugin, 'fixture-notes');
    assert.equal(echo.inputSchema.properties.tabId.type, 'integer');
    assert.ok(!(echo.inputSchema.required ?? []).includes('tabId'));
    const issues = tools.find((t) => t.name === 'fixture-tracker_list_issues');
    assert.deepEqual(issues.inputSchema.properties.instance.enum.sort(), ['alpha', 'beta']);
    assert.ok(issues.inputSchema.required.includes('instance'));
    const idx = (n) => tools.findIndex((t) => t.name === n);
    assert.ok(idx('fixture-notes_echo') < idx('browser_list_tabs'), 'plugin tools before browser tools');
    assert.ok(idx('browser_list_tabs') < idx('plugin_inspect'), 'platform tools last');
  });

  test('a call dispatches tool.dispatch with the stripped input and unwraps output; __ form accepted', async () => {
    ext.on('tool.dispatch', (p) => ({ output: { echoed: p.input, tabId: p.tabId ?? null, tool: p.tool, plugin: p.plugin } }));
    const r = await s.callTool('fixture-notes_echo', { message: 'hello', tabId: 12 });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(JSON.parse(r.body.content[0].text), { echoed: { message: 'hello' }, tabId: 12, tool: 'echo', plugin: 'fixture-notes' });
    const d = ext.messages.filter((m) => m.method === 'tool.dispatch').at(-1);
    assert.equal(d.id, d.params.__opentabs_dispatchId);
    const r2 = await s.callTool('fixture-notes__echo', { message: 'again' });
    assert.equal(r2.status, 200);
    // The end notice is sent after the answer: it may arrive just after the call returns.
    const ended = () => ext.messages.filter((m) => m.method === 'tool.invocationEnd');
    await until(() => ended().length >= 2, 'the second tool.invocationEnd');
    const starts = ext.messages.filter((m) => m.method === 'tool.invocationStart');
    assert.ok(starts.length >= 2);
    assert.equal(ended().at(-1).params.success, true);
    // Held or not, every end follows its own start and precedes the next call's start.
    const order = ext.messages.filter((m) => m.method?.startsWith('tool.invocation')).map((m) => m.method.slice(15));
    assert.deepEqual(order.slice(-4), ['Start', 'End', 'Start', 'End']);
  });

  test('invalid arguments name the path and rule; nothing reaches the extension', async () => {
    const before = ext.messages.filter((m) => m.method === 'tool.dispatch').length;
    const r = await s.callTool('fixture-notes_echo', { message: 42 });
    assert.equal(r.status, 422);
    assert.match(r.body.content[0].text, /^Invalid arguments for tool "fixture-notes_echo":\n {2}- \/message: /);
    const r2 = await s.callTool('fixture-notes_echo', {});
    assert.match(r2.body.content[0].text, /message/);
    assert.equal(ext.messages.filter((m) => m.method === 'tool.dispatch').length, before);
  });

  test('ToolError data becomes the structured error text; -32001 becomes "Tab closed:"', async () => {
    ext.on('tool.dispatch', (p) => {
      if (p.tool === 'failing_tool')
        throw Object.assign(new Error('Note 7 not found'), { code: -32603, data: { code: 'NOT_FOUND', category: 'not_found', retryable: false } });
      throw Object.assign(new Error('Tab 5 does not exist'), { code: -32001 });
    });
    const r = await s.callTool('fixture-notes_failing_tool', {});
    assert.equal(r.body.isError, true);
    assert.match(r.body.content[0].text, /^\[ERROR code=NOT_FOUND category=not_found retryable=false\] Note 7 not found\n\n```json\n/);
    const r2 = await s.callTool('fixture-notes_echo', { message: 'x', tabId: 5 });
    assert.match(r2.body.content[0].text, /^Tab closed: Tab 5 does not exist/);
    const audit = await (await s.fetch('/audit?plugin=fixture-notes&success=false&limit=2')).json();
    assert.equal(audit[1].error.code, 'NOT_FOUND');
    assert.equal(audit[1].error.category, 'not_found');
    assert.equal(audit[0].error.code, '-32001');
  });

  test('progress keeps a call alive past the 500 ms test timeout', async () => {
    ext.on('tool.dispatch', async (p) => {
      for (let i = 1; i <= 4; i++) {
        await new Promise((r) => setTimeout(r, 250));
        ext.notify('tool.progress', { dispatchId: p.__opentabs_dispatchId, progress: i, total: 4 });
      }
      return { output: { done: true } };
    });
    const r = await s.callTool('fixture-notes_slow_with_progress', { steps: 4 });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(JSON.parse(r.body.content[0].text), { done: true });
  });

  test('instance routes to a tab on that instance host; unknown instances list the valid ones', async () => {
    ext.notify('tab.syncAll', {
      tabs: {
        'fixture-tracker': {
          state: 'ready',
          tabs: [
            { tabId: 101, url: 'http://localhost:7001/', title: 'alpha', ready: true },
            { tabId: 202, url: 'http://localhost:7002/', title: 'beta', ready: true },
          ],
        },
      },
    });
    ext.on('tool.dispatch', (p) => ({ output: { tabId: p.tabId, input: p.input } }));
    const r = await s.callTool('fixture-tracker_list_issues', { instance: 'beta' });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(JSON.parse(r.body.content[0].text).tabId, 202);
    assert.ok(!('instance' in JSON.parse(r.body.content[0].text).input));
    const bad = await s.callTool('fixture-tracker_list_issues', { instance: 'gamma' });
    assert.match(bad.body.content[0].text, /instance|must be equal to one of/);
    const list = JSON.parse((await s.callTool('plugin_list_tabs', { plugin: 'fixture-tracker' })).body.content[0].text);
    assert.equal(list[0].state, 'ready');
    assert.deepEqual(list[0].tabs.map((t) => [t.tabId, t.instance, t.connectionId]), [
      [101, 'alpha', 'plugins-conn'],
      [202, 'beta', 'plugins-conn'],
    ]);
  });

  test('plugin_inspect issues a single-use review token that plugin_mark_reviewed spends', async () => {
    const inspect = await s.callTool('plugin_inspect', { plugin: 'fixture-notes' });
    assert.equal(inspect.status, 200);
    const info = JSON.parse(inspect.body.content[0].text);
    assert.equal(info.plugin, 'fixture-notes');
    assert.ok(info.adapterSource.length > 100 && info.lineCount > 0);
    const mark = await s.callTool('plugin_mark_reviewed', { plugin: 'fixture-notes', version: info.version, reviewToken: info.reviewToken, permission: 'ask' });
    assert.deepEqual(JSON.parse(mark.body.content[0].text).permission, 'ask');
    const again = await s.callTool('plugin_mark_reviewed', { plugin: 'fixture-notes', version: info.version, reviewToken: info.reviewToken, permission: 'auto' });
    assert.match(again.body.content[0].text, /Invalid or expired review token/);
    const cfg = JSON.parse(readFileSync(join(s.configDir, 'config.json'), 'utf8'));
    assert.equal(cfg.permissions['fixture-notes'].permission, 'ask');
    assert.equal(cfg.permissions['fixture-notes'].reviewedVersion, info.version);
    const tools = await (await s.fetch('/tools?plugin=fixture-notes')).json();
    assert.ok(tools.every((t) => t.description.startsWith('[Requires approval] ')));
  });

  test('plugin_inspect on an unknown plugin lists the available ones', async () => {
    const r = await s.callTool('plugin_inspect', { plugin: 'fixture-nope' });
    assert.equal(r.body.isError, true);
    assert.equal(r.body.content[0].text, 'Plugin "fixture-nope" not found. Available plugins: fixture-notes, fixture-tracker');
  });

  test('a hand edit of config.json applies without a restart', async () => {
    const path = join(s.configDir, 'config.json');
    const cfg = JSON.parse(readFileSync(path, 'utf8'));
    cfg.permissions['fixture-notes'] = { permission: 'off' };
    writeFileSync(path, JSON.stringify(cfg, null, 2));
    const deadline = Date.now() + 5000;
    let disabled = false;
    while (Date.now() < deadline && !disabled) {
      const tools = await (await s.fetch('/tools?plugin=fixture-notes')).json();
      disabled = tools.every((t) => t.description.startsWith('[Disabled] '));
      if (!disabled) await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(disabled, 'tools became [Disabled] after the edit');
    const r = await s.callTool('fixture-notes_echo', { message: 'x' });
    assert.match(r.body.content[0].text, /not been reviewed|turned off|needs re-review/);
  });

  test('a corrupt config.json is reported with its position and the last good config stays', async () => {
    const path = join(s.configDir, 'config.json');
    const good = readFileSync(path, 'utf8');
    writeFileSync(path, good.slice(0, good.length / 2));
    const r = await s.fetch('/reload', { method: 'POST' });
    assert.equal(r.status, 500);
    assert.match((await r.json()).error, /config\.json.*line \d+/s);
    const tools = await (await s.fetch('/tools?plugin=fixture-notes')).json();
    assert.ok(tools.length > 0, 'plugins still loaded');
    writeFileSync(path, good);
  });
});

describe('broken plugins', () => {
  test('each broken plugin is reported while the others load', async () => {
    const s = await startServer({
      config: {
        localPlugins: [notes, '/nonexistent/plugin-dir', join(fixtures, '..')],
        additionalAllowedDirectories: [fixtures],
      },
    });
    try {
      const health = await (await s.fetch('/health')).json();
      assert.equal(health.plugins, 1);
      assert.ok(health.discoveryErrors.length >= 1);
      for (const e of health.discoveryErrors) assert.ok(e.error.length > 10, JSON.stringify(e));
      assert.ok(readdirSync(join(s.configDir, 'extension', 'adapters')).some((f) => f.startsWith('fixture-notes-')));
    } finally {
      await s.stop();
    }
  });
});

// Issue 14 item 5: "toolNames": "double-underscore" lists and audits plugin tools as the
// original server names them (<plugin>__<tool>); both spellings stay callable; the option is
// validated and settable with `opentabs config set`, and a change applies without a restart.
describe('toolNames option', () => {
  let s;
  let ext;
  const cli = (args) => new Promise((resolve) => {
    const child = spawn(OPENTABS_BIN, args, {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', OPENTABS_CONFIG_DIR: s.configDir, OPENTABS_PORT: String(s.port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => resolve({ code, stdout: out, stderr: err }));
  });
  const pluginToolNames = async () => (await (await s.fetch('/tools?plugin=fixture-notes')).json()).map((t) => t.name).sort();
  before(async () => {
    s = await startServer({ config: { ...baseConfig(), toolNames: 'double-underscore' }, env: { OPENTABS_MTIME_POLL_MS: '100' } });
    ext = await new ExtensionClient(s, { connectionId: 'names-conn' }).connect();
    ext.on('tool.dispatch', (p) => ({ output: { tool: p.tool } }));
  });
  after(async () => {
    await ext.close();
    await s.stop();
  });

  test('double-underscore: listed and audited as <plugin>__<tool>; both spellings callable', async () => {
    const names = await pluginToolNames();
    assert.ok(names.length > 0 && names.every((n) => n.startsWith('fixture-notes__')), names.join(' '));
    assert.doesNotMatch(s.stderr, /Unknown config key "toolNames"/);
    const mcp = await connectSdk(s);
    try {
      const listed = (await mcp.client.listTools()).tools.map((t) => t.name);
      assert.ok(listed.includes('fixture-notes__echo') && !listed.includes('fixture-notes_echo'));
      assert.ok(listed.includes('browser_list_tabs'), 'browser tools keep their names');
      const viaMcp = await mcp.client.callTool({ name: 'fixture-notes_echo', arguments: { message: 'mcp' } });
      assert.deepEqual(JSON.parse(viaMcp.content[0].text), { tool: 'echo' });
    } finally {
      await mcp.client.close();
    }
    for (const name of ['fixture-notes__echo', 'fixture-notes_echo']) {
      const r = await s.callTool(name, { message: 'x' });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(JSON.parse(r.body.content[0].text), { tool: 'echo' });
    }
    const audit = await (await s.fetch('/audit?plugin=fixture-notes&limit=3')).json();
    assert.deepEqual(audit.map((e) => e.tool), ['fixture-notes__echo', 'fixture-notes__echo', 'fixture-notes__echo']);
  });

  test('config set validates the value and switching back applies without a restart', async () => {
    const bad = await cli(['config', 'set', 'toolNames', 'double_underscore']);
    assert.equal(bad.code, 1, bad.stdout + bad.stderr);
    assert.match(bad.stderr, /Invalid toolNames "double_underscore": use single-underscore \(<plugin>_<tool>\) or double-underscore/);
    const good = await cli(['config', 'set', 'toolNames', 'single-underscore']);
    assert.equal(good.code, 0, good.stderr);
    assert.equal(JSON.parse(readFileSync(join(s.configDir, 'config.json'), 'utf8')).toolNames, 'single-underscore');
    const deadline = Date.now() + 5000;
    let names = await pluginToolNames();
    while (Date.now() < deadline && !names.includes('fixture-notes_echo')) {
      await new Promise((r) => setTimeout(r, 100));
      names = await pluginToolNames();
    }
    assert.ok(names.includes('fixture-notes_echo') && !names.includes('fixture-notes__echo'), names.join(' '));
    assert.equal((await s.callTool('fixture-notes__echo', { message: 'y' })).status, 200);
    assert.equal((await (await s.fetch('/audit?plugin=fixture-notes&limit=1')).json())[0].tool, 'fixture-notes_echo');
  });

  test('a bad toolNames value in config.json is a warning and the default applies', async () => {
    const t = await startServer({ config: { ...baseConfig(), toolNames: 'dunder' } });
    try {
      assert.match(t.stderr, /"toolNames" in .*config\.json must be "single-underscore" or "double-underscore", got "dunder"/);
      const names = (await (await t.fetch('/tools?plugin=fixture-notes')).json()).map((x) => x.name);
      assert.ok(names.includes('fixture-notes_echo'));
    } finally {
      await t.stop();
    }
  });
});
