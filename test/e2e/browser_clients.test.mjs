// Several MCP clients at once (issue 37), through the real binary, the real extension in
// headless Chromium and two MCP SDK clients with their own clientInfo names: each client's
// tabs go into a tab group named after it, both drive their own background tab at the same
// time without moving the tab the person sees, and /health says which client holds which tabs;
// one client's actions on the other's tab, and on the window of the other's own, are refused
// naming the holder (reads pass), and a client whose last session ends (DELETE) has its group
// released (ungrouped: the default).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { EXTENSION_ID, callTool, connectMcp, readSecret, resultText, waitFor } from './support/harness.mjs';
import { startMcpStack, json } from './support/mcp_stack.mjs';

let stack;
let other;

before(async () => {
  // More clients connect here than the 5 new sessions a minute a server admits by default.
  stack = await startMcpStack({
    tempPrefix: 'ot-clients-', config: { permissions: { browser: { permission: 'auto' } } },
    serverEnv: { OPENTABS_MCP_MAX_NEW_SESSIONS_PER_MINUTE: '20' },
  });
  other = await connectMcp(stack.server.port, readSecret(stack.configDir), { name: 'Second Agent' });
});

after(async () => {
  await other?.close().catch(() => {});
  await stack?.close();
});

async function health() {
  const res = await fetch(`http://127.0.0.1:${stack.server.port}/health`, { headers: { Authorization: `Bearer ${readSecret(stack.configDir)}` } });
  assert.equal(res.status, 200);
  return res.json();
}

const held = async () => Object.fromEntries((await health()).clientTabs.map((c) => [c.client, [...c.tabs].sort()]));

