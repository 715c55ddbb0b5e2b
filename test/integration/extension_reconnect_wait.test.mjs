// Issue 25 point 4 through the real binary: right after the server starts (a stdio bridge
// auto-starting it) or after the extension drops, the extension is about to reconnect.  A
// plugin or browser call in that window waits for it (bounded by OPENTABS_EXTENSION_WAIT_MS)
// and succeeds once it is back, instead of failing at once with "Extension not connected";
// when it does not come back the call fails with a message saying what to do.  The test
// connects only after the server has logged that the call is waiting, so the order is
// certain without sleeping.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { startServer } from './support/server.mjs';
import { ExtensionClient } from './support/extension_client.mjs';
import { until } from './support/until.mjs';

const fixtures = resolve(new URL('../fixtures/plugins', import.meta.url).pathname);
const config = {
  localPlugins: [join(fixtures, 'notes')],
  additionalAllowedDirectories: [fixtures],
  permissions: { browser: { permission: 'auto' }, 'fixture-notes': { permission: 'auto' } },
};
const waitingLines = (s) => (s.stdout + s.stderr).match(/waiting up to \d+ ms for the browser extension to connect/g) ?? [];

const notesTabs = { 'fixture-notes': { state: 'ready', tabs: [{ tabId: 7, url: 'http://localhost/notes', title: 'Notes', ready: true }] } };

/** Connects as the extension does after a (re)connect: it answers sync.full with tab.syncAll. */
async function connectEcho(s, { syncTabs = true } = {}) {
  const ext = new ExtensionClient(s, { connectionId: 'reconnecting' });
  ext.on('tool.dispatch', (p) => ({ output: { echoed: p.input } }));
  await ext.connect();
  if (syncTabs) ext.notify('tab.syncAll', { tabs: notesTabs });
  return ext;
}

describe('a call that needs the extension waits for one that is expected back', () => {
  test('the first call after start succeeds once the extension connects, and so does one after a drop', async () => {
    const s = await startServer({ config, env: { OPENTABS_EXTENSION_WAIT_MS: '30000' } });
    try {
      const first = s.callTool('fixture-notes_echo', { message: 'first' });
      await s.output(/fixture-notes_echo: waiting up to 30000 ms for the browser extension to connect/);
      let ext = await connectEcho(s);
      const r = await first;
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.isError ?? false, false, JSON.stringify(r.body));
      assert.deepEqual(JSON.parse(r.body.content[0].text), { echoed: { message: 'first' } });

      await ext.close();
      await until(async () => (await (await s.fetch('/health')).json()).extensionConnected === false, 'the server sees the drop');
      const again = s.callTool('fixture-notes_echo', { message: 'after the drop' });
      await until(() => waitingLines(s).length === 2, 'the second call waits');
      ext = await connectEcho(s);
      const r2 = await again;
      assert.deepEqual(JSON.parse(r2.body.content[0].text), { echoed: { message: 'after the drop' } });
      await ext.close();
    } finally {
      await s.stop();
    }
  });

  test('a plugin call made during a reconnect is dispatched only once the tabs are synced again', async () => {
    const s = await startServer({ config, env: { OPENTABS_EXTENSION_WAIT_MS: '30000' } });
    try {
      const call = s.callTool('fixture-notes_echo', { message: 'during the reconnect' });
      await s.output(/fixture-notes_echo: waiting up to 30000 ms for the browser extension to connect/);
      const ext = await connectEcho(s, { syncTabs: false });
      await ext.waitFor((m) => m.method === 'sync.full');
      // Connected but not yet synced: the extension would answer "No matching tab".  The
      // health check is answered on the same thread after the connection was taken in.
      assert.equal((await (await s.fetch('/health')).json()).extensionConnected, true);
      assert.equal(ext.messages.some((m) => m.method === 'tool.dispatch'), false, 'no dispatch before tab.syncAll');
      ext.notify('tab.syncAll', { tabs: notesTabs });
      const r = await call;
      assert.deepEqual(JSON.parse(r.body.content[0].text), { echoed: { message: 'during the reconnect' } });
      await ext.close();
    } finally {
      await s.stop();
    }
  });

  test('when no extension comes the call fails after the bounded wait and says what to do', async () => {
    const s = await startServer({ config, env: { OPENTABS_EXTENSION_WAIT_MS: '200' } });
    try {
      const r = await s.callTool('fixture-notes_echo', { message: 'nobody' });
      assert.equal(r.body.isError, true);
      assert.match(r.body.content[0].text, /^Extension not connected\. Please ensure the OpenTabs Chrome extension is running \(loaded unpacked from .*extension\): it connects within a few seconds of the server starting; then call the tool again\.$/);
      const b = await s.callTool('browser_list_tabs', {});
      assert.match(b.body.content[0].text, /^Browser tool error: Extension not connected\. .*call the tool again\.$/);
    } finally {
      await s.stop();
    }
  });
});
