// MCP revision 2026-07-28 beside 2025-11-25 on the real binary (issue 27): Claude Code's
// exact server/discover probe, stateless requests with per-request _meta on /mcp and
// /mcp/gateway, the header rules (HeaderMismatch), version errors, resultType and the
// cacheable tools/list, removed methods, GET/DELETE, subscriptions/listen and per-request
// log levels (through the --conformance-mode fixtures), and legacy sessions still working
// next to all of it.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './support/server.mjs';

const ACCEPT = 'application/json, text/event-stream';
const V = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': V,
  'io.modelcontextprotocol/clientInfo': { name: 'opentabs-test', version: '0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** The JSON-RPC messages in an SSE body. */
function sse(text) {
  return text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6)));
}

/** A 2026-07-28 request with the headers a conforming client sends; `headers` overrides them. */
function modern(s, method, params = {}, { path = '/mcp', headers = {}, id = 1 } = {}) {
  const h = { 'Content-Type': 'application/json', Accept: ACCEPT, 'MCP-Protocol-Version': V, 'Mcp-Method': method };
  if (method === 'tools/call') h['Mcp-Name'] = params.name;
  // An override of undefined removes the header.
  const merged = Object.fromEntries(Object.entries({ ...h, ...headers }).filter(([, v]) => v !== undefined));
  return s.fetch(path, {
    method: 'POST',
    headers: merged,
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: { ...META, ...params._meta } } }),
  });
}

/** The response to request `id` in a JSON or SSE answer. */
async function answer(r, id = 1) {
  if ((r.headers.get('content-type') ?? '').includes('text/event-stream')) return sse(await r.text()).find((m) => m.id === id);
  return r.json();
}

async function legacyToolsList(s, path = '/mcp') {
  const post = (body, headers = {}) =>
    s.fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: ACCEPT, ...headers }, body: JSON.stringify(body) });
  const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'legacy', version: '0' } } });
  assert.equal(init.status, 200);
  const h = { 'Mcp-Session-Id': init.headers.get('mcp-session-id'), 'MCP-Protocol-Version': '2025-11-25' };
  assert.equal((await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, h)).status, 202);
  const list = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, h);
  assert.equal(list.status, 200);
  return (await list.json()).result;
}

