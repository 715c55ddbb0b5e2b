// Attacker's view, issue 13 item 1: regex denial of service from any web page.  A page needs
// no permission to register WebMCP tools, so a scripted extension (the real /ws protocol)
// reports tools whose inputSchemas carry hostile patterns: (?:){40000} and a{49000} took
// the server's only I/O thread for seconds (and gigabytes) at registration, and (.*)+Z on a
// 40 kB argument for minutes at call time.  The server must keep answering /health and a
// normal tool call while such a page registers, accept the registration at once (schemas are
// compiled only when a call of an enabled site needs them, off the I/O thread), refuse the
// hostile tools with a message naming the pattern and the reason, answer the backtracking
// pattern with a validation result, and hold pages to their per-page caps.  Deadlines are
// the clients' own timeouts (fetch AbortSignal, the MCP SDK's request timeout, the scripted
// extension's 5 s reply timeout): on the old code every one of them ran out.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './support/server.mjs';
import { ExtensionClient } from './support/extension_client.mjs';
import { connectSdk } from './support/mcp_client.mjs';
import { pageWords } from './support/page_text.mjs';

const HOSTILE = 'http://127.0.0.1:8666';
const HOSTILE_KEY = 'webmcp:127_0_0_1_8666';
const H = 'webmcp_127_0_0_1_8666_';
const NORMAL = 'http://127.0.0.1:8667';
const NORMAL_KEY = 'webmcp:127_0_0_1_8667';
const ECHO = 'webmcp_127_0_0_1_8667_echo';
const DEADLINE_MS = 10_000;

// The first text block, without the page-content marks a page's own result carries.
const text = (r) => pageWords(r);
const frameTools = (tabId, url, tools, frameId = 0) => ({ tabId, frameId, documentId: `doc-${tabId}-${frameId}`, url, tools });
// An object schema with `count` string properties, each constrained by `pattern`.
const patterned = (pattern, count = 1) => ({
  type: 'object',
  properties: Object.fromEntries(Array.from({ length: count }, (_, i) => [`p${i}`, { type: 'string', pattern }])),
});
const tool = (name, inputSchema) => ({ name, description: `hostile ${name}`, inputSchema });

