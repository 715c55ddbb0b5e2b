// tools/list on /mcp in both encodings against the real binary (issue 18).  A client whose
// Accept-Encoding allows gzip (Node fetch, Python httpx, the SDK clients on them) gets the
// catalog's listing compressed once per tool-set generation; any other client gets it
// uncompressed.  Both must always be the same list, and both must follow every input of the
// list: a tool's or plugin's permission (the [Disabled] / [Requires approval] prefixes), the
// skip-permissions switch (ask listed as auto), the toolNames style, the plugins configured, and WebMCP page tools.
// A stale cached listing is a correctness bug, so each input is changed here in turn.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startServer } from './support/server.mjs';
import { ExtensionClient } from './support/extension_client.mjs';

const fixtures = resolve(new URL('../fixtures/plugins', import.meta.url).pathname);
const ACCEPT = 'application/json, text/event-stream';

const config = {
  localPlugins: [join(fixtures, 'notes'), join(fixtures, 'tracker')],
  additionalAllowedDirectories: [fixtures],
  permissions: { 'fixture-notes': { permission: 'auto' }, 'fixture-tracker': { permission: 'auto' } },
};

describe('tools/list, gzip and uncompressed, follows every input of the list', () => {
  let s;
  let ext;
  let h;
  let nextId = 100;

  const post = (body, headers) =>
    s.fetch('/mcp', { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: ACCEPT, ...h, ...headers }, body: JSON.stringify(body) });

  /** tools/list with and without gzip; checks the encodings and that both lists are equal. */
  async function listBoth() {
    const id = nextId++;
    const plain = await post({ jsonrpc: '2.0', id, method: 'tools/list' }, { 'Accept-Encoding': 'identity' });
    assert.equal(plain.status, 200);
    assert.equal(plain.headers.get('content-encoding'), null);
    const p = await plain.json();
    const sid = `list "${id}" \\ é`;
    const zipped = await post({ jsonrpc: '2.0', id: sid, method: 'tools/list', params: {} }, { 'Accept-Encoding': 'gzip, deflate' });
    assert.equal(zipped.status, 200);
    assert.equal(zipped.headers.get('content-encoding'), 'gzip');
    assert.ok(Number(zipped.headers.get('content-length')) < JSON.stringify(p).length, 'the gzip body is smaller');
    const z = await zipped.json(); // fetch inflates it; a bad CRC or length would throw
    assert.equal(p.id, id);
    assert.equal(z.id, sid);
    assert.equal(z.jsonrpc, '2.0');
    assert.deepEqual(z.result, p.result, 'gzip and uncompressed listings are the same');
    return p.result.tools;
  }
  const byName = (tools, name) => tools.find((t) => t.name === name);

  before(async () => {
    s = await startServer({ config, env: { OPENTABS_MCP_MAX_NEW_SESSIONS_PER_MINUTE: '100' } });
    ext = await new ExtensionClient(s, { connectionId: 'tools-list', capabilities: true }).connect();
    await ext.waitFor((m) => m.method === 'sync.full');
    const init = await s.fetch('/mcp', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: ACCEPT },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } }),
    });
    assert.equal(init.status, 200);
    h = { 'Mcp-Session-Id': init.headers.get('mcp-session-id'), 'MCP-Protocol-Version': '2025-11-25' };
    assert.equal((await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status, 202);
  });
  after(async () => {
    await ext?.close();
    await s?.stop();
  });

  test('the same listing both ways; a refused request and the gateway are answered as before', async () => {
    const tools = await listBoth();
    assert.ok(byName(tools, 'fixture-notes_get_note'));
    assert.ok(byName(tools, 'fixture-tracker_list_issues') || tools.some((t) => t.name.startsWith('fixture-tracker_')));
    // Twice in a row from the cache: still whole and equal.
    assert.deepEqual(await listBoth(), tools);
    // A cursor this server never issued is refused whatever the encoding.
    const bad = await post({ jsonrpc: '2.0', id: 5, method: 'tools/list', params: { cursor: 'x' } }, { 'Accept-Encoding': 'gzip' });
    assert.equal(bad.headers.get('content-encoding'), null);
    assert.equal((await bad.json()).error.code, -32602);
    // Other requests are not compressed.
    const ping = await post({ jsonrpc: '2.0', id: 6, method: 'ping' }, { 'Accept-Encoding': 'gzip' });
    assert.equal(ping.headers.get('content-encoding'), null);
    assert.deepEqual((await ping.json()).result, {});
    // gzip;q=0 means not gzip.
    const refused = await post({ jsonrpc: '2.0', id: 7, method: 'tools/list' }, { 'Accept-Encoding': 'gzip;q=0, identity' });
    assert.equal(refused.headers.get('content-encoding'), null);
    assert.deepEqual((await refused.json()).result.tools, tools);
    // The gateway's two meta-tools are not worth compressing.
    const g = { 'Content-Type': 'application/json', Accept: ACCEPT, 'Accept-Encoding': 'gzip' };
    const init = await s.fetch('/mcp/gateway', {
      method: 'POST',
      headers: g,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } }),
    });
    Object.assign(g, { 'Mcp-Session-Id': init.headers.get('mcp-session-id'), 'MCP-Protocol-Version': '2025-11-25' });
    const gl = await s.fetch('/mcp/gateway', { method: 'POST', headers: g, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) });
    assert.equal(gl.headers.get('content-encoding'), null);
    assert.deepEqual((await gl.json()).result.tools.map((t) => t.name).sort(), ['opentabs_call', 'opentabs_list_tools']);
  });

  test('a tool permission changes its prefix in both listings', async () => {
    await listBoth(); // both cached before the change
    const reply = await ext.request('config.setToolPermission', { plugin: 'fixture-notes', tool: 'get_note', permission: 'off' });
    assert.deepEqual(reply.result, { ok: true });
    let tools = await listBoth();
    assert.match(byName(tools, 'fixture-notes_get_note').description, /^\[Disabled\] /);
    await ext.request('config.setToolPermission', { plugin: 'fixture-notes', tool: 'get_note', permission: 'ask' });
    tools = await listBoth();
    assert.match(byName(tools, 'fixture-notes_get_note').description, /^\[Requires approval\] /);
  });

  test('a plugin permission changes every tool of the plugin in both listings', async () => {
    await listBoth();
    await ext.request('config.setPluginPermission', { plugin: 'fixture-tracker', permission: 'off' });
    const tools = await listBoth();
    const tracker = tools.filter((t) => t.name.startsWith('fixture-tracker_'));
    assert.ok(tracker.length > 0);
    for (const t of tracker) assert.match(t.description, /^\[Disabled\] /);
  });

  test('skip-permissions drops the approval prefixes in both listings, and turning it off brings them back', async () => {
    await listBoth();
    await ext.request('config.setSkipPermissions', { skipPermissions: true });
    let tools = await listBoth();
    // ask becomes auto; off stays off.
    assert.ok(!tools.some((t) => t.description.startsWith('[Requires approval] ')), 'no approval prefixes');
    assert.doesNotMatch(byName(tools, 'fixture-notes_get_note').description, /^\[/);
    assert.match(tools.find((t) => t.name.startsWith('fixture-tracker_')).description, /^\[Disabled\] /);
    await ext.request('config.setSkipPermissions', { skipPermissions: false });
    tools = await listBoth();
    assert.match(byName(tools, 'fixture-notes_get_note').description, /^\[Requires approval\] /);
  });

  test('the toolNames style renames the tools in both listings', async () => {
    await listBoth();
    const path = join(s.configDir, 'config.json');
    const cfg = JSON.parse(readFileSync(path, 'utf8'));
    cfg.toolNames = 'double-underscore';
    writeFileSync(path, JSON.stringify(cfg, null, 2));
    assert.equal((await s.fetch('/reload', { method: 'POST' })).status, 200);
    const tools = await listBoth();
    assert.ok(byName(tools, 'fixture-notes__get_note'), 'renamed');
    assert.equal(byName(tools, 'fixture-notes_get_note'), undefined);
  });

  test('removing a plugin from config.json removes its tools from both listings', async () => {
    await listBoth();
    const path = join(s.configDir, 'config.json');
    const cfg = JSON.parse(readFileSync(path, 'utf8'));
    cfg.localPlugins = [join(fixtures, 'notes')];
    writeFileSync(path, JSON.stringify(cfg, null, 2));
    assert.equal((await s.fetch('/reload', { method: 'POST' })).status, 200);
    const tools = await listBoth();
    assert.ok(!tools.some((t) => t.name.startsWith('fixture-tracker')), 'tracker tools gone');
    assert.ok(byName(tools, 'fixture-notes__get_note'));
  });

  test('WebMCP page tools appear in and leave both listings', async () => {
    await listBoth();
    const tool = { name: 'search', description: 'Searches the shop', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } };
    const reply = await ext.request('webmcp.frameTools', { tabId: 7, frameId: 0, documentId: 'doc-7', url: 'http://127.0.0.1:8123/shop', tools: [tool] });
    assert.equal(reply.result.accepted.length, 1);
    const name = reply.result.accepted[0].name;
    let tools = await listBoth();
    assert.ok(byName(tools, name), 'page tool listed');
    await ext.request('webmcp.tabRemoved', { tabId: 7 });
    tools = await listBoth();
    assert.equal(byName(tools, name), undefined, 'page tool gone');
  });
});