describe('two clients at once', () => {
  it('groups each client\'s tabs under its name, lets both work on background tabs at once, and shows who holds what', { timeout: 120_000 }, async () => {
    const { tool, site } = stack;
    const ask = async (mcp, name, args) => {
      const r = await callTool(mcp, name, args);
      assert.ok(!r.isError, `${name}: ${resultText(r)}`);
      return json(r);
    };
    const [front] = json(await tool('browser_list_tabs')).filter((t) => t.active);
    const mine = await ask(stack.mcp, 'browser_open_tab', { url: `${site.url}/interact.html` });
    const theirs = await ask(other, 'browser_open_tab', { url: `${site.url}/interact.html` });
    assert.equal(mine.group.title, 'opentabs-e2e');
    assert.equal(theirs.group.title, 'Second Agent');
    assert.notEqual(mine.group.id, theirs.group.id);
    for (const [mcp, tab] of [[stack.mcp, mine], [other, theirs]]) {
      await waitFor(async () => (await ask(mcp, 'browser_get_tab_info', { tabId: tab.id })).status === 'complete', 'the page to load');
    }
    // Both clients click and turn the wheel on their own background tab at the same time.
    const work = (mcp, tab) => (async () => {
      for (let i = 0; i < 3; i++) await ask(mcp, 'browser_click_element', { tabId: tab.id, selector: '#btn' });
      await ask(mcp, 'browser_mouse', { tabId: tab.id, action: 'wheel', x: 40, y: 40, deltaY: 50 });
    })();
    await Promise.all([work(stack.mcp, mine), work(other, theirs)]);
    for (const [mcp, tab] of [[stack.mcp, mine], [other, theirs]]) {
      const events = (await ask(mcp, 'browser_execute_script', { tabId: tab.id, code: 'window.events' })).value;
      assert.deepEqual(events, ['clicked:trusted', 'clicked:trusted', 'clicked:trusted']);
      assert.equal((await ask(mcp, 'browser_get_tab_info', { tabId: tab.id })).active, false);
    }
    const now = json(await tool('browser_list_tabs')).find((t) => t.active && t.windowId === front.windowId);
    assert.equal(now.id, front.id, 'the tab the person sees stays in front');
    assert.deepEqual(await held(), { 'opentabs-e2e': [mine.id], 'Second Agent': [theirs.id] });
    // The second client reads the first client's tab (allowed) and tries to act on it: refused,
    // naming the holder; the tab stays the first client's.
    await ask(other, 'browser_get_tab_info', { tabId: mine.id });
    for (const [name, args] of [['browser_click_element', { tabId: mine.id, selector: '#btn' }],
      ['browser_execute_script', { tabId: mine.id, code: 'window.events.push("theirs")' }],
      ['browser_close_tab', { tabId: mine.id }]]) {
      const r = await callTool(other, name, args);
      assert.ok(r.isError, `${name} on another client's tab was not refused: ${resultText(r)}`);
      assert.match(resultText(r), new RegExp(`Tab ${mine.id} is in the tab group of opentabs-e2e, another agent`), name);
    }
    assert.equal((await ask(stack.mcp, 'browser_execute_script', { tabId: mine.id, code: 'window.events.length' })).value, 3);
    assert.deepEqual(await held(), { 'opentabs-e2e': [mine.id], 'Second Agent': [theirs.id] });
    await ask(stack.mcp, 'browser_close_tab', { tabId: mine.id });
    assert.deepEqual(await held(), { 'opentabs-e2e': [], 'Second Agent': [theirs.id] });

    // The second client ends its session: its tab is released (ungrouped, still open) and
    // /health no longer lists it; the first client may now act on that tab.
    await other.end();
    await waitFor(async () => (await ask(stack.mcp, 'browser_get_tab_info', { tabId: theirs.id })).groupId === -1, 'the ended client\'s tab to leave its group');
    assert.deepEqual(await held(), { 'opentabs-e2e': [] });
    await ask(stack.mcp, 'browser_click_element', { tabId: theirs.id, selector: '#btn' });
    await ask(stack.mcp, 'browser_close_tab', { tabId: theirs.id });
  });

  it('releases a client\'s group only when its last session ends', { timeout: 60_000 }, async () => {
    const { site } = stack;
    const port = stack.server.port;
    const [one, two] = [await connectMcp(port, readSecret(stack.configDir), { name: 'Twin' }), await connectMcp(port, readSecret(stack.configDir), { name: 'Twin' })];
    try {
      const r = await callTool(one, 'browser_open_tab', { url: `${site.url}/interact.html` });
      assert.ok(!r.isError, resultText(r));
      const tab = json(r);
      assert.equal(tab.group.title, 'Twin');
      // Both sessions are the same client: the second may act on the tab.
      const click = await callTool(two, 'browser_click_element', { tabId: tab.id, selector: '#btn' });
      assert.ok(!click.isError, resultText(click));
      await one.end();
      // The other session goes on: the group stays, and still refuses a third client.
      const refused = await callTool(stack.mcp, 'browser_click_element', { tabId: tab.id, selector: '#btn' });
      assert.match(resultText(refused), /tab group of Twin/);
      assert.equal(json(await stack.tool('browser_get_tab_info', { tabId: tab.id })).groupId, tab.group.id);
      await two.end();
      await waitFor(async () => json(await stack.tool('browser_get_tab_info', { tabId: tab.id })).groupId === -1, 'the group to be released');
      await stack.tool('browser_close_tab', { tabId: tab.id });
    } finally {
      await one.close().catch(() => {});
      await two.close().catch(() => {});
    }
  });

  it('refuses one client\'s window tools on another client\'s own window; the holder and reads go on', { timeout: 60_000 }, async () => {
    const { site, browser } = stack;
    const panel = await browser.context.newPage();
    await panel.goto(`chrome-extension://${EXTENSION_ID}/side-panel/side-panel.html`);
    await panel.evaluate(() => chrome.storage.local.set({ agentTabs: { place: 'window', onEnd: 'close' } }));
    const agent = await connectMcp(stack.server.port, readSecret(stack.configDir), { name: 'Window Holder' });
    try {
      const r = await callTool(agent, 'browser_open_tab', { url: `${site.url}/interact.html` });
      assert.ok(!r.isError, resultText(r));
      const tab = json(r);
      assert.equal(tab.group.window, 'own');
      for (const [name, args] of [['browser_update_window', { windowId: tab.windowId, width: 600, height: 400 }],
        ['browser_update_window', { windowId: tab.windowId, focused: true }],
        ['browser_close_window', { windowId: tab.windowId }],
        ['browser_update_tab_group', { groupId: tab.group.id, title: 'Taken' }]]) {
        const refused = await callTool(stack.mcp, name, args);
        assert.ok(refused.isError, `${name} on another client's window was not refused: ${resultText(refused)}`);
        assert.match(resultText(refused), /(Window \d+ is the window|Tab group \d+ is the tab group) of Window Holder, another agent/, name);
      }
      assert.ok(json(await stack.tool('browser_list_windows')).windows.some((w) => w.id === tab.windowId), 'listing windows is a read');
      const mine = await callTool(agent, 'browser_update_window', { windowId: tab.windowId, width: 600, height: 400 });
      assert.ok(!mine.isError, resultText(mine));
      await agent.end();
      await waitFor(async () => !json(await stack.tool('browser_list_windows')).windows.some((w) => w.id === tab.windowId), 'the ended client\'s window to close');
    } finally {
      await agent.close().catch(() => {});
      await panel.evaluate(() => chrome.storage.local.remove('agentTabs'));
      await panel.close();
    }
  });

  it('follows the side panel\'s Agents\' tabs card: a window of the client\'s own, and its tabs closed when it ends', { timeout: 60_000 }, async () => {
    const { site, browser } = stack;
    const panel = await browser.context.newPage();
    await panel.goto(`chrome-extension://${EXTENSION_ID}/side-panel/side-panel.html`);
    const front = await panel.evaluate(async () => (await chrome.tabs.getCurrent()));
    const saved = () => panel.evaluate(async () => (await chrome.storage.local.get('agentTabs')).agentTabs);
    assert.equal(await panel.inputValue('[data-testid="agent-tabs-place"]'), 'group');
    assert.equal(await panel.inputValue('[data-testid="agent-tabs-end"]'), 'ungroup');
    await panel.selectOption('[data-testid="agent-tabs-place"]', 'window');
    await panel.selectOption('[data-testid="agent-tabs-end"]', 'close');
    await waitFor(async () => (await saved())?.onEnd === 'close', 'the setting to be saved');
    assert.deepEqual(await saved(), { place: 'window', onEnd: 'close' });
    const agent = await connectMcp(stack.server.port, readSecret(stack.configDir), { name: 'Windowed' });
    try {
      const r = await callTool(agent, 'browser_open_tab', { url: `${site.url}/interact.html` });
      assert.ok(!r.isError, resultText(r));
      const tab = json(r);
      assert.equal(tab.group.window, 'own');
      assert.notEqual(tab.windowId, front.windowId);
      const now = json(await stack.tool('browser_list_tabs')).find((t) => t.active && t.windowId === front.windowId);
      assert.equal(now.id, front.id, 'the person\'s window keeps its front tab');
      await agent.end();
      await waitFor(async () => !json(await stack.tool('browser_list_tabs')).some((t) => t.id === tab.id), 'the ended client\'s tab to close');
    } finally {
      await agent.close().catch(() => {});
      await panel.evaluate(() => chrome.storage.local.remove('agentTabs'));
      await panel.close();
    }
  });
});
