// Issue 3 with the official TypeScript SDK client (Streamable HTTP + bearer header) against
// the real binary: tools/list (order, permission prefixes, injected tabId/instance),
// tools/call relayed to a scripted extension client, progress and plugin-log
// notifications, the ask flow's approval progress, cancellation, list_changed, two
// independent clients, DELETE → 404, and the /mcp/gateway meta-tools.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { startServer } from './support/server.mjs';
import { notesExtension } from './support/mcp_2026.mjs';
import { connectSdk } from './support/mcp_client.mjs';
import { until } from './support/until.mjs';

const fixtures = resolve(new URL('../fixtures/plugins', import.meta.url).pathname);

const config = {
  localPlugins: [join(fixtures, 'notes'), join(fixtures, 'tracker')],
  additionalAllowedDirectories: [fixtures],
  permissions: {
    browser: { permission: 'auto' },
    'fixture-notes': { permission: 'auto', tools: { create_note: 'ask', failing_tool: 'off' } },
    'fixture-tracker': { permission: 'auto' },
  },
  settings: { 'fixture-tracker': { instanceUrl: { alpha: 'http://localhost:7001', beta: 'http://127.0.0.1:7002' } } },
};

/** An SDK client connected to `path` with the bearer token; records notifications. */
const connect = (s, path = '/mcp', name = 'sdk-test') => connectSdk(s, { path, name });

