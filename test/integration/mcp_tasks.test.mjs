// The MCP tasks extension (io.modelcontextprotocol/tasks, issue 27 "long calls as tasks")
// on the real binary, over raw 2026-07-28 HTTP requests, through the --conformance-mode
// fixtures (slow_compute runs for its `seconds`, confirm_delete asks a question, greet is
// never a task): a call that outlives the threshold becomes a task polled to completion,
// a cancelled task, a task's question answered with tasks/update, the bounds (per-client
// bound that never evicts a running task, tasks kept apart by credential as well as name, ttl) and the bad input (unknown and foreign task ids, clients that did not
// declare the extension, mismatched Mcp-Name, removed methods).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './support/server.mjs';
import { proofHeader } from './support/proof_auth.mjs';

const ACCEPT = 'application/json, text/event-stream';
const V = '2026-07-28';
const TASKS = 'io.modelcontextprotocol/tasks';

function meta(client, withTasks) {
  return {
    'io.modelcontextprotocol/protocolVersion': V,
    'io.modelcontextprotocol/clientInfo': { name: client, version: '0' },
    'io.modelcontextprotocol/clientCapabilities': withTasks ? { elicitation: { form: {} }, extensions: { [TASKS]: {} } } : {},
  };
}

/** One 2026-07-28 request; resolves {status, body} (the JSON-RPC response). */
async function rpc(s, method, params = {}, { client = 'tasks-test', withTasks = true, headers = {} } = {}) {
  const h = { 'Content-Type': 'application/json', Accept: ACCEPT, 'MCP-Protocol-Version': V, 'Mcp-Method': method };
  if (method === 'tools/call') h['Mcp-Name'] = params.name;
  if (method.startsWith('tasks/') && typeof params.taskId === 'string') h['Mcp-Name'] = params.taskId;
  const r = await s.fetch('/mcp', {
    method: 'POST',
    headers: { ...h, ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params: { ...params, _meta: meta(client, withTasks) } }),
  });
  const text = await r.text();
  const body = (r.headers.get('content-type') ?? '').includes('text/event-stream')
    ? text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6))).find((m) => m.id === 7)
    : JSON.parse(text);
  return { status: r.status, body };
}

