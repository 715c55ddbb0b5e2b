// Issue 9, extension-side faults against the real binary: the extension's socket dies while
// calls are pending (REST and MCP): every pending call fails fast with an error naming the
// disconnect — none waits for its dispatch timeout, which is set far beyond the test's own
// timeout so a hang fails the test — and the next connection serves calls again; and a
// flood of plugin.log messages, which must leave the server answering everyone else with a
// bounded log buffer and bounded memory (the flood runs into the per-connection inbound
// limit, so most of it is dropped: that drop path is part of what is tested).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from './support/server.mjs';
import { ExtensionClient } from './support/extension_client.mjs';
import { writePlugin } from '../../bench/plugins.mjs';

const ACCEPT = 'application/json, text/event-stream';
const PLUGINS = ['fault-ext-a', 'fault-ext-b'];

function rssKiB(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m[1]);
}

describe('extension faults', () => {
  let s;
  let root;
  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'opentabs-fault-ext-'));
    const config = { localPlugins: [], additionalAllowedDirectories: [root], permissions: {} };
    for (const name of PLUGINS) {
      const dir = join(root, name);
      writePlugin(dir, { name, tools: [{ name: 'wait', input_schema: { type: 'object', properties: { n: { type: 'integer' } }, additionalProperties: false } }] });
      config.localPlugins.push(dir);
      config.permissions[name] = { permission: 'auto' };
    }
    s = await startServer({ config, env: { OPENTABS_DISPATCH_TIMEOUT_MS: '600000', OPENTABS_MCP_MAX_NEW_SESSIONS_PER_MINUTE: '100' } });
  });
  after(async () => {
    assert.equal((await s.stop()).code, 0);
    rmSync(root, { recursive: true, force: true });
  });

  test('the extension killed mid-call: every pending call fails fast, the next connection works', { timeout: 20_000 }, async () => {
    const ext = await new ExtensionClient(s, { connectionId: 'doomed' }).connect();
    await ext.waitFor((m) => m.method === 'sync.full');
    const REST = 20;
    let received = 0;
    let allReceived;
    const allArrived = new Promise((r) => (allReceived = r));
    ext.on('tool.dispatch', () => {
      if (++received === REST + 2) allReceived();
      return new Promise(() => {}); // never answers
    });
    const rest = Array.from({ length: REST }, (_, i) => s.callTool(`${PLUGINS[i % 2]}_wait`, { n: i }));
    // Two MCP sessions with a call each, one of them with a progress token (SSE stream open).
    const post = (body, headers = {}) => s.fetch('/mcp', { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: ACCEPT, ...headers }, body: JSON.stringify(body) });
    const mcpCalls = [];
    for (const progressToken of [undefined, 'p1']) {
      const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'fault', version: '0' } } });
      await init.text();
      const h = { 'Mcp-Session-Id': init.headers.get('mcp-session-id'), 'MCP-Protocol-Version': '2025-11-25' };
      await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, h)).text();
      const params = { name: `${PLUGINS[0]}_wait`, arguments: { n: 99 }, ...(progressToken ? { _meta: { progressToken } } : {}) };
      mcpCalls.push(post({ jsonrpc: '2.0', id: 7, method: 'tools/call', params }, h).then((r) => r.text()));
    }
    await allArrived;
    ext.terminate(); // the socket dies without a close frame, as when Chrome is killed

    for (const r of await Promise.all(rest)) {
      assert.equal(r.body.isError, true, JSON.stringify(r.body));
      assert.match(r.body.content[0].text, /disconnect|connection|extension/i, r.body.content[0].text);
    }
    for (const text of await Promise.all(mcpCalls)) {
      const msg = JSON.parse(text.split('\n').filter((l) => l.startsWith('data: ')).at(-1).slice(6));
      assert.equal(msg.id, 7);
      assert.equal(msg.result.isError, true, text);
    }
    const health = await (await s.fetch('/health')).json();
    assert.equal(health.extensionConnected, false);

    const next = await new ExtensionClient(s, { connectionId: 'reborn' }).connect();
    await next.waitFor((m) => m.method === 'sync.full');
    next.on('tool.dispatch', (p) => ({ output: { n: p.input.n } }));
    const ok = await s.callTool(`${PLUGINS[1]}_wait`, { n: 5 });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.deepEqual(JSON.parse(ok.body.content[0].text), { n: 5 });
    await next.close();
  });

  test('a reply over the 10 MiB message limit fails its call at once, naming the limit', { timeout: 20_000 }, async () => {
    const ext = await new ExtensionClient(s, { connectionId: 'bulky' }).connect();
    await ext.waitFor((m) => m.method === 'sync.full');
    // 11 MiB of text: under the 20 MiB frame limit (the socket stays up) but over what the
    // server parses.  The dispatch timeout is 600 s, so only the size check can end the call.
    ext.on('tool.dispatch', (p) => (p.input.n === 1 ? { output: { blob: 'x'.repeat(11 * 1024 * 1024) } } : { output: { n: p.input.n } }));
    const big = await s.callTool(`${PLUGINS[0]}_wait`, { n: 1 });
    assert.equal(big.body.isError, true, JSON.stringify(big.body).slice(0, 500));
    assert.match(big.body.content[0].text, /reply is too large \(\d+ bytes, limit 10485760\)/);
    const after = await s.callTool(`${PLUGINS[0]}_wait`, { n: 2 });
    assert.equal(after.status, 200, JSON.stringify(after.body));
    assert.deepEqual(JSON.parse(after.body.content[0].text), { n: 2 });
    await ext.close();
  });

  test('a flood of plugin.log messages: the server keeps answering, the buffer and memory stay bounded', { timeout: 60_000 }, async () => {
    const ext = await new ExtensionClient(s, { connectionId: 'flooder' }).connect();
    await ext.waitFor((m) => m.method === 'sync.full');
    ext.on('tool.dispatch', (p) => ({ output: { n: p.input.n } }));
    const pid = s.child.pid;
    // Warm-up, so the comparison below measures the flood and not first-use allocations.
    for (let i = 0; i < 1000; i++) ext.notify('plugin.log', { plugin: PLUGINS[0], level: 'info', message: `warm ${i}`, ts: Date.now() });
    await ext.request('config.getState');
    const before = rssKiB(pid);

    const FLOOD = 100_000;
    const message = 'x'.repeat(1000);
    let healthy = 0;
    for (let i = 0; i < FLOOD; i++) {
      ext.notify('plugin.log', { plugin: PLUGINS[i % 2], level: ['debug', 'info', 'warning', 'error'][i % 4], message, data: { i }, ts: Date.now() });
      if (i % 10_000 === 0) {
        // Other clients are served during the flood.
        assert.equal((await fetch(`${s.base}/health`)).status, 200);
        healthy++;
      }
    }
    // The server drops what one connection sends beyond 2000 messages a second
    // (extension_hub.cpp), requests included, so the flooder's own request is retried until
    // its window has passed; the test's timeout bounds the retries.
    let state;
    while (!state) state = await ext.request('config.getState').catch(() => undefined);
    assert.ok(state.result, 'the flooding connection itself is answered again');
    const call = await s.callTool(`${PLUGINS[1]}_wait`, { n: 1 });
    assert.equal(call.status, 200, JSON.stringify(call.body));
    const health = await (await s.fetch('/health')).json();
    for (const name of PLUGINS) {
      const d = health.pluginDetails.find((p) => p.name === name);
      assert.ok(d.logBufferSize > 0 && d.logBufferSize <= 1000, `${name} log buffer ${d.logBufferSize}`);
    }
    const grown = rssKiB(pid) - before;
    // Under AddressSanitizer freed memory sits in its quarantine (256 MiB by default), so RSS
    // says nothing there; scripts/sanitize.sh sets OPENTABS_SANITIZER.
    if (!process.env.OPENTABS_SANITIZER)
      assert.ok(grown < 64 * 1024, `RSS grew by ${grown} KiB over ${FLOOD} log messages (~${FLOOD / 1000} MB of log text)`);
    assert.equal(healthy, FLOOD / 10_000);
    await ext.close();
  });
});
