// The official TypeScript client SDK 2.x (@modelcontextprotocol/client) in its 2026-07-28
// mode against the real binary, over Streamable HTTP and through the stdio bridge: discover,
// list, call, progress, and a tools/list_changed notification on a subscriptions/listen
// stream.  The server runs with --conformance-mode for its fixture tools
// (test_trigger_tool_change announces a tool-set change through the same event a plugin
// reload raises).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startServer } from './support/server.mjs';
import { bridgeTransport } from './support/mcp_2026.mjs';
import { until } from './support/until.mjs';

const pinned = { versionNegotiation: { mode: { pin: '2026-07-28' } } };

/** Runs the same checks on a connected 2026-07-28 client. */
async function exercise(client, { lastProgressBeforeResult = true } = {}) {
  assert.equal(client.getProtocolEra(), 'modern');
  const discover = client.getDiscoverResult();
  assert.ok(discover.supportedVersions.includes('2026-07-28'));
  assert.ok(discover.supportedVersions.includes('2025-11-25'));
  assert.equal(discover.capabilities.tools.listChanged, true);

  const { tools } = await client.listTools();
  assert.ok(tools.some((t) => t.name === 'test_simple_text'));

  const text = await client.callTool({ name: 'test_simple_text', arguments: {} });
  assert.equal(text.content[0].text, 'This is a simple text response for testing.');

  const progress = [];
  const withProgress = await client.callTool({ name: 'test_tool_with_progress', arguments: {} }, { onprogress: (p) => progress.push(p.progress) });
  assert.equal(withProgress.content[0].text, 'Progress test completed');
  // Through the bridge the raw stdout carries all three reports before the result, but the
  // SDK's stdio client has been seen to resolve the call before it handles the last one
  // (a client-side ordering); the earlier ones must arrive.
  assert.deepEqual(lastProgressBeforeResult ? progress : progress.slice(0, 2), lastProgressBeforeResult ? [0, 50, 100] : [0, 50]);

  let changed = 0;
  client.setNotificationHandler('notifications/tools/list_changed', () => {
    changed++;
  });
  const sub = await client.listen({ toolsListChanged: true });
  assert.equal(sub.honoredFilter.toolsListChanged, true);
  await client.callTool({ name: 'test_trigger_tool_change', arguments: {} });
  await until(() => changed > 0, 'notifications/tools/list_changed on the listen stream');
  await sub.close();
}

describe('official client SDK 2.x in 2026-07-28 mode', () => {
  let s;
  before(async () => {
    s = await startServer({ args: ['--conformance-mode'] });
  });
  after(async () => {
    await s.stop();
  });

  test('over Streamable HTTP: discover, list, call with progress, listen for tools/list_changed', { timeout: 60_000 }, async () => {
    const client = new Client({ name: 'sdk-2026', version: '1.0.0' }, pinned);
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.base}/mcp`)));
    try {
      await exercise(client);
    } finally {
      await client.close();
    }
  });

  test('the same through the stdio bridge (opentabs start --stdio)', { timeout: 60_000 }, async () => {
    const { transport, stderr } = bridgeTransport(s);
    const client = new Client({ name: 'sdk-2026-stdio', version: '1.0.0' }, pinned);
    await client.connect(transport);
    try {
      await exercise(client, { lastProgressBeforeResult: false });
    } catch (e) {
      e.message += `\nbridge stderr:\n${stderr()}`;
      throw e;
    } finally {
      await client.close();
    }
  });
});