/** tasks/get until `done(result)` holds (bounded). */
async function pollTask(s, taskId, done, opts = {}) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const { body } = await rpc(s, 'tasks/get', { taskId }, opts);
    assert.ok(body.result, `tasks/get answered ${JSON.stringify(body)}`);
    if (done(body.result)) return body.result;
    assert.ok(Date.now() < deadline, `task ${taskId} still ${body.result.status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
const terminal = (t) => ['completed', 'failed', 'cancelled'].includes(t.status);

async function startTask(s, args, opts) {
  const { status, body } = await rpc(s, 'tools/call', { name: 'slow_compute', arguments: args }, opts);
  assert.equal(status, 200);
  assert.equal(body.result?.resultType, 'task', JSON.stringify(body));
  return body.result;
}

describe('MCP tasks extension (2026-07-28)', () => {
  let s;
  before(async () => {
    s = await startServer({ args: ['--conformance-mode'], env: { OPENTABS_MCP_TASK_AFTER_MS: '200', OPENTABS_MCP_TASKS_PER_CLIENT: '3' } });
  });
  after(async () => {
    await s.stop();
  });

  test('server/discover advertises the extension', async () => {
    const { body } = await rpc(s, 'server/discover', {}, { withTasks: false });
    assert.deepEqual(body.result.capabilities.extensions, { [TASKS]: {} });
  });

  test('a call that outlives the threshold becomes a task, polled to its inlined result', async () => {
    const created = await startTask(s, { seconds: 1, label: 'polled' });
    assert.match(created.taskId, /^[0-9a-f]{32}$/);
    assert.equal(created.status, 'working');
    assert.ok(Number.isInteger(created.ttlMs) && created.ttlMs > 0);
    assert.ok(Number.isInteger(created.pollIntervalMs) && created.pollIntervalMs > 0);
    assert.match(created.createdAt, /^\d{4}-\d\d-\d\dT/);
    for (const absent of ['result', 'error', 'inputRequests', 'requestState']) assert.ok(!(absent in created), absent);
    // Durably created before the handle went out: an immediate tasks/get finds it.
    const first = await rpc(s, 'tasks/get', { taskId: created.taskId });
    assert.equal(first.body.result.taskId, created.taskId);
    assert.equal(first.body.result.resultType, 'complete');
    const done = await pollTask(s, created.taskId, terminal);
    assert.equal(done.status, 'completed');
    assert.equal(done.result.content[0].text, 'Computed polled after 1000 ms');
  });

  test('a quick call, a never-task tool and a client without the extension are answered directly', async () => {
    const quick = await rpc(s, 'tools/call', { name: 'slow_compute', arguments: { seconds: 0, label: 'quick' } });
    assert.equal(quick.body.result.resultType, 'complete');
    assert.equal(quick.body.result.content[0].text, 'Computed quick after 0 ms');
    const greet = await rpc(s, 'tools/call', { name: 'greet', arguments: { name: 'Ada' } });
    assert.equal(greet.body.result.content[0].text, 'Hello, Ada!');
    const plain = await rpc(s, 'tools/call', { name: 'slow_compute', arguments: { seconds: 0.5, label: 'sync' } }, { withTasks: false });
    assert.equal(plain.body.result.resultType, 'complete');
    assert.ok(!('taskId' in plain.body.result));
    assert.equal(plain.body.result.content[0].text, 'Computed sync after 500 ms');
  });

  test('tasks/cancel stops a running task (an empty ack), and is idempotent on the terminal task', async () => {
    const created = await startTask(s, { seconds: 60, label: 'cancelled' });
    const ack = await rpc(s, 'tasks/cancel', { taskId: created.taskId });
    assert.deepEqual(ack.body.result, { resultType: 'complete' });
    const done = await pollTask(s, created.taskId, terminal);
    assert.equal(done.status, 'cancelled');
    const again = await rpc(s, 'tasks/cancel', { taskId: created.taskId });
    assert.deepEqual(again.body.result, { resultType: 'complete' });
  });

  test("a task's question waits in inputRequests until tasks/update answers it", async () => {
    const { body } = await rpc(s, 'tools/call', { name: 'confirm_delete', arguments: { filename: 'a.txt' } });
    assert.equal(body.result.resultType, 'task');
    const waiting = await pollTask(s, body.result.taskId, (t) => t.status !== 'working');
    assert.equal(waiting.status, 'input_required');
    const [key] = Object.keys(waiting.inputRequests);
    assert.equal(waiting.inputRequests[key].method, 'elicitation/create');
    assert.match(waiting.inputRequests[key].params.message, /Delete a\.txt\?/);
    // An answer to a key never asked is ignored; the task keeps waiting.
    const stray = await rpc(s, 'tasks/update', { taskId: body.result.taskId, inputResponses: { 'no-such-key': { action: 'accept' } } });
    assert.deepEqual(stray.body.result, { resultType: 'complete' });
    assert.equal((await rpc(s, 'tasks/get', { taskId: body.result.taskId })).body.result.status, 'input_required');
    const ack = await rpc(s, 'tasks/update', { taskId: body.result.taskId, inputResponses: { [key]: { action: 'accept', content: { confirm: true } } } });
    assert.deepEqual(ack.body.result, { resultType: 'complete' });
    const done = await pollTask(s, body.result.taskId, terminal);
    assert.equal(done.status, 'completed');
    assert.match(done.result.content[0].text, /"confirm":true/);
  });

  test('a tool only answered as a task refuses a client without the extension (-32021, HTTP 400)', async () => {
    const r = await rpc(s, 'tools/call', { name: 'failing_job', arguments: {} }, { withTasks: false });
    assert.equal(r.status, 400);
    assert.equal(r.body.error.code, -32021);
    assert.deepEqual(r.body.error.data.requiredCapabilities, { extensions: { [TASKS]: {} } });
  });

  test('bad input: unknown and foreign task ids, undeclared extension, missing taskId, mismatched Mcp-Name, removed methods', async () => {
    const created = await startTask(s, { seconds: 60, label: 'mine' });
    const unknown = await rpc(s, 'tasks/get', { taskId: '0123456789abcdef0123456789abcdef' });
    assert.equal(unknown.body.error.code, -32602);
    assert.match(unknown.body.error.message, /Task not found/);
    for (const method of ['tasks/get', 'tasks/cancel']) {
      const foreign = await rpc(s, method, { taskId: created.taskId }, { client: 'someone-else' });
      assert.equal(foreign.body.error.code, -32602, `${method} of another client's task`);
    }
    const foreignUpdate = await rpc(s, 'tasks/update', { taskId: created.taskId, inputResponses: {} }, { client: 'someone-else' });
    assert.equal(foreignUpdate.body.error.code, -32602);
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const undeclared = await rpc(s, method, { taskId: created.taskId, inputResponses: {} }, { withTasks: false });
      assert.equal(undeclared.status, 400);
      assert.equal(undeclared.body.error.code, -32021, method);
      assert.deepEqual(undeclared.body.error.data.requiredCapabilities, { extensions: { [TASKS]: {} } });
    }
    assert.equal((await rpc(s, 'tasks/get', {})).body.error.code, -32602);
    assert.equal((await rpc(s, 'tasks/update', { taskId: created.taskId, inputResponses: 3 })).body.error.code, -32602);
    const mismatch = await rpc(s, 'tasks/get', { taskId: created.taskId }, { headers: { 'Mcp-Name': 'another-task' } });
    assert.equal(mismatch.status, 400);
    assert.equal(mismatch.body.error.code, -32020);
    for (const removed of ['tasks/result', 'tasks/list']) assert.equal((await rpc(s, removed, { taskId: created.taskId })).body.error.code, -32601);
    // The task itself was untouched by all of that.
    assert.equal((await rpc(s, 'tasks/get', { taskId: created.taskId })).body.result.status, 'working');
    await rpc(s, 'tasks/cancel', { taskId: created.taskId });
  });

  test('each client keeps at most OPENTABS_MCP_TASKS_PER_CLIENT tasks: another client of the same name cannot evict a running one', async () => {
    const other = await startTask(s, { seconds: 60, label: 'other' }, { client: 'bound-other' });
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await startTask(s, { seconds: 60, label: `bound-${i}` }, { client: 'bound' })).taskId);
    // A second client calling itself "bound": its call is not made a task (all three are
    // running) and is answered when it ends; none of the first one's tasks is touched.
    const inline = await rpc(s, 'tools/call', { name: 'slow_compute', arguments: { seconds: 0.5, label: 'impostor' } }, { client: 'bound' });
    assert.equal(inline.status, 200);
    assert.equal(inline.body.result?.resultType, 'complete', JSON.stringify(inline.body));
    for (const id of ids) assert.equal((await rpc(s, 'tasks/get', { taskId: id }, { client: 'bound' })).body.result.status, 'working');
    // A finished task is what gives way to a new one.
    await rpc(s, 'tasks/cancel', { taskId: ids[0] }, { client: 'bound' });
    const next = await startTask(s, { seconds: 60, label: 'bound-3' }, { client: 'bound' });
    assert.equal((await rpc(s, 'tasks/get', { taskId: ids[0] }, { client: 'bound' })).body.error.code, -32602);
    for (const id of ids.slice(1)) assert.equal((await rpc(s, 'tasks/get', { taskId: id }, { client: 'bound' })).body.result.status, 'working');
    assert.equal((await rpc(s, 'tasks/get', { taskId: other.taskId }, { client: 'bound-other' })).body.result.status, 'working');
    for (const id of [...ids.slice(1), next.taskId]) await rpc(s, 'tasks/cancel', { taskId: id }, { client: 'bound' });
    await rpc(s, 'tasks/cancel', { taskId: other.taskId }, { client: 'bound-other' });
  });

  test('issue 38: tasks belong to the credential and the name together: another client calling itself the same name with its own credential shares nothing', async () => {
    const first = await proofHeader(s);
    const second = await proofHeader(s);
    const mine = { client: 'claude-code', headers: first };
    const impostor = { client: 'claude-code', headers: second };
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await startTask(s, { seconds: 60, label: `mine-${i}` }, mine)).taskId);
    // The impostor's calls become tasks of its own (its own bound of 3), not inline answers
    // for want of room in the first client's bound.
    const theirs = [];
    for (let i = 0; i < 3; i++) theirs.push((await startTask(s, { seconds: 60, label: `theirs-${i}` }, impostor)).taskId);
    // Neither sees the other's tasks, nor can cancel them.
    for (const id of ids) {
      assert.equal((await rpc(s, 'tasks/get', { taskId: id }, impostor)).body.error?.code, -32602);
      assert.equal((await rpc(s, 'tasks/cancel', { taskId: id }, impostor)).body.error?.code, -32602);
      assert.equal((await rpc(s, 'tasks/get', { taskId: id }, mine)).body.result.status, 'working');
    }
    for (const id of theirs) assert.equal((await rpc(s, 'tasks/get', { taskId: id }, mine)).body.error?.code, -32602);
    // A bearer client of that name is yet another caller.
    assert.equal((await rpc(s, 'tasks/get', { taskId: ids[0] }, { client: 'claude-code' })).body.error?.code, -32602);
    for (const id of ids) await rpc(s, 'tasks/cancel', { taskId: id }, mine);
    for (const id of theirs) await rpc(s, 'tasks/cancel', { taskId: id }, impostor);
  });
});

describe('MCP tasks extension: ttl', () => {
  let s;
  before(async () => {
    s = await startServer({ args: ['--conformance-mode'], env: { OPENTABS_MCP_TASK_AFTER_MS: '100', OPENTABS_MCP_TASK_TTL_MS: '1500' } });
  });
  after(async () => {
    await s.stop();
  });

  test('a task is kept for its ttlMs, then answered as unknown', async () => {
    const created = await startTask(s, { seconds: 0.3, label: 'short-lived' });
    assert.equal(created.ttlMs, 1500);
    const done = await pollTask(s, created.taskId, terminal);
    assert.equal(done.status, 'completed');
    const deadline = Date.now() + 15_000;
    let last;
    do {
      await new Promise((r) => setTimeout(r, 100));
      last = (await rpc(s, 'tasks/get', { taskId: created.taskId })).body;
    } while (last.result && Date.now() < deadline);
    assert.equal(last.error?.code, -32602, JSON.stringify(last));
    assert.ok(Date.now() - Date.parse(created.createdAt) >= 1500, 'not dropped before its ttl');
  });
});
