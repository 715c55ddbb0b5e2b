// A client that goes away without ending its session (issue 37): its process died or its
// connection dropped, so no DELETE comes.  Through the real binary, the real extension in
// headless Chromium and MCP SDK clients: once the session idles out (OPENTABS_MCP_SESSION_IDLE_MS,
// 30 minutes by default, shortened here; OPENTABS_MCP_SSE_KEEPALIVE_MS lets the server notice
// the dropped stream soon) the server sends browser.clientEnded and the extension releases the
// client's tabs as the side panel's setting says — ungrouped by default, closed when chosen —
// and /health stops listing it.  A client that stays connected keeps its group however long it
// sends nothing: its open stream keeps its session.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { EXTENSION_ID, callTool, connectMcp, readSecret, resultText, waitFor } from './support/harness.mjs';
import { startMcpStack, json } from './support/mcp_stack.mjs';

const IDLE_MS = 1500;
let stack;

before(async () => {
  stack = await startMcpStack({
    tempPrefix: 'ot-client-idle-', config: { permissions: { browser: { permission: 'auto' } } },
    serverEnv: { OPENTABS_MCP_SESSION_IDLE_MS: String(IDLE_MS), OPENTABS_MCP_SSE_KEEPALIVE_MS: '200' },
  });
});

after(async () => {
  await stack?.close();
});

// /health, read over plain HTTP: no MCP request that would count as a client's activity.
async function clientsHolding() {
  const res = await fetch(`http://127.0.0.1:${stack.server.port}/health`, { headers: { Authorization: `Bearer ${readSecret(stack.configDir)}` } });
  assert.equal(res.status, 200);
  return Object.fromEntries((await res.json()).clientTabs.map((c) => [c.client, c.tabs]));
}

async function openAs(mcp, site) {
  const r = await callTool(mcp, 'browser_open_tab', { url: `${site.url}/interact.html` });
  assert.ok(!r.isError, resultText(r));
  return json(r);
}

const idleExpiries = () => (stack.server.output().match(/session \w+ ended \(idle expiry\)/g) ?? []).length;

// A client that vanishes: its connection is dropped (close(), no DELETE), then it is waited
// for through /health alone until the server has ended its session.
async function vanish(client, name) {
  const before = idleExpiries();
  await client.close();
  await waitFor(async () => !(name in await clientsHolding()), `${name}'s session to idle out`);
  assert.equal(idleExpiries(), before + 1, 'the session ended by idle expiry');
}

describe('a client whose session idles out', () => {
  it('has its tabs ungrouped (the default) once its session expires; a connected client keeps its group meanwhile', { timeout: 60_000 }, async () => {
    const { site } = stack;
    const mine = await openAs(stack.mcp, site);
    const gone = await connectMcp(stack.server.port, readSecret(stack.configDir), { name: 'Vanished' });
    const theirs = await openAs(gone, site);
    assert.equal(theirs.group.title, 'Vanished');
    assert.deepEqual(await clientsHolding(), { 'opentabs-e2e': [mine.id], Vanished: [theirs.id] });
    const refused = await callTool(stack.mcp, 'browser_click_element', { tabId: theirs.id, selector: '#btn' });
    assert.match(resultText(refused), /tab group of Vanished/);

    await vanish(gone, 'Vanished');
    // The first client sent nothing for longer than the idle time, with its stream open: its
    // session and group stay.  The vanished client's tab is open, out of any group, anyone's.
    await waitFor(async () => json(await stack.tool('browser_get_tab_info', { tabId: theirs.id })).groupId === -1, 'the tab to leave its group');
    assert.equal(json(await stack.tool('browser_get_tab_info', { tabId: mine.id })).groupId, mine.group.id);
    assert.deepEqual(await clientsHolding(), { 'opentabs-e2e': [mine.id] });
    await stack.tool('browser_click_element', { tabId: theirs.id, selector: '#btn' });
    await stack.tool('browser_close_tab', { tabId: theirs.id });
    await stack.tool('browser_close_tab', { tabId: mine.id });
  });

  it('has its tabs closed when the person chose that in the side panel', { timeout: 60_000 }, async () => {
    const { site, browser } = stack;
    const panel = await browser.context.newPage();
    await panel.goto(`chrome-extension://${EXTENSION_ID}/side-panel/side-panel.html`);
    try {
      await panel.selectOption('[data-testid="agent-tabs-end"]', 'close');
      await waitFor(async () => (await panel.evaluate(async () => (await chrome.storage.local.get('agentTabs')).agentTabs))?.onEnd === 'close', 'the setting to be saved');
      const gone = await connectMcp(stack.server.port, readSecret(stack.configDir), { name: 'Vanished Too' });
      const [one, two] = [await openAs(gone, site), await openAs(gone, site)];
      assert.equal(two.group.id, one.group.id);
      await vanish(gone, 'Vanished Too');
      await waitFor(async () => {
        const open = json(await stack.tool('browser_list_tabs')).map((t) => t.id);
        return !open.includes(one.id) && !open.includes(two.id);
      }, 'the idle client\'s tabs to close');
    } finally {
      await panel.evaluate(() => chrome.storage.local.remove('agentTabs'));
      await panel.close();
    }
  });
});