describe('MCP 2026-07-28 on /mcp and /mcp/gateway', () => {
  let s;
  before(async () => {
    s = await startServer({ env: { OPENTABS_MCP_MAX_NEW_SESSIONS_PER_MINUTE: '100' } });
  });
  after(async () => {
    await s.stop();
  });

  test('a 2026-07-28 request that still carries a stale Mcp-Session-Id is served (the id is ignored), not 404', async () => {
    const r = await modern(s, 'server/discover', {}, { headers: { 'Mcp-Session-Id': 'gone-0000' } });
    assert.equal(r.status, 200);
    const body = await answer(r);
    assert.ok(body.result?.supportedVersions?.includes(V), JSON.stringify(body));
  });

  test("Claude Code's exact probe (headers and body) gets a discover result, without a session", async () => {
    const r = await s.fetch('/mcp', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: ACCEPT, 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'server/discover' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'server-discover-probe-1',
        method: 'server/discover',
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 'claude-code', version: '2.1.332' },
            'io.modelcontextprotocol/clientCapabilities': { roots: { listChanged: true }, elicitation: { form: {}, url: {} } },
          },
        },
      }),
    });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('mcp-session-id'), null);
    const body = await r.json();
    assert.equal(body.id, 'server-discover-probe-1');
    const res = body.result;
    assert.equal(res.resultType, 'complete');
    assert.deepEqual(res.supportedVersions, ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26']);
    assert.deepEqual(res.capabilities.tools, { listChanged: true });
    assert.deepEqual(res.capabilities.extensions, { 'io.modelcontextprotocol/tasks': {} });
    assert.equal(res._meta['io.modelcontextprotocol/serverInfo'].name, 'opentabs');
    assert.match(res.instructions, /OpenTabs/);
    assert.ok(Number.isInteger(res.ttlMs) && res.ttlMs >= 0);
    assert.equal(res.cacheScope, 'public');
  });

  test('tools/list is a cacheable result in a deterministic order, identical in content to the 2025 listing', async () => {
    const lists = [];
    for (let i = 0; i < 3; i++) {
      const r = await modern(s, 'tools/list');
      assert.equal(r.status, 200);
      lists.push((await r.json()).result);
    }
    const [first] = lists;
    assert.equal(first.resultType, 'complete');
    assert.equal(first.ttlMs, 60000);
    assert.equal(first.cacheScope, 'private');
    assert.ok(first.tools.length > 0);
    for (const l of lists) assert.deepEqual(l.tools.map((t) => t.name), first.tools.map((t) => t.name));
    assert.deepEqual((await legacyToolsList(s)).tools, first.tools);
  });

  test('tools/call answers on the request stream with resultType complete', async () => {
    const r = await modern(s, 'tools/call', { name: 'browser_list_tabs', arguments: {} });
    assert.equal(r.status, 200);
    const res = (await answer(r)).result;
    assert.equal(res.resultType, 'complete');
    assert.ok(Array.isArray(res.content));
  });

  test('the gateway speaks 2026-07-28 too: discover, cacheable two-tool list, a meta-tool call', async () => {
    const d = await (await modern(s, 'server/discover', {}, { path: '/mcp/gateway' })).json();
    assert.equal(d.result._meta['io.modelcontextprotocol/serverInfo'].name, 'opentabs-gateway');
    assert.equal(d.result.capabilities.logging, undefined);
    const l = (await (await modern(s, 'tools/list', {}, { path: '/mcp/gateway' })).json()).result;
    assert.deepEqual(l.tools.map((t) => t.name), ['opentabs_list_tools', 'opentabs_call']);
    assert.equal(l.resultType, 'complete');
    assert.equal(l.cacheScope, 'private');
    const c = await modern(s, 'tools/call', { name: 'opentabs_list_tools', arguments: { plugin: 'browser' } }, { path: '/mcp/gateway' });
    const res = (await answer(c)).result;
    assert.equal(res.resultType, 'complete');
    assert.match(res.content[0].text, /browser_list_tabs/);
  });

  test('bad input gets the spec errors, each naming the problem, and other clients are unaffected', async () => {
    const cases = [
      ['missing Mcp-Method', modern(s, 'tools/list', {}, { headers: { 'Mcp-Method': undefined } }), 400, -32020, /Mcp-Method/],
      ['Mcp-Method differs', modern(s, 'tools/list', {}, { headers: { 'Mcp-Method': 'prompts/list' } }), 400, -32020, /prompts\/list/],
      ['missing Mcp-Name', modern(s, 'tools/call', { name: 'browser_list_tabs' }, { headers: { 'Mcp-Name': undefined } }), 400, -32020, /Mcp-Name/],
      ['Mcp-Name differs', modern(s, 'tools/call', { name: 'browser_list_tabs' }, { headers: { 'Mcp-Name': 'other_tool' } }), 400, -32020, /other_tool/],
      ['version header differs from _meta', modern(s, 'tools/list', { _meta: { 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } }), 400, -32020, /2099-01-01/],
      ['unknown version', modern(s, 'tools/list', { _meta: { 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } }, { headers: { 'MCP-Protocol-Version': '2099-01-01' } }), 400, -32022, /2099-01-01/],
      ['missing protocol version in _meta', modern(s, 'tools/list', { _meta: { 'io.modelcontextprotocol/protocolVersion': undefined } }), 400, -32602, /protocolVersion/],
      ['missing client capabilities', modern(s, 'tools/list', { _meta: { 'io.modelcontextprotocol/clientCapabilities': undefined } }), 400, -32602, /clientCapabilities/],
      ['oversized _meta', modern(s, 'tools/list', { _meta: { padding: 'x'.repeat(20_000) } }), 400, -32602, /larger than/],
      ['removed method ping', modern(s, 'ping'), 404, -32601, /ping/],
      ['removed method initialize', modern(s, 'initialize'), 404, -32601, /initialize/],
    ];
    for (const [what, pending, status, code, message] of cases) {
      const r = await pending;
      assert.equal(r.status, status, what);
      const body = await r.json();
      assert.equal(body.id, 1, `${what}: the error names the request`);
      assert.equal(body.error.code, code, what);
      assert.match(body.error.message, message, what);
    }
    const unknown = await (await modern(s, 'tools/list', { _meta: { 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } }, { headers: { 'MCP-Protocol-Version': '2099-01-01' } })).json();
    assert.deepEqual(unknown.error.data, { supported: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'], requested: '2099-01-01' });
    for (const method of ['GET', 'DELETE']) {
      const r = await s.fetch('/mcp', { method, headers: { Accept: ACCEPT, 'MCP-Protocol-Version': V } });
      assert.equal(r.status, 405, method);
      assert.equal(r.headers.get('allow'), 'POST');
    }
    // Nothing above disturbed a 2025-11-25 session or a good 2026-07-28 request.
    assert.ok((await legacyToolsList(s)).tools.length > 0);
    assert.equal((await modern(s, 'tools/list')).status, 200);
  });
});

