// Prompts as slash commands (issue 40) on the real binary, with a scripted extension on the
// real /ws protocol: prompts/list and prompts/get for both revisions through the official
// SDK clients (1.x in a 2025-11-25 session, 2.x pinned to 2026-07-28, over HTTP and through
// the stdio bridge), work_on_tab taking
// the tab's snapshot through the tool pipeline (audited like a call; refused like a call
// when the browser permission is off), review_plugin showing what a plugin can reach and
// its audit entries, build_plugin asking the person which site (an elicitation/create in a
// session, an InputRequiredResult with a sealed requestState on 2026-07-28),
// completion/complete for tab ids (by title) and plugin names, and the errors of an unknown
// prompt or a missing, undeclared or wrong argument (-32602), after which the server keeps
// serving.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as SessionClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as SessionTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { startServer } from './support/server.mjs';
import { ExtensionClient } from './support/extension_client.mjs';
import { bridgeTransport } from './support/mcp_2026.mjs';

const fixtures = resolve(new URL('../fixtures/plugins', import.meta.url).pathname);
const config = {
  localPlugins: [join(fixtures, 'notes')],
  additionalAllowedDirectories: [fixtures],
  permissions: { browser: { permission: 'auto' }, 'fixture-notes': { permission: 'auto' } },
};
const SNAPSHOT = '- heading "Notes" [ref=e1@ab12] [level=1]\n- button "New note" [ref=e2@ab12]';
const ACCEPT = 'application/json, text/event-stream';
const V = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': V,
  'io.modelcontextprotocol/clientInfo': { name: 'slash-test', version: '0' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
};

let nextId = 1;
/** A 2026-07-28 request as a conforming client sends it; resolves the JSON-RPC response. */
async function modern(s, method, params) {
  const id = nextId++;
  const headers = { 'Content-Type': 'application/json', Accept: ACCEPT, 'MCP-Protocol-Version': V, 'Mcp-Method': method, Authorization: `Bearer ${s.secret}` };
  if (method === 'prompts/get') headers['Mcp-Name'] = params.name;
  const r = await s.fetch('/mcp', { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: META } }) });
  const text = await r.text();
  if ((r.headers.get('content-type') ?? '').includes('text/event-stream'))
    return text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6))).find((m) => m.id === id);
  return JSON.parse(text);
}

/** A scripted extension that announces our extension's methods and has the notes tab 11 open. */
async function notesTab(s, connectionId) {
  const ext = await new ExtensionClient(s, { connectionId, capabilities: true }).connect();
  await ext.waitFor((m) => m.method === 'sync.full');
  ext.notify('tab.syncAll', {
    tabs: { 'fixture-notes': { state: 'ready', tabs: [{ tabId: 11, url: 'http://localhost:9876/notes', title: 'Notes', ready: true }] } },
  });
  // Every open tab, as browser_list_tabs (and completion, when listing runs without asking) sees them.
  ext.on('browser.listTabs', () => [
    { id: 11, title: 'Notes', url: 'http://localhost:9876/notes' },
    { id: 22, title: 'Inbox', url: 'https://mail.example.com/' },
  ]);
  return ext;
}

const texts = (prompt) => prompt.messages.map((m) => m.content.text).join('\n');

