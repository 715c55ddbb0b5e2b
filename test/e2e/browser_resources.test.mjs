// Tabs as MCP resources end to end: the real binary, the real extension in headless
// Chromium, and the official TypeScript SDK clients.  The 2.x client (2026-07-28) lists the
// open tab, reads its text (inside the untrusted-content marks), screenshot (a PNG blob)
// and accessibility snapshot, and hears on a subscriptions/listen stream when the tab
// closes; the 1.x client (a 2025-11-25 session) subscribes to the tab and is told when it
// navigates.  Each read is an audit line like the tool call it is.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createRequire } from 'node:module';

import { readSecret, waitFor } from './support/harness.mjs';
import { startMcpStack, json } from './support/mcp_stack.mjs';

const require = createRequire(import.meta.url);
const { ResourceUpdatedNotificationSchema } = require('@modelcontextprotocol/sdk/types.js');

let stack;
let modern;
let tabId;

before(async () => {
  stack = await startMcpStack({
    tempPrefix: 'ot-resources-',
    config: { permissions: { browser: { permission: 'auto' } } },
    serverEnv: { OPENTABS_MCP_RESOURCE_DEBOUNCE_MS: '100' },
  });
  const opened = json(await stack.tool('browser_open_tab', { url: `${stack.site.url}/interact.html` }));
  tabId = opened.id;
  await waitFor(async () => json(await stack.tool('browser_get_tab_info', { tabId })).status === 'complete', 'page load');
  // The same clientInfo name as the session that opened the tab: its tab group is this
  // client's, so the extension lets it read the tab (client-tabs.js checkTabHolder).
  modern = new Client({ name: 'opentabs-e2e', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await modern.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${stack.server.port}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${readSecret(stack.configDir)}` } },
  }));
});

after(async () => {
  await modern?.close().catch(() => {});
  await stack?.close();
});

describe('tabs as resources (real Chromium)', () => {
  it('lists the open tab and reads its text, screenshot and snapshot through the browser tools', async () => {
    assert.equal(modern.getProtocolEra(), 'modern');
    const { resources } = await modern.listResources();
    const tab = resources.find((r) => r.uri === `opentabs://tabs/${tabId}`);
    assert.ok(tab, JSON.stringify(resources.map((r) => r.uri)));
    assert.equal(tab.title, 'Interaction fixture');

    const info = JSON.parse((await modern.readResource({ uri: tab.uri })).contents[0].text);
    assert.match(info.url, /interact\.html$/);
    assert.ok(Array.isArray(info.tools));

    const textRead = await modern.readResource({ uri: `${tab.uri}/text` });
    assert.equal(textRead.contents[0].mimeType, 'text/plain');
    assert.match(textRead.contents[0].text, /^\[untrusted page text[^\n]*\]\n[\s\S]*\n\[\/page [0-9a-f]{16}\]$/);

    const shot = (await modern.readResource({ uri: `${tab.uri}/screenshot` })).contents[0];
    assert.equal(shot.mimeType, 'image/png');
    assert.equal(Buffer.from(shot.blob, 'base64').subarray(1, 4).toString(), 'PNG');

    const snapshot = (await modern.readResource({ uri: `${tab.uri}/snapshot` })).contents[0].text;
    assert.match(snapshot, /page title="Interaction fixture"/);

    const audit = JSON.parse((await modern.readResource({ uri: 'opentabs://audit' })).contents[0].text);
    for (const tool of ['browser_get_tab_content', 'browser_screenshot_tab', 'browser_snapshot'])
      assert.ok(audit.some((e) => e.tool === tool && e.success), `${tool} audited`);

    await assert.rejects(modern.readResource({ uri: 'opentabs://tabs/987654/text' }), (e) => e.code === -32602 && e.data?.uri === 'opentabs://tabs/987654/text');
  });

  it('a 2025-11-25 subscriber hears when the tab navigates', async () => {
    const updates = [];
    stack.mcp.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => updates.push(n.params.uri));
    await stack.mcp.client.subscribeResource({ uri: `opentabs://tabs/${tabId}/text` });
    await stack.tool('browser_navigate_tab', { tabId, url: `${stack.site.url}/welcome.html` });
    await waitFor(async () => updates.includes(`opentabs://tabs/${tabId}/text`), 'notifications/resources/updated for the navigated tab');
    const text = (await modern.readResource({ uri: `opentabs://tabs/${tabId}/text` })).contents[0].text;
    assert.match(text, /Welcome back/);
  });

  it('a 2026-07-28 listen stream hears when the tab closes, and that the listing changed', async () => {
    const updated = [];
    let listChanged = 0;
    modern.setNotificationHandler('notifications/resources/updated', (n) => updated.push(n.params.uri));
    modern.setNotificationHandler('notifications/resources/list_changed', () => listChanged++);
    const sub = await modern.listen({ resourcesListChanged: true, resourceSubscriptions: [`opentabs://tabs/${tabId}`] });
    assert.equal(sub.honoredFilter.resourcesListChanged, true);
    assert.deepEqual(sub.honoredFilter.resourceSubscriptions, [`opentabs://tabs/${tabId}`]);
    await stack.tool('browser_close_tab', { tabId });
    await waitFor(async () => updated.includes(`opentabs://tabs/${tabId}`) && listChanged > 0, 'the close on the listen stream');
    await sub.close();
  });
});