describe('MCP 2026-07-28 subscriptions/listen and per-request logging (conformance fixtures)', () => {
  let s;
  before(async () => {
    s = await startServer({ args: ['--conformance-mode'] });
  });
  after(async () => {
    await s.stop();
  });

  test('subscriptions/listen streams are bounded per client: the fifth is refused (429), another client still listens, /health answers', async () => {
    const as = (name) => ({ notifications: { toolsListChanged: true }, _meta: { 'io.modelcontextprotocol/clientInfo': { name, version: '0' } } });
    const open = [];
    try {
      for (let i = 0; i < 4; i++) {
        const r = await modern(s, 'subscriptions/listen', as('stream-hog'), { id: `hog-${i}` });
        assert.equal(r.status, 200);
        open.push(r);
      }
      const refused = await modern(s, 'subscriptions/listen', as('stream-hog'), { id: 'hog-4' });
      assert.equal(refused.status, 429);
      const body = await refused.json();
      assert.match(body.error.message, /this client has 4 subscriptions\/listen streams open \(the limit is 4\)/);
      const other = await modern(s, 'subscriptions/listen', as('someone-else'), { id: 'other-1' });
      assert.equal(other.status, 200);
      open.push(other);
      assert.equal((await s.fetch('/health', { signal: AbortSignal.timeout(10_000) })).status, 200);
    } finally {
      for (const r of open) await r.body.cancel();
    }
  });

  test('subscriptions/listen acknowledges first, then tags notifications/tools/list_changed with the subscription id', async () => {
    const r = await modern(s, 'subscriptions/listen', { notifications: { toolsListChanged: true, promptsListChanged: true } }, { id: 'sub-1' });
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type'), /text\/event-stream/);
    const reader = r.body.getReader();
    const messages = [];
    let buffered = '';
    const next = async () => {
      while (true) {
        const lines = buffered.split('\n');
        const at = lines.findIndex((l) => l.startsWith('data: '));
        if (at >= 0 && lines.length > at + 1) {
          buffered = lines.slice(at + 1).join('\n');
          return JSON.parse(lines[at].slice(6));
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('listen stream ended');
        buffered += new TextDecoder().decode(value);
      }
    };
    messages.push(await next());
    assert.equal(messages[0].method, 'notifications/subscriptions/acknowledged');
    assert.deepEqual(messages[0].params.notifications, { toolsListChanged: true });
    assert.equal(messages[0].params._meta['io.modelcontextprotocol/subscriptionId'], 'sub-1');
    const trigger = await modern(s, 'tools/call', { name: 'test_trigger_tool_change', arguments: {} });
    assert.equal((await answer(trigger)).result.resultType, 'complete');
    const changed = await next();
    assert.equal(changed.method, 'notifications/tools/list_changed');
    assert.equal(changed.params._meta['io.modelcontextprotocol/subscriptionId'], 'sub-1');
    await reader.cancel();
  });

  test('notifications/message only for a request whose _meta sets a log level', async () => {
    const quiet = sse(await (await modern(s, 'tools/call', { name: 'test_logging_tool', arguments: {} })).text());
    assert.equal(quiet.filter((m) => m.method === 'notifications/message').length, 0);
    assert.equal(quiet.at(-1).result.resultType, 'complete');
    const loud = sse(await (await modern(s, 'tools/call', { name: 'test_logging_tool', arguments: {}, _meta: { 'io.modelcontextprotocol/logLevel': 'info' } })).text());
    assert.equal(loud.filter((m) => m.method === 'notifications/message').length, 3);
    const warnOnly = sse(await (await modern(s, 'tools/call', { name: 'test_logging_tool', arguments: {}, _meta: { 'io.modelcontextprotocol/logLevel': 'warning' } })).text());
    assert.equal(warnOnly.filter((m) => m.method === 'notifications/message').length, 0);
  });

  test('progress goes to the request that asked for it', async () => {
    const events = sse(await (await modern(s, 'tools/call', { name: 'test_tool_with_progress', arguments: {}, _meta: { progressToken: 'p1' } })).text());
    assert.deepEqual(events.filter((m) => m.method === 'notifications/progress').map((m) => m.params.progress), [0, 50, 100]);
    assert.equal(events.at(-1).result.resultType, 'complete');
  });
});