describe('security: regex denial of service from a web page', () => {
  let s;
  let ext;
  let mcp;
  const call = (name, args) => mcp.client.callTool({ name, arguments: args }, undefined, { timeout: DEADLINE_MS });

  before(async () => {
    s = await startServer({ config: { permissions: {} } });
    ext = await new ExtensionClient(s, { connectionId: 'profile-security-regex', capabilities: true }).connect();
    await ext.waitFor((m) => m.method === 'sync.full');
    mcp = await connectSdk(s, { name: 'security-regex' });
    // Both sites enabled: the hostile page's schemas are then compiled as soon as a call needs them.
    for (const key of [HOSTILE_KEY, NORMAL_KEY])
      assert.deepEqual((await ext.request('config.setPluginPermission', { plugin: key, permission: 'auto' })).result, { ok: true });
    ext.on('webmcp.callTool', (params) => ({ content: [{ type: 'text', text: `${params.tool}:${JSON.stringify(params.arguments).length}:${params.arguments.text?.slice(0, 20) ?? ''}` }] }));
    const normal = await ext.request('webmcp.frameTools', frameTools(1, `${NORMAL}/`, [
      { name: 'echo', description: 'Echoes text', inputSchema: { type: 'object', properties: { text: { type: 'string', pattern: '^[a-z ]+$' } }, required: ['text'] } },
    ]));
    assert.deepEqual(normal.result.accepted, [{ tool: 'echo', name: ECHO }]);
  });

  after(async () => {
    await mcp?.client.close();
    await ext?.close();
    await s?.stop();
  });

  test('a page registering hostile patterns is answered at once while /health and a normal call keep being served', async () => {
    const registered = ext.request('webmcp.frameTools', frameTools(2, `${HOSTILE}/`, [
      tool('empty_repeat', patterned('(?:){40000}', 4)),
      tool('big_repeat', patterned('a{49000}', 20)),
      tool('nested_repeat', patterned('(?:(?:a{1000}){1000}){1000}', 2)),
      tool('backtrack', { type: 'object', properties: { text: { type: 'string', pattern: '(.*)+Z' } } }),
      tool('lookahead', patterned('^(?!x)a', 1)),
      tool('too_many_patterns', patterned('^a', 65)),
    ]));
    const health = await fetch(`${s.base}/health`, { signal: AbortSignal.timeout(DEADLINE_MS) });
    assert.equal(health.status, 200);
    const echoed = await call(ECHO, { text: 'still served' });
    assert.notEqual(echoed.isError, true, text(echoed));
    assert.equal(text(echoed), 'echo:23:still served');
    const reply = await registered;  // the scripted extension gives up after 5 s
    assert.deepEqual(reply.result.rejected, []);
    assert.deepEqual(reply.result.accepted.map((a) => a.tool).sort(),
      ['backtrack', 'big_repeat', 'empty_repeat', 'lookahead', 'nested_repeat', 'too_many_patterns']);
  });

  test('calling a hostile tool says it cannot be called, naming the pattern and why', async () => {
    const cases = [
      ['empty_repeat', /pattern "\(\?:\)\{40000\}" cannot be used: a repetition count of 40000 is not supported \(at most 1000\)/],
      ['big_repeat', /pattern "a\{49000\}" cannot be used: a repetition count of 49000/],
      ['nested_repeat', /pattern "\(\?:\(\?:a\{1000\}\)\{1000\}\)\{1000\}" cannot be used: (too complex|repetitions nest too deeply)/],
      ['lookahead', /pattern "\^\(\?!x\)a" cannot be used: lookahead assertions/],
      ['too_many_patterns', /more than 64 patterns/],
    ];
    for (const [name, why] of cases) {
      const r = await call(H + name, { p0: 'a' });
      assert.equal(r.isError, true, name);
      assert.match(text(r), new RegExp(`WebMCP tool "${H}${name}" cannot be called: the page's inputSchema was refused`));
      assert.match(text(r), why);
    }
    // Refused once, remembered: the second call gives the same answer without compiling again.
    const again = await call(H + 'empty_repeat', {});
    assert.match(text(again), /repetition count of 40000/);
    const audit = await (await s.fetch(`/audit?tool=${H}empty_repeat&limit=1`)).json();
    assert.equal(audit[0].success, false);
    assert.equal(audit[0].error.code, 'INVALID_SCHEMA');
  });

  test('(.*)+Z against a 40 kB argument returns a validation result, and a matching one reaches the page', async () => {
    const long = 'a'.repeat(40_000);
    const invalid = await call(H + 'backtrack', { text: long });
    assert.equal(invalid.isError, true);
    assert.match(text(invalid), /Invalid arguments:\n {2}- \/text: must match pattern "\(\.\*\)\+Z"/);
    const valid = await call(H + 'backtrack', { text: `${long}Z` });
    assert.notEqual(valid.isError, true, text(valid));
    assert.match(text(valid), /^backtrack:40012:a{20}$/);
    // Meanwhile and afterwards the normal tool still works.
    assert.equal(text(await call(ECHO, { text: 'after' })), 'echo:16:after');
  });

  test('per-page caps: tools per tab across its frames, and schema bytes per tab', async () => {
    const many = (prefix, n) => Array.from({ length: n }, (_, i) => ({ name: `${prefix}${i}`, description: 'one of many' }));
    const first = await ext.request('webmcp.frameTools', frameTools(5, `${HOSTILE}/a`, many('a', 100), 0));
    const second = await ext.request('webmcp.frameTools', frameTools(5, `${HOSTILE}/b`, many('b', 100), 1));
    const third = await ext.request('webmcp.frameTools', frameTools(5, `${HOSTILE}/c`, many('c', 100), 2));
    assert.equal(first.result.accepted.length, 100);
    assert.equal(second.result.accepted.length, 100);
    assert.equal(third.result.accepted.length, 0);
    assert.deepEqual(third.result.rejected, [{ tool: '100 more tool(s)', reason: 'too many WebMCP tools on this page (limit 200 per tab)' }]);

    // ~60 kB schemas (under the 64 kB per-tool cap): 512 kB per page holds eight of them.
    const bulky = (name) => ({ name, description: 'bulky', inputSchema: { type: 'object', description: 'x'.repeat(60_000) } });
    const upper = await ext.request('webmcp.frameTools', frameTools(6, `${HOSTILE}/d`, ['s0', 's1', 's2', 's3', 's4'].map(bulky), 0));
    const lower = await ext.request('webmcp.frameTools', frameTools(6, `${HOSTILE}/e`, ['s5', 's6', 's7', 's8', 's9'].map(bulky), 1));
    assert.equal(upper.result.accepted.length, 5);
    assert.deepEqual(lower.result.accepted.map((a) => a.tool), ['s5', 's6', 's7']);
    assert.deepEqual(lower.result.rejected.map((r) => r.tool), ['s8', 's9']);
    for (const r of lower.result.rejected)
      assert.equal(r.reason, 'the inputSchemas of this page\'s WebMCP tools exceed 524288 bytes in total');
    await ext.request('webmcp.tabRemoved', { tabId: 5 });
    await ext.request('webmcp.tabRemoved', { tabId: 6 });
  });
});