describe('prompts as slash commands', () => {
  let s;
  let ext;
  let snapshots = 0;
  before(async () => {
    s = await startServer({ config, env: { OPENTABS_MCP_MAX_NEW_SESSIONS_PER_MINUTE: '100' } });
    ext = await notesTab(s, 'slash');
    ext.on('browser.snapshot', (p) => {
      snapshots++;
      return { tabId: p.tabId, snapshot: SNAPSHOT };
    });
    ext.on('tool.dispatch', (p) => ({ output: { echo: p.input.message } }));
  });
  after(async () => {
    await ext.close();
    await s.stop();
  });

  async function sessionClient(name, onElicit) {
    const client = new SessionClient({ name, version: '1.0.0' }, { capabilities: onElicit ? { elicitation: {} } : {} });
    if (onElicit) client.setRequestHandler(ElicitRequestSchema, async (req) => onElicit(req.params));
    await client.connect(new SessionTransport(new URL(`${s.base}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${s.secret}` } } }));
    return client;
  }

  test('2025-11-25 session (SDK 1.x): the capability, the list, work_on_tab with the snapshot through the pipeline, completion', { timeout: 30_000 }, async () => {
    const client = await sessionClient('slash-session');
    try {
      const caps = client.getServerCapabilities();
      assert.ok(caps.prompts, JSON.stringify(caps));
      assert.ok(caps.completions, JSON.stringify(caps));
      const { prompts } = await client.listPrompts();
      assert.deepEqual(prompts.map((p) => p.name), ['work_on_tab', 'build_plugin', 'review_plugin']);
      const work = prompts[0];
      assert.deepEqual(work.arguments.map((a) => [a.name, a.required]), [['tabId', true], ['task', false]]);

      const before = snapshots;
      const prompt = await client.getPrompt({ name: 'work_on_tab', arguments: { tabId: '11', task: 'add a note' } });
      assert.equal(snapshots, before + 1, 'the snapshot was asked of the extension');
      const all = texts(prompt);
      assert.match(all, /tab 11/);
      assert.match(all, /The task: add a note/);
      assert.match(all, /Plugin fixture-notes .* works in this tab/);
      assert.match(all, /fixture-notes_echo/);
      assert.match(all, /browser_click_element/);
      assert.match(all, /heading \\"Notes\\" \[ref=e1@ab12\]|heading "Notes" \[ref=e1@ab12\]/);
      assert.match(all, /untrusted/);
      const audit = await (await s.fetch('/audit?tool=browser_snapshot&limit=1')).json();
      assert.equal(audit[0].tool, 'browser_snapshot');
      assert.equal(audit[0].success, true);

      const byTitle = await client.complete({ ref: { type: 'ref/prompt', name: 'work_on_tab' }, argument: { name: 'tabId', value: 'note' } });
      assert.deepEqual(byTitle.completion.values, ['11']);
      // A tab no plugin reported, found by its title through the extension's tab list.
      const inbox = await client.complete({ ref: { type: 'ref/prompt', name: 'work_on_tab' }, argument: { name: 'tabId', value: 'inbox' } });
      assert.deepEqual(inbox.completion.values, ['22']);
      const plugin = await client.complete({ ref: { type: 'ref/prompt', name: 'review_plugin' }, argument: { name: 'plugin', value: 'fix' } });
      assert.deepEqual(plugin.completion.values, ['fixture-notes']);
      const nothing = await client.complete({ ref: { type: 'ref/prompt', name: 'review_plugin' }, argument: { name: 'plugin', value: 'zzz' } });
      assert.deepEqual(nothing.completion.values, []);
    } finally {
      await client.close();
    }
  });

  test('review_plugin: what the plugin reaches, its tools and permission, its last audit entries', { timeout: 30_000 }, async () => {
    const client = await sessionClient('slash-review');
    try {
      await client.callTool({ name: 'fixture-notes_echo', arguments: { message: 'audited' } });
      const prompt = await client.getPrompt({ name: 'review_plugin', arguments: { plugin: 'fixture-notes' } });
      const all = texts(prompt);
      assert.match(all, /fixture-notes/);
      assert.match(all, /runs inside tabs matching: \S+/);
      assert.match(all, /fixture-notes_echo \[runs without asking\]/);
      assert.match(all, /fixture-notes_echo ok in \d+ ms/);
      assert.match(all, /plugin_inspect/);
      assert.match(all, /plugin_mark_reviewed/);
    } finally {
      await client.close();
    }
  });

  test('bad input: unknown prompt, missing, undeclared or wrong argument, unknown plugin — -32602 each, and the server keeps serving', { timeout: 30_000 }, async () => {
    const client = await sessionClient('slash-errors');
    try {
      const cases = [
        [{ name: 'work_on_tabs', arguments: { tabId: '11' } }, /Unknown prompt "work_on_tabs".*work_on_tab, build_plugin, review_plugin/],
        [{ name: 'work_on_tab', arguments: {} }, /needs argument tabId/],
        [{ name: 'work_on_tab', arguments: { tabId: '11', tab: '11' } }, /has no argument "tab"/],
        [{ name: 'work_on_tab', arguments: { tabId: 'eleven' } }, /tabId must be a tab id/],
        [{ name: 'review_plugin', arguments: { plugin: 'nope' } }, /No plugin "nope" is installed; the plugins are: fixture-notes/],
      ];
      for (const [params, message] of cases) {
        await assert.rejects(client.getPrompt(params), (e) => e.code === -32602 && message.test(e.message), JSON.stringify(params));
      }
      await assert.rejects(client.complete({ ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'x', value: '' } }), (e) => e.code === -32602);
      assert.equal((await client.listPrompts()).prompts.length, 3);
    } finally {
      await client.close();
    }
  });

  test('build_plugin without a site asks the person through elicitation/create in a session', { timeout: 30_000 }, async () => {
    const asked = [];
    const client = await sessionClient('slash-build', (params) => {
      asked.push(params);
      return { action: 'accept', content: { site: 'app.example.com', goal: 'list invoices' } };
    });
    try {
      const prompt = await client.getPrompt({ name: 'build_plugin', arguments: {} });
      assert.equal(asked.length, 1);
      assert.match(asked[0].message, /Which site/);
      const all = texts(prompt);
      assert.match(all, /for app\.example\.com, whose tools list invoices/);
      assert.match(all, /opentabs plugin create example --domain app\.example\.com/);
      assert.match(all, /plugin_analyze_site/);
      assert.match(all, /npm run build/);
      assert.match(all, /defineTool/);
    } finally {
      await client.close();
    }
    const declined = await sessionClient('slash-build-declined', () => ({ action: 'decline' }));
    try {
      await assert.rejects(declined.getPrompt({ name: 'build_plugin', arguments: {} }), /needs the site argument: the person did not answer the question \(decline\)/);
    } finally {
      await declined.close();
    }
  });

  test('2026-07-28: list with caching hints, build_plugin asks through an InputRequiredResult with a sealed requestState', { timeout: 30_000 }, async () => {
    const list = await modern(s, 'prompts/list', {});
    assert.equal(list.result.resultType, 'complete');
    assert.ok(Number.isInteger(list.result.ttlMs) && list.result.ttlMs > 0);
    assert.equal(list.result.cacheScope, 'public');
    const first = await modern(s, 'prompts/get', { name: 'build_plugin', arguments: {} });
    assert.equal(first.result.resultType, 'input_required', JSON.stringify(first));
    const question = first.result.inputRequests.opentabs_plugin_site;
    assert.equal(question.method, 'elicitation/create');
    assert.equal(typeof first.result.requestState, 'string');
    const answer = { opentabs_plugin_site: { action: 'accept', content: { site: 'https://docs.example.org/start' } } };
    const tampered = await modern(s, 'prompts/get', { name: 'build_plugin', arguments: {}, inputResponses: answer, requestState: first.result.requestState + 'x' });
    assert.equal(tampered.error.code, -32602);
    const done = await modern(s, 'prompts/get', { name: 'build_plugin', arguments: {}, inputResponses: answer, requestState: first.result.requestState });
    assert.equal(done.result.resultType, 'complete', JSON.stringify(done));
    assert.match(done.result.messages[0].content.text, /for docs\.example\.org\./);
    const replayed = await modern(s, 'prompts/get', { name: 'build_plugin', arguments: {}, inputResponses: answer, requestState: first.result.requestState });
    assert.equal(replayed.error.code, -32602, 'a requestState is redeemed once');
    const completion = await modern(s, 'completion/complete', { ref: { type: 'ref/prompt', name: 'work_on_tab' }, argument: { name: 'tabId', value: '1' } });
    assert.equal(completion.result.resultType, 'complete');
    assert.deepEqual(completion.result.completion.values, ['11']);
    const resourceCompletion = await modern(s, 'completion/complete', { ref: { type: 'ref/resource', uri: 'opentabs://tabs/{tabId}/text' }, argument: { name: 'tabId', value: '1' } });
    assert.deepEqual(resourceCompletion.result.completion.values, ['11'], 'a tab resource template completes its tabId');
  });

  test('2026-07-28 through the SDK 2.x client: list and get', { timeout: 30_000 }, async () => {
    const client = new Client({ name: 'slash-sdk2', version: '1.0.0' }, { versionNegotiation: { mode: { pin: V } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.base}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${s.secret}` } } }));
    try {
      assert.equal(client.getProtocolEra(), 'modern');
      const { prompts } = await client.listPrompts();
      assert.ok(prompts.some((p) => p.name === 'work_on_tab'));
      const prompt = await client.getPrompt({ name: 'work_on_tab', arguments: { tabId: '11' } });
      assert.match(texts(prompt), /ref=e2@ab12/);
    } finally {
      await client.close();
    }
  });

  test('through the stdio bridge (SDK 2.x, 2026-07-28): the capability in the discover answer the bridge gives itself, list, get and complete', { timeout: 30_000 }, async () => {
    const { transport, stderr } = bridgeTransport(s);
    const client = new Client({ name: 'slash-stdio', version: '1.0.0' }, { versionNegotiation: { mode: { pin: V } } });
    await client.connect(transport);
    try {
      assert.ok(client.getDiscoverResult().capabilities.prompts, stderr());
      assert.ok(client.getDiscoverResult().capabilities.completions);
      const { prompts } = await client.listPrompts();
      assert.deepEqual(prompts.map((p) => p.name), ['work_on_tab', 'build_plugin', 'review_plugin']);
      const prompt = await client.getPrompt({ name: 'review_plugin', arguments: { plugin: 'fixture-notes' } });
      assert.match(texts(prompt), /fixture-notes_echo/);
      const plugin = await client.complete({ ref: { type: 'ref/prompt', name: 'review_plugin' }, argument: { name: 'plugin', value: 'notes' } });
      assert.deepEqual(plugin.completion.values, ['fixture-notes']);
    } finally {
      await client.close();
    }
  });

  test('the gateway offers no prompts', async () => {
    const r = await s.fetch('/mcp/gateway', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: ACCEPT, 'MCP-Protocol-Version': V, 'Mcp-Method': 'prompts/list', Authorization: `Bearer ${s.secret}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'prompts/list', params: { _meta: META } }),
    });
    assert.equal((await r.json()).error.code, -32601);
  });
});

describe('prompts follow the browser permission', () => {
  let s;
  let ext;
  before(async () => {
    s = await startServer({ config: { ...config, permissions: { browser: { permission: 'off' } } } });
    ext = await notesTab(s, 'slash-off');
    ext.on('browser.snapshot', () => ({ snapshot: 'never asked' }));
  });
  after(async () => {
    await ext.close();
    await s.stop();
  });

  test('work_on_tab with the browser tools off: the prompt says why no snapshot is attached, and none was taken', { timeout: 30_000 }, async () => {
    const client = new SessionClient({ name: 'slash-off', version: '1.0.0' }, { capabilities: {} });
    await client.connect(new SessionTransport(new URL(`${s.base}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${s.secret}` } } }));
    try {
      const prompt = await client.getPrompt({ name: 'work_on_tab', arguments: { tabId: '11' } });
      const all = texts(prompt);
      assert.match(all, /snapshot could not be attached: .*disabled/i);
      assert.doesNotMatch(all, /never asked/);
      assert.ok(!ext.messages.some((m) => m.method === 'browser.snapshot'));
      assert.match(all, /browser_snapshot \[Disabled\]/);
    } finally {
      await client.close();
    }
  });
});
