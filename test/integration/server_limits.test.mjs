// The server's limits against the real binary (spec §3.7 step 3, §6.5): the REST tool-call
// rate limit (30 per minute, shared by all callers, 429 + Retry-After), the per-plugin cap
// of 25 in-flight dispatches (shared by REST and MCP; other plugins unaffected), and
// POST /plugin-settings: valid settings saved to config.json and announced to the
// extension, invalid ones refused with 400 naming the problem, and its own 10-per-minute
// limit.  The limits have no test knobs, so the tests make the real number of calls (they
// are fast); each limit gets a fresh server so the buckets start empty.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from './support/server.mjs';
import { ExtensionClient } from './support/extension_client.mjs';
import { writePlugin } from '../../bench/plugins.mjs';

const ACCEPT = 'application/json, text/event-stream';
const WAIT_SCHEMA = { type: 'object', properties: { n: { type: 'integer' } }, additionalProperties: false };
const SETTINGS_PLUGIN = 'lim-settings';
const CONFIG_SCHEMA = {
  baseUrl: { type: 'url', label: 'Base URL', required: true },
  mode: { type: 'select', label: 'Mode', options: ['fast', 'safe'] },
  retries: { type: 'number', label: 'Retries' },
};

/** Writes lim-a, lim-b (one `wait` tool each) and lim-settings (with a configSchema); returns config.json. */
function writeLimitPlugins(root) {
  const config = { localPlugins: [], additionalAllowedDirectories: [root], permissions: {} };
  for (const name of ['lim-a', 'lim-b', SETTINGS_PLUGIN]) {
    const dir = join(root, name);
    writePlugin(dir, { name, tools: [{ name: 'wait', input_schema: WAIT_SCHEMA }] });
    if (name === SETTINGS_PLUGIN) {
      const toolsJson = join(dir, 'dist', 'tools.json');
      const manifest = JSON.parse(readFileSync(toolsJson, 'utf8'));
      writeFileSync(toolsJson, JSON.stringify({ ...manifest, configSchema: CONFIG_SCHEMA }, null, 2) + '\n');
    }
    config.localPlugins.push(dir);
    config.permissions[name] = { permission: 'auto' };
  }
  return config;
}

/** An initialized MCP session over raw HTTP; call() resolves with the tools/call result. */
async function mcpSession(s) {
  const post = (body, headers = {}) =>
    s.fetch('/mcp', { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: ACCEPT, ...headers }, body: JSON.stringify(body) });
  const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'limits', version: '0' } } });
  assert.equal(init.status, 200);
  await init.text();
  const h = { 'Mcp-Session-Id': init.headers.get('mcp-session-id'), 'MCP-Protocol-Version': '2025-11-25' };
  await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, h)).text();
  let nextId = 100;
  return {
    async call(name, args) {
      const id = nextId++;
      const res = await post({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }, h);
      const text = await res.text();
      const msg = JSON.parse(text.split('\n').filter((l) => l.startsWith('data: ')).at(-1).slice(6));
      assert.equal(msg.id, id, text);
      return msg.result;
    },
  };
}

const dispatchesFor = (ext, plugin) => ext.messages.filter((m) => m.method === 'tool.dispatch' && m.params.plugin === plugin);

/** A request/reply round trip on the socket: everything the server sent before it has arrived. */
async function drain(ext) {
  const r = await ext.request('config.getState');
  assert.ok(r.result, JSON.stringify(r));
}

