// Several browser profiles at once against the real binary: two scripted extensions with
// different connectionIds.  Covers sync.full to each (on connect and after a reload), the
// routing of plugin dispatches (spec §3.7 step 6: the owner of tabId from browser_list_tabs
// or the tab maps, else the connection whose tab map has the plugin ready, then unavailable,
// then the first connection), the ★ fan-out tools (extension_get_state, extension_get_logs,
// browser_list_tabs: one entry per connection tagged with connectionId), a profile closing
// with calls pending (only its own calls fail), and tab state (§3.5/§3.6): tab.stateChanged
// and tab.syncAll drive /health pluginDetails[].tabState, malformed messages get −32602 when
// they are requests and are ignored without harm when they are notifications.
import { test, describe, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from './support/server.mjs';
import { ExtensionClient } from './support/extension_client.mjs';
import { writePlugin } from '../../bench/plugins.mjs';

const PLUGINS = ['mp-a', 'mp-b'];
const ECHO_SCHEMA = { type: 'object', properties: { n: { type: 'integer' } }, additionalProperties: false };

const tab = (tabId, plugin = 'mp-a', ready = true) => ({ tabId, url: `http://localhost/${plugin}/${tabId}`, title: `Tab ${tabId}`, ready });

describe('multiple browser profiles', () => {
  let s;
  let root;
  let open = [];

  /** Connects a profile that answers tool.dispatch with its own label (unless told otherwise). */
  async function profile(connectionId) {
    const ext = await new ExtensionClient(s, { connectionId }).connect();
    open.push(ext);
    await ext.waitFor((m) => m.method === 'sync.full');
    ext.on('tool.dispatch', (p) => ({ output: { by: connectionId, tabId: p.tabId ?? null, input: p.input } }));
    return ext;
  }

  /** A request/reply round trip: every message the profile sent before it has been handled. */
  async function drain(ext) {
    const r = await ext.request('config.getState');
    assert.ok(r.result, JSON.stringify(r));
  }

  async function syncTabs(ext, tabs) {
    ext.notify('tab.syncAll', { tabs });
    await drain(ext);
  }

  async function stateChanged(ext, plugin, state, tabs) {
    ext.notify('tab.stateChanged', { plugin, state, tabs });
    await drain(ext);
  }

  /**
   * Calls <plugin>_echo over MCP and returns the dispatch result ({by, tabId, input}).  MCP,
   * not REST: REST tool calls are limited to 30 a minute for the whole server.
   */
  let mcpHeaders;
  let mcpId = 1;
  const mcpPost = (body, headers = {}) =>
    s.fetch('/mcp', { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) });
  async function echo(plugin, args) {
    if (!mcpHeaders) {
      const init = await mcpPost({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'multi-profile', version: '0' } } });
      assert.equal(init.status, 200);
      await init.text();
      mcpHeaders = { 'Mcp-Session-Id': init.headers.get('mcp-session-id'), 'MCP-Protocol-Version': '2025-11-25' };
      await (await mcpPost({ jsonrpc: '2.0', method: 'notifications/initialized' }, mcpHeaders)).text();
    }
    const id = mcpId++;
    const text = await (await mcpPost({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: `${plugin}_echo`, arguments: args } }, mcpHeaders)).text();
    const msg = JSON.parse(text.split('\n').filter((l) => l.startsWith('data: ')).at(-1).slice(6));
    assert.equal(msg.id, id);
    assert.equal(msg.result.isError, undefined, text);
    return JSON.parse(msg.result.content[0].text);
  }

  const health = async () => (await s.fetch('/health')).json();
  const tabInfo = async (plugin) => {
    const d = (await health()).pluginDetails.find((p) => p.name === plugin);
    return { tabState: d.tabState, tabs: d.tabs };
  };

  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'opentabs-multi-'));
    const config = { localPlugins: [], additionalAllowedDirectories: [root], permissions: { browser: { permission: 'auto' } } };
    for (const name of PLUGINS) {
      const dir = join(root, name);
      writePlugin(dir, { name, tools: [{ name: 'echo', input_schema: ECHO_SCHEMA }] });
      config.localPlugins.push(dir);
      config.permissions[name] = { permission: 'auto' };
    }
    // Dispatches never time out within a test: a call that is not answered fails the test by its timeout.
    s = await startServer({ config, env: { OPENTABS_DISPATCH_TIMEOUT_MS: '600000', OPENTABS_DISPATCH_CAP_MS: '600000' } });
  });
  // Every test starts with no connection, so "the first connection" is the test's own first one.
  afterEach(async () => {
    await Promise.all(open.map((e) => (e.ws.readyState === 1 ? e.close() : undefined)));
    open = [];
    while ((await health()).extensionConnections !== 0);
  });
  after(async () => {
    assert.equal((await s.stop()).code, 0);
    rmSync(root, { recursive: true, force: true });
  });

  test('both profiles get sync.full on connect and after a reload; neither replaces the other', { timeout: 15_000 }, async () => {
    const a = await profile('profile-a');
    const b = await profile('profile-b');
    for (const ext of [a, b]) {
      const sync = ext.messages.find((m) => m.method === 'sync.full');
      assert.deepEqual(sync.params.plugins.map((p) => p.name).sort(), PLUGINS);
    }
    const h = await health();
    assert.equal(h.extensionConnected, true);
    assert.equal(h.extensionConnections, 2);

    const resyncA = a.next((m) => m.method === 'sync.full');
    const resyncB = b.next((m) => m.method === 'sync.full');
    const reload = await s.fetch('/reload', { method: 'POST' });
    assert.equal(reload.status, 200);
    assert.equal((await reload.json()).ok, true);
    await Promise.all([resyncA, resyncB]);
    assert.equal(a.ws.readyState, 1);
    assert.equal(b.ws.readyState, 1);
  });

  test('a call with tabId goes to the profile that reported the tab (tab.syncAll, tab.stateChanged)', { timeout: 15_000 }, async () => {
    const a = await profile('route-a');
    const b = await profile('route-b');
    await syncTabs(a, { 'mp-a': { state: 'ready', tabs: [tab(101)] } });
    await syncTabs(b, { 'mp-a': { state: 'ready', tabs: [tab(202)] } });

    assert.deepEqual(await echo('mp-a', { n: 1, tabId: 202 }), { by: 'route-b', tabId: 202, input: { n: 1 } });
    assert.deepEqual(await echo('mp-a', { n: 2, tabId: 101 }), { by: 'route-a', tabId: 101, input: { n: 2 } });
    // A tab B reports later through tab.stateChanged.
    await stateChanged(b, 'mp-a', 'ready', [tab(202), tab(303)]);
    assert.deepEqual(await echo('mp-a', { n: 3, tabId: 303 }), { by: 'route-b', tabId: 303, input: { n: 3 } });
    // The tab maps of other plugins count too (tabs are per browser, not per plugin).
    await syncTabs(b, { 'mp-a': { state: 'ready', tabs: [tab(202), tab(303)] }, 'mp-b': { state: 'unavailable', tabs: [tab(404, 'mp-b', false)] } });
    assert.deepEqual(await echo('mp-a', { n: 4, tabId: 404 }), { by: 'route-b', tabId: 404, input: { n: 4 } });

    // A tab no profile reported: routed like a call without tabId (both ready: the first connection).
    assert.deepEqual(await echo('mp-a', { n: 5, tabId: 999 }), { by: 'route-a', tabId: 999, input: { n: 5 } });

    const toA = a.messages.filter((m) => m.method === 'tool.dispatch').map((m) => m.params.tabId);
    const toB = b.messages.filter((m) => m.method === 'tool.dispatch').map((m) => m.params.tabId);
    assert.deepEqual(toA, [101, 999]);
    assert.deepEqual(toB, [202, 303, 404]);
  });

  test('without tabId: the profile with the plugin ready, else unavailable, else the first connection', { timeout: 15_000 }, async () => {
    const a = await profile('state-a'); // connected first
    const b = await profile('state-b');
    assert.equal((await echo('mp-a', { n: 0 })).by, 'state-a', 'no tab state anywhere: the first connection');
    await syncTabs(a, { 'mp-a': { state: 'unavailable', tabs: [tab(11, 'mp-a', false)] } });
    await syncTabs(b, { 'mp-a': { state: 'ready', tabs: [tab(22)] }, 'mp-b': { state: 'unavailable', tabs: [tab(23, 'mp-b', false)] } });
    assert.equal((await echo('mp-a', { n: 1 })).by, 'state-b', 'ready wins over unavailable');
    assert.equal((await echo('mp-b', { n: 2 })).by, 'state-b', 'unavailable wins over no state');

    await stateChanged(b, 'mp-a', 'closed', []);
    assert.equal((await echo('mp-a', { n: 3 })).by, 'state-a', 'unavailable wins over closed');
    await stateChanged(a, 'mp-a', 'closed', []);
    assert.equal((await echo('mp-a', { n: 4 })).by, 'state-a', 'closed everywhere: the first connection');
    await stateChanged(b, 'mp-a', 'ready', [tab(22)]);
    assert.equal((await echo('mp-a', { n: 5 })).by, 'state-b');
    const r = await echo('mp-a', { n: 6 });
    assert.equal(r.tabId, null, 'no tabId is sent when the caller gave none');
  });

  test('fan-out tools ask every profile and tag each entry with its connectionId', { timeout: 15_000 }, async () => {
    const a = await profile('fan-a');
    const b = await profile('fan-b');
    for (const [ext, label] of [[a, 'fan-a'], [b, 'fan-b']]) {
      ext.on('extension.getState', () => ({ connected: true, who: label }));
      const n = label === 'fan-a' ? 1 : 2;
      ext.on('extension.getLogs', () => ({ entries: [{ level: 'warn', source: 'background', message: `from ${label}`, ts: 3 + 2 * n }], stats: { totalBackground: n, totalOffscreen: n - 1, bufferSize: 4 * n } }));
    }
    a.on('browser.listTabs', () => [{ id: 11, title: 'A11', url: 'https://a.example/', active: true, windowId: 1 }]);
    b.on('browser.listTabs', () => [
      { id: 21, title: 'B21', url: 'https://b.example/1', active: true, windowId: 7 },
      { id: 22, title: 'B22', url: 'https://b.example/2', active: false, windowId: 7 },
    ]);
    const byConnection = (x, y) => x.connectionId.localeCompare(y.connectionId);

    // The original shapes (issue 14 item 6): {connections:[{connectionId, ...state}]} and
    // {entries (each with connectionId, newest first), stats}, per-connection detail added.
    const state = await s.callTool('extension_get_state', {});
    assert.equal(state.status, 200, JSON.stringify(state.body));
    const stateBody = JSON.parse(state.body.content[0].text);
    assert.deepEqual(Object.keys(stateBody), ['connections']);
    assert.deepEqual(stateBody.connections.sort(byConnection), [
      { connectionId: 'fan-a', connected: true, who: 'fan-a' },
      { connectionId: 'fan-b', connected: true, who: 'fan-b' },
    ]);

    const logs = await s.callTool('extension_get_logs', { level: 'warn', limit: 5 });
    assert.equal(logs.status, 200, JSON.stringify(logs.body));
    const logBody = JSON.parse(logs.body.content[0].text);
    assert.deepEqual(logBody.entries.map((e) => [e.connectionId, e.message, e.ts]), [
      ['fan-b', 'from fan-b', 7],
      ['fan-a', 'from fan-a', 5],
    ], 'newest first');
    assert.deepEqual(logBody.stats, { totalBackground: 3, totalOffscreen: 1, bufferSize: 12 });
    assert.deepEqual(logBody.connections.sort(byConnection).map((c) => [c.connectionId, c.stats.totalBackground]), [['fan-a', 1], ['fan-b', 2]]);
    for (const ext of [a, b]) {
      const asked = ext.messages.find((m) => m.method === 'extension.getLogs').params;
      assert.deepEqual([asked.level, asked.limit], ['warn', 5]);
    }

    const list = await s.callTool('browser_list_tabs', {});
    assert.equal(list.status, 200, JSON.stringify(list.body));
    const tabs = JSON.parse(list.body.content[0].text).sort((x, y) => x.id - y.id);
    assert.deepEqual(tabs.map((t) => [t.id, t.connectionId, t.title]), [
      [11, 'fan-a', 'A11'],
      [21, 'fan-b', 'B21'],
      [22, 'fan-b', 'B22'],
    ]);
    for (const ext of [a, b]) {
      for (const method of ['extension.getState', 'extension.getLogs', 'browser.listTabs'])
        assert.equal(ext.messages.filter((m) => m.method === method).length, 1, `${ext.connectionId} got one ${method}`);
    }
    // browser_list_tabs taught the server which profile owns which tab (no tab maps were sent).
    assert.equal((await echo('mp-a', { n: 1, tabId: 22 })).by, 'fan-b');
    assert.equal((await echo('mp-a', { n: 2, tabId: 11 })).by, 'fan-a');
  });

  test('closing one profile fails only its own pending calls (a pending fan-out answers, naming the lost profile); the other profile answers later', { timeout: 15_000 }, async () => {
    const a = await profile('keep-a');
    const b = await profile('gone-b');
    await syncTabs(a, { 'mp-a': { state: 'ready', tabs: [tab(101)] } });
    await syncTabs(b, { 'mp-a': { state: 'ready', tabs: [tab(202)] } });
    const heldA = [];
    let arrivedB = 0;
    let allArrived;
    const arrived = new Promise((r) => (allArrived = r));
    const check = () => heldA.length === 2 && arrivedB === 2 && allArrived();
    a.on('tool.dispatch', (p) => new Promise((resolve) => {
      heldA.push(() => resolve({ output: { by: 'keep-a', n: p.input.n } }));
      check();
    }));
    b.on('tool.dispatch', () => {
      arrivedB++;
      check();
      return new Promise(() => {}); // never answers
    });
    // A fan-out pending on B too (A answers it at once, B never does).
    a.on('extension.getState', () => ({ who: 'keep-a' }));
    let fanOutAtB;
    const fanOutArrived = new Promise((r) => (fanOutAtB = r));
    b.on('extension.getState', () => {
      fanOutAtB();
      return new Promise(() => {});
    });
    const settled = new Set();
    const call = (n, tabId) => s.callTool('mp-a_echo', { n, tabId }).then((r) => (settled.add(n), r));
    const onA = [call(1, 101), call(2, 101)];
    const onB = [call(3, 202), call(4, 202)];
    const fanOut = s.callTool('extension_get_state', {});
    await Promise.all([arrived, fanOutArrived]);

    await b.close();
    const state = await fanOut;
    assert.equal(state.status, 200, JSON.stringify(state.body));
    const entries = JSON.parse(state.body.content[0].text).connections;
    assert.deepEqual(entries.find((e) => e.connectionId === 'keep-a'), { connectionId: 'keep-a', who: 'keep-a' });
    // The profile that went away is reported, not silently left out.
    const lost = entries.find((e) => e.connectionId === 'gone-b');
    assert.match(lost?.error ?? '', /Extension disconnected/, JSON.stringify(entries));
    for (const r of await Promise.all(onB)) {
      assert.equal(r.body.isError, true, JSON.stringify(r.body));
      assert.match(r.body.content[0].text, /Extension disconnected/);
    }
    const h = await health();
    assert.equal(h.extensionConnections, 1);
    assert.deepEqual([...settled].sort(), [3, 4], "profile A's calls are still pending");
    assert.deepEqual((await tabInfo('mp-a')).tabs.map((t) => t.tabId), [101], "B's tab map went with it");

    for (const release of heldA) release();
    const answers = await Promise.all(onA);
    answers.forEach((r, i) => {
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(JSON.parse(r.body.content[0].text), { by: 'keep-a', n: i + 1 });
    });
    // B's tab now has no owner: a call for it goes to the remaining profile.
    a.on('tool.dispatch', (p) => ({ output: { by: 'keep-a', tabId: p.tabId } }));
    assert.deepEqual(JSON.parse((await s.callTool('mp-a_echo', { tabId: 202 })).body.content[0].text), { by: 'keep-a', tabId: 202 });
  });

  test('tab.stateChanged ready → unavailable → closed drives /health tabState (merged over profiles)', { timeout: 15_000 }, async () => {
    assert.deepEqual(await tabInfo('mp-a'), { tabState: 'closed', tabs: [] });
    const c = await profile('tabs-c');
    await stateChanged(c, 'mp-a', 'ready', [tab(7)]);
    assert.deepEqual(await tabInfo('mp-a'), { tabState: 'ready', tabs: [tab(7)] });
    const cfg = await c.request('config.getState');
    assert.equal(cfg.result.plugins.find((p) => p.name === 'mp-a').tabState, 'ready');
    assert.equal(cfg.result.plugins.find((p) => p.name === 'mp-b').tabState, 'closed');

    await stateChanged(c, 'mp-a', 'unavailable', [tab(7, 'mp-a', false)]);
    assert.deepEqual(await tabInfo('mp-a'), { tabState: 'unavailable', tabs: [tab(7, 'mp-a', false)] });
    await stateChanged(c, 'mp-a', 'closed', []);
    assert.deepEqual(await tabInfo('mp-a'), { tabState: 'closed', tabs: [] });

    // Two profiles: ready anywhere → ready; else unavailable anywhere → unavailable.
    const d = await profile('tabs-d');
    await stateChanged(d, 'mp-a', 'unavailable', [tab(8, 'mp-a', false)]);
    await stateChanged(c, 'mp-a', 'ready', [tab(7)]);
    const both = await tabInfo('mp-a');
    assert.equal(both.tabState, 'ready');
    assert.deepEqual(both.tabs.map((t) => t.tabId).sort(), [7, 8]);
    await stateChanged(c, 'mp-a', 'closed', []);
    assert.deepEqual(await tabInfo('mp-a'), { tabState: 'unavailable', tabs: [tab(8, 'mp-a', false)] });
    await d.close();
    while ((await health()).extensionConnections !== 1);
    assert.deepEqual(await tabInfo('mp-a'), { tabState: 'closed', tabs: [] }, "a closed profile's tab map is dropped");
  });

  test('malformed tab messages: −32602 for requests, ignored for notifications, the connection keeps working', { timeout: 15_000 }, async () => {
    const e = await profile('malformed');
    await stateChanged(e, 'mp-a', 'ready', [tab(5)]);
    const bad = [
      [{ state: 'ready', tabs: [] }, 'Missing params: plugin'],
      [{ plugin: 'mp-a', state: 'bogus', tabs: [] }, 'Invalid state: must be closed, unavailable or ready'],
      [{ plugin: 'mp-a', tabs: [] }, 'Invalid state: must be closed, unavailable or ready'],
      [{ plugin: 'no-such-plugin', state: 'ready', tabs: [] }, 'Plugin not found: no-such-plugin'],
      [{ plugin: 7, state: 'ready' }, 'Missing params: plugin'],
      [[{ plugin: 'mp-a', state: 'closed' }], 'params must be an object'],
      ['closed', 'params must be an object'],
    ];
    for (const [params, message] of bad) {
      const reply = await e.request('tab.stateChanged', params);
      assert.deepEqual(reply.error, { code: -32602, message }, JSON.stringify(params));
      e.notify('tab.stateChanged', params); // the same as a notification: no reply, no effect
    }
    e.send('{"jsonrpc":"2.0","method":"tab.stateChanged","params":{"plugin":'); // not JSON at all
    await drain(e);
    const replies = e.messages.filter((m) => m.id !== undefined && m.method === undefined && m.error);
    assert.equal(replies.length, bad.length, 'only the requests were answered');
    assert.deepEqual(await tabInfo('mp-a'), { tabState: 'ready', tabs: [tab(5)] }, 'the last good state stands');
    assert.equal((await tabInfo('mp-b')).tabState, 'closed');
    // A valid tab.stateChanged sent as a request: applied, and no reply (§3.5 "No success
    // reply"), not a Method-not-found error.
    e.send({ jsonrpc: '2.0', id: 'valid-state', method: 'tab.stateChanged', params: { plugin: 'mp-a', state: 'ready', tabs: [tab(5)] } });
    e.notify('ping');
    await e.next((m) => m.method === 'pong');
    assert.equal(e.messages.some((m) => m.id === 'valid-state'), false, 'a valid tab.stateChanged request gets no reply');
    assert.deepEqual(await echo('mp-a', { n: 1, tabId: 5 }), { by: 'malformed', tabId: 5, input: { n: 1 } });

    // tab.syncAll cleans what it keeps (spec §3.5): non-numeric tabIds dropped, unknown state → closed.
    await syncTabs(e, {
      'mp-a': { state: 'sideways', tabs: [{ tabId: 'x', url: 'http://localhost/mp-a/x' }, { tabId: 9, url: 'http://localhost/mp-a/9' }, 'junk'] },
      'mp-b': 'not an object',
    });
    assert.deepEqual(await tabInfo('mp-a'), { tabState: 'closed', tabs: [{ tabId: 9, url: 'http://localhost/mp-a/9', title: '', ready: false }] });
    assert.deepEqual(await tabInfo('mp-b'), { tabState: 'closed', tabs: [] });
  });
});
