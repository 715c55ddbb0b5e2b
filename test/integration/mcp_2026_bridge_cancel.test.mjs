// A 2026-07-28 tools/call relayed by the stdio bridge and cancelled on stdin (issue 27):
// over HTTP that revision cancels a request by closing its stream, so the bridge closes the
// call's own connection when notifications/cancelled names it, sends no answer for it, and
// the server stops the call (its audit entry records the cancellation).  The client is the
// official SDK 2.x in its 2026-07-28 mode, aborting the call with an AbortSignal; the
// extension is a scripted client on the real /ws protocol that never answers the dispatch.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { startServer } from './support/server.mjs';
import { bridgeTransport, notesExtension } from './support/mcp_2026.mjs';
import { until } from './support/until.mjs';

const fixtures = resolve(new URL('../fixtures/plugins', import.meta.url).pathname);
const config = {
  localPlugins: [join(fixtures, 'notes')],
  additionalAllowedDirectories: [fixtures],
  permissions: { 'fixture-notes': { permission: 'auto' } },
};

describe('stdio bridge: notifications/cancelled for a 2026-07-28 call', () => {
  let s;
  let ext;
  before(async () => {
    // Keep-alives every 50 ms: the server notices the closed stream at the next one.
    s = await startServer({ config, env: { OPENTABS_MCP_SSE_KEEPALIVE_MS: '50' } });
    ext = await notesExtension(s, 'bridge-cancel');
  });
  after(async () => {
    await ext.close();
    await s.stop();
  });

  test('the bridge closes the call, the server stops it, and the bridge keeps serving', { timeout: 60_000 }, async () => {
    let dispatched = 0;
    ext.on('tool.dispatch', (p) => {
      if (p.input?.message === 'hang') {
        dispatched++;
        return new Promise(() => {}); // never answers
      }
      return { output: { echo: p.input?.message } };
    });
    const { transport, stderr } = bridgeTransport(s);
    const client = new Client({ name: 'sdk-2026-cancel', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    try {
      await client.connect(transport);
      assert.equal(client.getProtocolEra(), 'modern');
      const abort = new AbortController();
      const call = client.callTool({ name: 'fixture-notes_echo', arguments: { message: 'hang' } }, { signal: abort.signal });
      await until(() => dispatched === 1, 'the dispatch to reach the extension');
      abort.abort('test cancels');
      await assert.rejects(call, /abort|cancel/i);
      const cancelledEntry = (a) => a.length && a[0].success === false && /cancel/i.test(JSON.stringify(a[0].error));
      let audit = [];
      await until(async () => {
        audit = await (await s.fetch('/audit?tool=fixture-notes_echo&limit=1')).json();
        return cancelledEntry(audit);
      }, 'the server to record the cancelled call', 20_000);
      const r = await client.callTool({ name: 'fixture-notes_echo', arguments: { message: 'after' } });
      assert.deepEqual(JSON.parse(r.content[0].text), { echo: 'after' });
    } catch (e) {
      e.message += `\nbridge stderr:\n${stderr()}`;
      throw e;
    } finally {
      await client.close();
    }
  });
});