function postSettings(s, body) {
  return s.fetch('/plugin-settings', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

describe('server limits', () => {
  let root;
  let config;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'opentabs-limits-'));
    config = writeLimitPlugins(root);
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  test('REST tool calls: 30 per minute, the 31st gets 429 with Retry-After and a JSON error; MCP is not counted', { timeout: 30_000 }, async () => {
    const s = await startServer({ config });
    try {
      const ext = await new ExtensionClient(s, { connectionId: 'rate' }).connect();
      await ext.waitFor((m) => m.method === 'sync.full');
      ext.on('tool.dispatch', (p) => ({ output: { n: p.input.n } }));

      // Refused before the limiter (no bearer token): an unauthenticated caller cannot use up the bucket.
      for (let i = 0; i < 5; i++) {
        const r = await fetch(`${s.base}/tools/lim-a_wait/call`, { method: 'POST', body: '{"arguments":{"n":0}}' });
        assert.equal(r.status, 401);
        await r.body?.cancel();
      }
      // Three batches of 10 concurrent calls (under the per-plugin cap of 25 in flight).
      for (let batch = 0; batch < 3; batch++) {
        const ok = await Promise.all(Array.from({ length: 10 }, (_, i) => s.callTool('lim-a_wait', { n: batch * 10 + i })));
        ok.forEach((r, i) => {
          assert.equal(r.status, 200, JSON.stringify(r.body));
          assert.deepEqual(JSON.parse(r.body.content[0].text), { n: batch * 10 + i });
        });
      }

      const res = await s.fetch('/tools/lim-a_wait/call', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"arguments":{"n":30}}' });
      assert.equal(res.status, 429);
      assert.equal(res.headers.get('retry-after'), '60');
      assert.match(res.headers.get('content-type'), /application\/json/);
      assert.deepEqual(await res.json(), { error: 'rate_limited', error_description: 'Too many requests; try again later' });

      // The bucket is per endpoint, not per tool: another plugin's tool and an unknown tool are refused too.
      for (const name of ['lim-b_wait', 'no_such_tool']) {
        const r = await s.callTool(name, { n: 31 });
        assert.equal(r.status, 429, `${name}: ${JSON.stringify(r.body)}`);
      }
      await drain(ext);
      assert.equal(dispatchesFor(ext, 'lim-a').length, 30, 'refused calls never reach the extension');
      assert.equal(dispatchesFor(ext, 'lim-b').length, 0);

      // Other endpoints and MCP tools/call keep working.
      assert.equal((await s.fetch('/tools?plugin=lim-a')).status, 200);
      const mcp = await mcpSession(s);
      const viaMcp = await mcp.call('lim-b_wait', { n: 7 });
      assert.equal(viaMcp.isError, undefined, JSON.stringify(viaMcp));
      assert.deepEqual(JSON.parse(viaMcp.content[0].text), { n: 7 });
      await ext.close();
    } finally {
      assert.equal((await s.stop()).code, 0);
    }
  });

  test('per-plugin cap: 25 dispatches in flight (REST + MCP), the 26th is refused at once, other plugins still work', { timeout: 30_000 }, async () => {
    // The dispatch timeout is far beyond the test's own timeout: only the cap can end the 26th call quickly.
    const s = await startServer({ config, env: { OPENTABS_DISPATCH_TIMEOUT_MS: '600000', OPENTABS_DISPATCH_CAP_MS: '600000' } });
    try {
      const ext = await new ExtensionClient(s, { connectionId: 'cap' }).connect();
      await ext.waitFor((m) => m.method === 'sync.full');
      const held = [];
      let all25;
      const arrived = new Promise((r) => (all25 = r));
      ext.on('tool.dispatch', (p) => {
        if (p.plugin !== 'lim-a') return { output: { plugin: p.plugin, n: p.input.n } };
        return new Promise((resolve) => {
          held.push(() => resolve({ output: { plugin: p.plugin, n: p.input.n } }));
          if (held.length === 25) all25();
        });
      });
      const mcp = await mcpSession(s);
      const restCalls = Array.from({ length: 12 }, (_, i) => s.callTool('lim-a_wait', { n: i }));
      const mcpCalls = Array.from({ length: 13 }, (_, i) => mcp.call('lim-a_wait', { n: 100 + i }));
      await arrived;

      const refusal = /^Too many concurrent dispatches for plugin "lim-a" \(limit: 25\)\. Wait for in-flight requests to complete\.$/;
      const overMcp = await mcp.call('lim-a_wait', { n: 999 });
      assert.equal(overMcp.isError, true, JSON.stringify(overMcp));
      assert.match(overMcp.content[0].text, refusal);
      const overRestRes = await s.fetch(`/tools/lim-a_wait/call`, {
        method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ arguments: { n: 998 } }),
      });
      const overRest = { status: overRestRes.status, body: await overRestRes.json() };
      assert.equal(overRest.body.isError, true, JSON.stringify(overRest.body));
      assert.match(overRest.body.content[0].text, refusal);
      assert.equal(overRest.status, 429);
      assert.equal(overRestRes.headers.get('retry-after'), '1', 'a slot frees as soon as a call finishes');

      // Another plugin is not affected by lim-a's cap, over both entry points.
      const b = await s.callTool('lim-b_wait', { n: 1 });
      assert.equal(b.status, 200, JSON.stringify(b.body));
      assert.deepEqual(JSON.parse(b.body.content[0].text), { plugin: 'lim-b', n: 1 });
      const bMcp = await mcp.call('lim-b_wait', { n: 2 });
      assert.deepEqual(JSON.parse(bMcp.content[0].text), { plugin: 'lim-b', n: 2 });
      await drain(ext);
      assert.equal(dispatchesFor(ext, 'lim-a').length, 25, 'the refused calls were never dispatched');

      const refusedAudit = await (await s.fetch('/audit?plugin=lim-a&success=false')).json();
      assert.equal(refusedAudit.length, 2, JSON.stringify(refusedAudit));
      for (const e of refusedAudit) assert.equal(e.error.code, 'RATE_LIMITED');

      // Release the 25: every caller gets its own answer, and the cap is free again.
      for (const release of held) release();
      (await Promise.all(restCalls)).forEach((r, i) => {
        assert.equal(r.status, 200, JSON.stringify(r.body));
        assert.deepEqual(JSON.parse(r.body.content[0].text), { plugin: 'lim-a', n: i });
      });
      (await Promise.all(mcpCalls)).forEach((r, i) => {
        assert.equal(r.isError, undefined, JSON.stringify(r));
        assert.deepEqual(JSON.parse(r.content[0].text), { plugin: 'lim-a', n: 100 + i });
      });
      ext.on('tool.dispatch', (p) => ({ output: { plugin: p.plugin, n: p.input.n } }));
      const again = await s.callTool('lim-a_wait', { n: 26 });
      assert.equal(again.status, 200, JSON.stringify(again.body));
      assert.deepEqual(JSON.parse(again.body.content[0].text), { plugin: 'lim-a', n: 26 });
      await ext.close();
    } finally {
      assert.equal((await s.stop()).code, 0);
    }
  });

  // These tests share one server and so one 10-per-minute bucket: 1 + 7 + 1 counted calls
  // (405 and 401 answers come before the limiter and are not counted).
  describe('POST /plugin-settings', () => {
    let s;
    let ext;
    const configJson = () => JSON.parse(readFileSync(join(s.configDir, 'config.json'), 'utf8'));
    const details = async (name) => (await (await s.fetch('/health')).json()).pluginDetails.find((d) => d.name === name);
    before(async () => {
      s = await startServer({ config });
      ext = await new ExtensionClient(s, { connectionId: 'settings' }).connect();
      await ext.waitFor((m) => m.method === 'sync.full');
    });
    after(async () => {
      await ext.close();
      assert.equal((await s.stop()).code, 0);
    });

    test('valid settings are saved to config.json, applied, and announced with plugins.changed', { timeout: 15_000 }, async () => {
      assert.equal((await details(SETTINGS_PLUGIN)).needsSetup, true, 'the required url field has no value yet');
      const settings = { baseUrl: { prod: 'https://prod.example.com/app', staging: 'http://localhost:8123/' }, mode: 'safe', retries: 3 };
      const changed = ext.next((m) => m.method === 'plugins.changed');
      const synced = ext.next((m) => m.method === 'sync.full');
      const res = await postSettings(s, { plugin: SETTINGS_PLUGIN, settings });
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json(), { ok: true });

      assert.deepEqual(configJson().settings[SETTINGS_PLUGIN], settings);
      const announced = (await changed).params.plugins.find((p) => p.name === SETTINGS_PLUGIN);
      assert.ok(announced, 'plugins.changed lists the plugin');
      assert.deepEqual(announced.resolvedSettings, settings);
      assert.deepEqual(announced.instanceMap, { prod: '*://prod.example.com/*', staging: '*://localhost:8123/*' });
      const inSync = (await synced).params.plugins.find((p) => p.name === SETTINGS_PLUGIN);
      assert.ok(inSync.urlPatterns.includes('*://prod.example.com/*'), JSON.stringify(inSync.urlPatterns));

      const d = await details(SETTINGS_PLUGIN);
      assert.equal(d.needsSetup, false);
      assert.ok(d.urlPatterns.includes('*://localhost:8123/*'), JSON.stringify(d.urlPatterns));
    });

    test('invalid settings get 400 naming the problem; nothing is saved or announced', { timeout: 15_000 }, async () => {
      const before = readFileSync(join(s.configDir, 'config.json'), 'utf8');
      await drain(ext);
      const announcedBefore = ext.messages.filter((m) => m.method === 'plugins.changed' || m.method === 'sync.full').length;
      const cases = [
        [{ plugin: SETTINGS_PLUGIN, settings: { mode: 'turbo' } }, 'Settings validation failed: mode: must be one of: fast, safe'],
        [{ plugin: SETTINGS_PLUGIN, settings: { baseUrl: { prod: 'ftp://files.example.com' } } }, 'Settings validation failed: baseUrl: instance "prod" must be an http or https URL'],
        [{ plugin: SETTINGS_PLUGIN, settings: { baseUrl: {} } }, 'Settings validation failed: baseUrl: must name at least one instance'],
        [{ plugin: SETTINGS_PLUGIN, settings: { colour: 'red' } }, 'Settings validation failed: colour: unknown setting (known: baseUrl, mode, retries)'],
        [{ plugin: SETTINGS_PLUGIN }, 'Body must be {"plugin": string, "settings": object}'],
        [{ plugin: 42, settings: {} }, 'Body must be {"plugin": string, "settings": object}'],
      ];
      for (const [body, error] of cases) {
        const res = await postSettings(s, body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.deepEqual(await res.json(), { ok: false, error }, JSON.stringify(body));
      }
      const res = await postSettings(s, '{"plugin": "lim-settings", "settings": ');
      assert.equal(res.status, 400);
      const body = await res.json();
      assert.equal(body.ok, false);
      assert.match(body.error, /^Invalid JSON body: /);

      assert.equal(readFileSync(join(s.configDir, 'config.json'), 'utf8'), before, 'config.json is untouched');
      await drain(ext);
      assert.equal(ext.messages.filter((m) => m.method === 'plugins.changed' || m.method === 'sync.full').length, announcedBefore);
      assert.equal((await details(SETTINGS_PLUGIN)).needsSetup, false, 'the earlier valid settings still apply');
    });

    test('settings for a plugin that is not installed are stored unvalidated (spec §3.5: "stores (even for unknown plugin)")', { timeout: 15_000 }, async () => {
      const res = await postSettings(s, { plugin: 'not-installed', settings: { anything: [1, 2] } });
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json(), { ok: true });
      assert.deepEqual(configJson().settings['not-installed'], { anything: [1, 2] });
      assert.equal((await (await s.fetch('/health')).json()).pluginDetails.some((d) => d.name === 'not-installed'), false);
    });

    test('GET is 405 with Allow: POST; no bearer token is 401', async () => {
      const get = await s.fetch('/plugin-settings');
      assert.equal(get.status, 405);
      assert.equal(get.headers.get('allow'), 'POST');
      await get.body?.cancel();
      const anon = await fetch(`${s.base}/plugin-settings`, { method: 'POST', body: JSON.stringify({ plugin: SETTINGS_PLUGIN, settings: { mode: 'fast' } }) });
      assert.equal(anon.status, 401);
      assert.equal(anon.headers.get('www-authenticate'), 'Bearer');
      await anon.body?.cancel();
      assert.equal(configJson().settings[SETTINGS_PLUGIN].mode, 'safe');
    });
  });

  test('POST /plugin-settings for a plugin that is not installed: a bad name or oversized settings is 400, config.json untouched', { timeout: 30_000 }, async () => {
    const s = await startServer({ config });
    try {
      const configPath = join(s.configDir, 'config.json');
      const before = readFileSync(configPath, 'utf8');
      const refused = [
        [{ plugin: '../../etc', settings: {} }, /is not a plugin name/],
        [{ plugin: '__proto__', settings: { a: 1 } }, /is not a plugin name/],
        [{ plugin: 'y'.repeat(100_000), settings: {} }, /is not a plugin name/],
        [{ plugin: 'not-installed', settings: { blob: 'z'.repeat(70 * 1024) } }, /settings are \d+ bytes of JSON; the limit is 65536/],
      ];
      for (const [body, pattern] of refused) {
        const res = await postSettings(s, body);
        assert.equal(res.status, 400);
        const reply = await res.json();
        assert.equal(reply.ok, false);
        assert.match(reply.error, pattern);
        assert.ok(reply.error.length < 300, 'the error does not echo a huge name');
      }
      assert.equal(readFileSync(configPath, 'utf8'), before, 'config.json is untouched');
      // The server still saves config changes afterwards.
      const ok = await postSettings(s, { plugin: 'not-installed', settings: { a: 1 } });
      assert.equal(ok.status, 200);
      assert.deepEqual(JSON.parse(readFileSync(configPath, 'utf8')).settings['not-installed'], { a: 1 });
    } finally {
      await s.stop();
    }
  });

  test('POST /plugin-settings: 10 per minute (valid or not), the 11th gets 429 and changes nothing', { timeout: 30_000 }, async () => {
    const s = await startServer({ config });
    try {
      const configPath = join(s.configDir, 'config.json');
      for (let i = 0; i < 10; i++) {
        if (i % 2 === 0) {
          const res = await postSettings(s, { plugin: SETTINGS_PLUGIN, settings: { baseUrl: { main: `https://h${i}.example.com` } } });
          assert.equal(res.status, 200, `call ${i + 1}`);
          assert.deepEqual(await res.json(), { ok: true });
        } else {
          const res = await postSettings(s, { plugin: SETTINGS_PLUGIN, settings: { baseUrl: { main: 'https://x.example.com' }, retries: 'three' } });
          assert.equal(res.status, 400, `call ${i + 1}`);
          assert.deepEqual(await res.json(), { ok: false, error: 'Settings validation failed: retries: must be a finite number' });
        }
      }
      const saved = readFileSync(configPath, 'utf8');
      assert.deepEqual(JSON.parse(saved).settings[SETTINGS_PLUGIN], { baseUrl: { main: 'https://h8.example.com' } });
      const res = await postSettings(s, { plugin: SETTINGS_PLUGIN, settings: { baseUrl: { main: 'https://eleventh.example.com' } } });
      assert.equal(res.status, 429);
      assert.equal(res.headers.get('retry-after'), '60');
      assert.deepEqual(await res.json(), { error: 'rate_limited', error_description: 'Too many requests; try again later' });
      assert.equal(readFileSync(configPath, 'utf8'), saved, 'the refused call changed nothing');
      // A separate bucket: tool calls are still served.
      const call = await s.callTool('no_such_tool', {});
      assert.equal(call.status, 404);
    } finally {
      assert.equal((await s.stop()).code, 0);
    }
  });
});