/** Polls `pred` every 10 ms until it holds (bounded by the test's own timeout). */
describe('MCP over Streamable HTTP with the official SDK client', () => {
  let s;
  let ext;
  before(async () => {
    s = await startServer({ config, env: { OPENTABS_MCP_MAX_NEW_SESSIONS_PER_MINUTE: '100' } });
    ext = await notesExtension(s, 'mcp-sdk');
  });
  after(async () => {
    await ext.close();
    await s.stop();
  });

  test('initialize: opentabs, 2025-11-25, tools.listChanged, logging, prompts and completions, instructions', async () => {
    const { client, transport } = await connect(s);
    assert.equal(transport.protocolVersion, '2025-11-25');
    assert.match(transport.sessionId, /^[0-9a-f-]{36}$/);
    assert.equal(client.getServerVersion().name, 'opentabs');
    assert.deepEqual(client.getServerCapabilities(), { tools: { listChanged: true }, logging: {}, prompts: { listChanged: false }, completions: {}, resources: { subscribe: true, listChanged: true } });
    assert.match(client.getInstructions(), /Requires approval/);
    assert.deepEqual(await client.ping(), {});
    await transport.terminateSession();
    await client.close();
  });

  test('tools/list: plugin → browser → platform order, prefixes, injected tabId and instance', async () => {
    const { client, transport } = await connect(s);
    const { tools, nextCursor } = await client.listTools();
    assert.equal(nextCursor, undefined);
    const names = tools.map((t) => t.name);
    const idx = (n) => names.indexOf(n);
    assert.ok(idx('fixture-notes_echo') >= 0);
    assert.ok(idx('fixture-notes_echo') < idx('browser_list_tabs'));
    assert.ok(idx('browser_list_tabs') < idx('plugin_inspect'));
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    assert.ok(!byName['fixture-notes_echo'].description.startsWith('['));
    assert.ok(byName['fixture-notes_create_note'].description.startsWith('[Requires approval] '));
    assert.ok(byName['fixture-notes_failing_tool'].description.startsWith('[Disabled] '));
    assert.equal(byName['fixture-notes_echo'].inputSchema.properties.tabId.type, 'integer');
    const issues = byName['fixture-tracker_list_issues'].inputSchema;
    assert.deepEqual(issues.properties.instance.enum.sort(), ['alpha', 'beta']);
    assert.ok(issues.required.includes('instance'));
    for (const t of tools) assert.ok(t.description.length > 0, `${t.name} has a description`);
    await transport.terminateSession();
    await client.close();
  });

  test('tools/call is relayed as tool.dispatch; progress and plugin logs arrive as notifications', async () => {
    const { client, transport, logs } = await connect(s);
    await client.setLoggingLevel('info');
    ext.on('tool.dispatch', async (p) => {
      assert.equal(p.plugin, 'fixture-notes');
      assert.equal(p.tool, 'slow_with_progress');
      ext.notify('tool.progress', { dispatchId: p.__opentabs_dispatchId, progress: 1, total: 3, message: 'step 1' });
      ext.notify('plugin.log', { plugin: 'fixture-notes', level: 'debug', message: 'filtered out by setLevel info' });
      ext.notify('plugin.log', { plugin: 'fixture-notes', level: 'info', message: 'working', data: { step: 1 } });
      ext.notify('tool.progress', { dispatchId: p.__opentabs_dispatchId, progress: 2, total: 3 });
      return { output: { done: true, steps: p.input.steps } };
    });
    const progress = [];
    const result = await client.callTool(
      { name: 'fixture-notes_slow_with_progress', arguments: { steps: 2 } },
      undefined,
      { onprogress: (p) => progress.push(p) },
    );
    assert.equal(result.isError, undefined);
    assert.deepEqual(JSON.parse(result.content[0].text), { done: true, steps: 2 });
    assert.deepEqual(progress, [{ progress: 1, total: 3, message: 'step 1' }, { progress: 2, total: 3 }]);
    await until(() => logs.length >= 1);
    assert.deepEqual(logs, [{ level: 'info', logger: 'plugin:fixture-notes', data: 'working {"step":1}' }]);
    ext.handlers.delete('tool.dispatch');
    await transport.terminateSession();
    await client.close();
  });

  test('tool errors are isError results; unknown tools are a -32602 protocol error', async () => {
    const { client, transport } = await connect(s);
    ext.on('tool.dispatch', () => {
      throw Object.assign(new Error('No matching tab for plugin "fixture-notes" (state: closed)'), { code: -32001 });
    });
    const r = await client.callTool({ name: 'fixture-notes_echo', arguments: { message: 'x' } });
    assert.equal(r.isError, true);
    assert.match(r.content[0].text, /^Tab closed: /);
    const invalid = await client.callTool({ name: 'fixture-notes_echo', arguments: { message: 42 } });
    assert.equal(invalid.isError, true);
    assert.match(invalid.content[0].text, /Invalid arguments for tool "fixture-notes_echo"/);
    await assert.rejects(client.callTool({ name: 'fixture-notes_nope' }), (e) => e.code === -32602 && /not found/.test(e.message));
    ext.handlers.delete('tool.dispatch');
    assert.deepEqual(await client.ping(), {});
    await transport.terminateSession();
    await client.close();
  });

  test('an ask tool reports the approval wait as progress, then runs once allowed', async () => {
    const { client, transport } = await connect(s);
    ext.on('tool.dispatch', (p) => ({ output: { created: p.input.title } }));
    const progress = [];
    const call = client.callTool(
      { name: 'fixture-notes_create_note', arguments: { title: 'from mcp' } },
      undefined,
      { onprogress: (p) => progress.push(p) },
    );
    const req = await ext.next((m) => m.method === 'confirmation.request');
    assert.equal(req.params.tool, 'create_note');
    await until(() => progress.length >= 1);
    assert.deepEqual(progress[0], { progress: 0, total: 1, message: 'Waiting for user approval in the OpenTabs side panel' });
    ext.notify('confirmation.response', { id: req.params.id, decision: 'allow' });
    const r = await call;
    assert.deepEqual(JSON.parse(r.content[0].text), { created: 'from mcp' });
    ext.handlers.delete('tool.dispatch');
    await transport.terminateSession();
    await client.close();
  });

  test('cancellation stops a pending call and the session keeps working', async () => {
    const { client, transport } = await connect(s);
    let dispatched;
    ext.on('tool.dispatch', (p) => {
      dispatched = p.__opentabs_dispatchId;
      return undefined; // never answers on its own
    });
    const abort = new AbortController();
    const call = client.callTool({ name: 'fixture-notes_echo', arguments: { message: 'hang' } }, undefined, { signal: abort.signal });
    await until(() => dispatched !== undefined);
    abort.abort('test cancels');
    await assert.rejects(call, /abort|cancel/i);
    // The server dropped the dispatch: the audit log records a failed call for it.
    const cancelledEntry = (a) => a.length && a[0].success === false && /cancel/i.test(JSON.stringify(a[0].error));
    let audit = [];
    for (let i = 0; i < 250 && !cancelledEntry(audit); i++) {
      if (i) await new Promise((r) => setTimeout(r, 20));
      audit = await (await s.fetch('/audit?tool=fixture-notes_echo&limit=1')).json();
    }
    assert.ok(cancelledEntry(audit), `newest audit entry records the cancellation: ${JSON.stringify(audit[0])}`);
    ext.send({ jsonrpc: '2.0', id: dispatched, result: { output: 'late' } }); // ignored
    ext.handlers.delete('tool.dispatch');
    assert.deepEqual(await client.ping(), {});
    await transport.terminateSession();
    await client.close();
  });

  test('two clients are independent: one parked call does not affect the other', async () => {
    const a = await connect(s, '/mcp', 'client-a');
    const b = await connect(s, '/mcp', 'client-b');
    let parked;
    ext.on('tool.dispatch', (p) => {
      if (p.input.message === 'park') {
        parked = p.__opentabs_dispatchId;
        return undefined;
      }
      return { output: { echo: p.input.message } };
    });
    const abort = new AbortController();
    const slow = a.client.callTool({ name: 'fixture-notes_echo', arguments: { message: 'park' } }, undefined, { signal: abort.signal });
    await until(() => parked !== undefined);
    const quick = await b.client.callTool({ name: 'fixture-notes_echo', arguments: { message: 'b' } });
    assert.deepEqual(JSON.parse(quick.content[0].text), { echo: 'b' });
    assert.ok((await b.client.listTools()).tools.length > 80);
    await b.transport.terminateSession();
    await b.client.close();
    ext.send({ jsonrpc: '2.0', id: parked, result: { output: { echo: 'a' } } });
    const r = await slow;
    assert.deepEqual(JSON.parse(r.content[0].text), { echo: 'a' });
    ext.handlers.delete('tool.dispatch');
    await a.transport.terminateSession();
    await a.client.close();
  });

  test('a permission change sends tools/list_changed and the new prefix is listed', async () => {
    const { client, transport, listChanged } = await connect(s);
    const reply = await ext.request('config.setToolPermission', { plugin: 'fixture-notes', tool: 'get_note', permission: 'off' });
    assert.deepEqual(reply.result, { ok: true });
    await until(() => listChanged.length >= 1);
    const { tools } = await client.listTools();
    assert.ok(tools.find((t) => t.name === 'fixture-notes_get_note').description.startsWith('[Disabled] '));
    await transport.terminateSession();
    await client.close();
  });

  test('a deleted session gets 404', async () => {
    const { client, transport } = await connect(s);
    const sid = transport.sessionId;
    await transport.terminateSession();
    const r = await s.fetch('/mcp', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'Mcp-Session-Id': sid,
        'MCP-Protocol-Version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    assert.equal(r.status, 404);
    assert.equal((await r.json()).error.code, -32001);
    await client.close();
  });

  test('/mcp/gateway: exactly two meta-tools over the same pipeline', async () => {
    const { client, transport } = await connect(s, '/mcp/gateway');
    assert.equal(client.getServerVersion().name, 'opentabs-gateway');
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), ['opentabs_list_tools', 'opentabs_call']);
    const listing = JSON.parse((await client.callTool({ name: 'opentabs_list_tools', arguments: { plugin: 'fixture-notes' } })).content[0].text);
    assert.ok(listing.every((t) => t.plugin === 'fixture-notes'));
    assert.ok(listing.find((t) => t.name === 'fixture-notes_echo').inputSchema.properties.tabId);
    const all = JSON.parse((await client.callTool({ name: 'opentabs_list_tools' })).content[0].text);
    assert.ok(all.some((t) => t.plugin === 'browser') && all.some((t) => t.plugin === 'platform'));

    ext.on('tool.dispatch', (p) => {
      ext.notify('tool.progress', { dispatchId: p.__opentabs_dispatchId, progress: 1, total: 2 });
      return new Promise((r) => setTimeout(() => r({ output: { via: 'gateway', message: p.input.message } }), 20));
    });
    const progress = [];
    const r = await client.callTool(
      { name: 'opentabs_call', arguments: { tool: 'fixture-notes_echo', arguments: { message: 'gw' } } },
      undefined,
      { onprogress: (p) => progress.push(p) },
    );
    assert.deepEqual(JSON.parse(r.content[0].text), { via: 'gateway', message: 'gw' });
    assert.deepEqual(progress, [{ progress: 1, total: 2 }]);
    const invalid = await client.callTool({ name: 'opentabs_call', arguments: { tool: 'fixture-notes_echo', arguments: { message: 7 } } });
    assert.equal(invalid.isError, true);
    assert.match(invalid.content[0].text, /Invalid arguments for tool "fixture-notes_echo"/);
    const audit = await (await s.fetch('/audit?tool=fixture-notes_echo&limit=5')).json();
    assert.ok(audit.some((e) => e.success === true));
    await assert.rejects(client.callTool({ name: 'fixture-notes_echo', arguments: {} }), (e) => e.code === -32602 && /Unknown gateway tool/.test(e.message));
    ext.handlers.delete('tool.dispatch');
    await transport.terminateSession();
    await client.close();
  });
});
