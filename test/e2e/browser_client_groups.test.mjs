// Real-Chromium tests of the tab group each MCP client's tabs go into (issue 37), through the
// extension's command handlers: browser.openTab with clientGroup (the client's name, which the
// server adds for browser_open_tab) puts the tab into that client's group in the tab's window,
// two clients get two groups, tabs opened at once share one group, and a group the person
// renamed or dissolved is not reused; a tab in one client's group refuses another client's
// actions (reads pass) until the person hands it over; browser.clientEnded keeps, ungroups or
// closes the ended client's tabs as the side panel's setting says; the setting that gives each
// client a window of its own.  The server side (the name sent, the session's end, /health) is
// in browser_clients.test.mjs.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { startCommandDriver } from './support/command_driver.mjs';

let driver;
let ok;
let fails;
let site;

before(async () => {
  driver = await startCommandDriver({ tempPrefix: 'ot-bt-groups-' });
  ({ ok, fails, site } = driver);
});

after(async () => {
  await driver?.close();
});

const open = (client, extra = {}) => ok('browser.openTab', { url: `${site.url}/interact.html`, clientGroup: client, ...extra });
const groupOf = async (tabId) => (await ok('browser.getTabInfo', { tabId })).groupId;

describe('one tab group per MCP client', () => {
  it('groups each client\'s tabs under its name, apart from another client\'s, without changing the front tab', async () => {
    const [front] = (await ok('browser.listTabs', {})).filter((t) => t.active);
    const a1 = await open('Claude Code');
    assert.deepEqual({ ...a1.group, id: undefined }, { title: 'Claude Code', id: undefined });
    const [a2, a3] = await Promise.all([open('Claude Code'), open('Claude Code')]);
    const b1 = await open('OpenCode');
    assert.equal(a2.group.id, a1.group.id);
    assert.equal(a3.group.id, a1.group.id, 'tabs opened at once share the group');
    assert.notEqual(b1.group.id, a1.group.id);
    assert.equal(await groupOf(a1.id), a1.group.id);
    assert.equal(await groupOf(b1.id), b1.group.id);
    const titles = (await ok('browser.listTabGroups', {})).groups.map((g) => g.title).sort();
    assert.deepEqual(titles, ['Claude Code', 'OpenCode']);
    assert.equal((await ok('browser.listTabs', {})).find((t) => t.active && t.windowId === front.windowId)?.id, front.id);
    // Without a client name nothing is grouped (OpenTabs callers).
    const plain = await ok('browser.openTab', { url: `${site.url}/interact.html` });
    assert.equal(plain.group, undefined);
    assert.equal(await groupOf(plain.id), -1);
    await fails('browser.openTab', { url: `${site.url}/interact.html`, clientGroup: 'x'.repeat(65) }, /clientGroup parameter: longer than 64/);

    // The person renames the first group: the client's next tab starts a new one.
    await ok('browser.updateTabGroup', { groupId: a1.group.id, title: 'Mine now' });
    const a4 = await open('Claude Code');
    assert.notEqual(a4.group.id, a1.group.id);
    // The person dissolves the client's group: likewise.
    await ok('browser.removeTabsFromGroup', { tabIds: [a4.id] });
    const a5 = await open('Claude Code');
    assert.equal(a5.group.title, 'Claude Code');
    assert.notEqual(a5.group.id, a4.group.id);
    for (const t of [a1, a2, a3, a4, a5, b1, plain]) await ok('browser.closeTab', { tabId: t.id });
  });
});

const setAgentTabs = (value) => driver.harness.evaluate((v) => chrome.storage.local.set({ agentTabs: v }), value);
const tabExists = async (tabId) => !('error' in await driver.call('browser.getTabInfo', { tabId }));

describe('two clients asking for the same tab', () => {
  it('refuses one client\'s actions on a tab in another client\'s group, naming it; reads pass; the person hands the tab over', async () => {
    await setAgentTabs({});
    const a = await open('Claude Code');
    await ok('browser.waitForElement', { tabId: a.id, selector: '#btn', clientGroup: 'Claude Code' });
    const refusal = await fails('browser.clickElement', { tabId: a.id, selector: '#btn', clientGroup: 'OpenCode' },
      new RegExp(`^Tab ${a.id} is in the tab group of Claude Code, another agent`));
    assert.match(refusal.error, /browser_open_tab/);
    await fails('browser.closeTab', { tabId: a.id, clientGroup: 'OpenCode' }, /tab group of Claude Code/);
    await fails('browser.addTabsToGroup', { groupId: a.group.id, tabIds: [a.id], clientGroup: 'OpenCode' }, /tab group of Claude Code/);
    // Reading is allowed; the holder itself and callers without a client name act as before.
    assert.equal((await ok('browser.getTabInfo', { tabId: a.id, clientGroup: 'OpenCode' })).id, a.id);
    await ok('browser.snapshot', { tabId: a.id, clientGroup: 'OpenCode' });
    await ok('browser.clickElement', { tabId: a.id, selector: '#btn', clientGroup: 'Claude Code' });
    await ok('browser.clickElement', { tabId: a.id, selector: '#btn' });
    // A tab id that does not exist gets the command's own answer, not a holder's name.
    await fails('browser.clickElement', { tabId: 999_999, selector: '#btn', clientGroup: 'OpenCode' }, /999999/);
    // The person drags the tab out of the group: any client may use it.
    await ok('browser.removeTabsFromGroup', { tabIds: [a.id] });
    await ok('browser.clickElement', { tabId: a.id, selector: '#btn', clientGroup: 'OpenCode' });
    // The person renames a client's group: its tabs are the person's, any client may use them.
    const b = await open('Claude Code');
    await fails('browser.reloadTab', { tabId: b.id, clientGroup: 'OpenCode' }, /tab group of Claude Code/);
    await ok('browser.updateTabGroup', { groupId: b.group.id, title: 'Research' });
    await ok('browser.reloadTab', { tabId: b.id, clientGroup: 'OpenCode' });
    for (const t of [a, b]) await ok('browser.closeTab', { tabId: t.id });
  });
});

describe('another client\'s tab group and window', () => {
  it('refuses one client\'s commands on another client\'s group and own window, and closing a window that holds its tab; reads pass', async () => {
    const windowOf = (tabId) => driver.harness.evaluate(async (id) => (await chrome.tabs.get(id)).windowId, tabId);
    // Groups in the person's window.
    await setAgentTabs({});
    const a = await open('Claude Code');
    const b = await open('OpenCode');
    await fails('browser.updateTabGroup', { groupId: a.group.id, title: 'Taken', clientGroup: 'OpenCode' },
      new RegExp(`^Tab group ${a.group.id} is the tab group of Claude Code, another agent`));
    await fails('browser.addTabsToGroup', { groupId: a.group.id, tabIds: [b.id], clientGroup: 'OpenCode' }, /tab group of Claude Code/);
    assert.equal(await groupOf(b.id), b.group.id, 'the refused move left the tab in its own group');
    assert.equal((await ok('browser.listTabsInGroup', { groupId: a.group.id, clientGroup: 'OpenCode' })).group.title, 'Claude Code');
    await ok('browser.updateTabGroup', { groupId: a.group.id, collapsed: false, clientGroup: 'Claude Code' });
    // The person drags the client's group into a new window of theirs: the window is the
    // person's (moved and resized by anyone), but closing it would close the client's tab.
    const personal = (await ok('browser.createWindow', { url: `${site.url}/interact.html` })).window;
    await driver.harness.evaluate(([g, w]) => chrome.tabGroups.move(g, { windowId: w, index: -1 }), [a.group.id, personal.id]);
    assert.equal(await windowOf(a.id), personal.id);
    await ok('browser.updateWindow', { windowId: personal.id, width: 700, height: 500, clientGroup: 'OpenCode' });
    await fails('browser.closeWindow', { windowId: personal.id, clientGroup: 'OpenCode' },
      new RegExp(`^Window ${personal.id} holds tab ${a.id}, which closing it would close; that tab is in the tab group of Claude Code`));
    assert.equal(await tabExists(a.id), true);
    await ok('browser.closeWindow', { windowId: personal.id, clientGroup: 'Claude Code' });
    assert.equal(await tabExists(a.id), false);

    // A window of the client's own: nobody else's commands move, resize, focus or close it.
    await setAgentTabs({ place: 'window' });
    const own = await open('Claude Code');
    assert.equal(own.group.window, 'own');
    for (const [method, params] of [['browser.updateWindow', { width: 640, height: 480 }], ['browser.updateWindow', { focused: true }],
      ['browser.updateWindow', { state: 'minimized' }], ['browser.closeWindow', {}]]) {
      await fails(method, { windowId: own.windowId, ...params, clientGroup: 'OpenCode' },
        new RegExp(`^Window ${own.windowId} is the window of Claude Code, another agent`));
    }
    assert.equal(await tabExists(own.id), true);
    assert.ok((await ok('browser.listWindows', { clientGroup: 'OpenCode' })).windows.some((w) => w.id === own.windowId));
    assert.ok((await ok('browser.listTabGroups', { windowId: own.windowId, clientGroup: 'OpenCode' })).groups.length === 1);
    // The client itself and callers without a client name act as before.
    await ok('browser.updateWindow', { windowId: own.windowId, width: 640, height: 480, clientGroup: 'Claude Code' });
    // Once the client ended (its tabs kept), its window is nobody's.
    await setAgentTabs({ place: 'window', onEnd: 'keep' });
    await ok('browser.clientEnded', { clientGroup: 'Claude Code' });
    await ok('browser.closeWindow', { windowId: own.windowId, clientGroup: 'OpenCode' });
    await ok('browser.closeTab', { tabId: b.id });
    await setAgentTabs({});
  });
});

describe('a client that ends', () => {
  it('ungroups its tabs by default (they stay open, now anyone\'s); keeps or closes them as the person chose', async () => {
    await setAgentTabs({});
    const a1 = await open('Claude Code');
    const a2 = await open('Claude Code');
    const b = await open('OpenCode');
    assert.deepEqual(await ok('browser.clientEnded', { clientGroup: 'Claude Code' }), { released: 2, onEnd: 'ungroup' });
    assert.equal(await groupOf(a1.id), -1);
    assert.equal(await groupOf(a2.id), -1);
    assert.equal(await groupOf(b.id), b.group.id, 'another client\'s group is untouched');
    await ok('browser.reloadTab', { tabId: a1.id, clientGroup: 'OpenCode' });
    // A client that comes back starts a new group.
    const again = await open('Claude Code');
    assert.notEqual(again.group.id, a1.group.id);

    await setAgentTabs({ onEnd: 'keep' });
    assert.deepEqual(await ok('browser.clientEnded', { clientGroup: 'Claude Code' }), { released: 1, onEnd: 'keep' });
    assert.equal(await groupOf(again.id), again.group.id, 'kept in its group');
    await ok('browser.reloadTab', { tabId: again.id, clientGroup: 'OpenCode' }, 'an ended client holds nothing');

    await setAgentTabs({ onEnd: 'close' });
    assert.deepEqual(await ok('browser.clientEnded', { clientGroup: 'OpenCode' }), { released: 1, onEnd: 'close' });
    assert.equal(await tabExists(b.id), false);
    // A client that opened nothing, or whose group the person deleted, releases nothing.
    const c = await open('Cursor');
    await ok('browser.removeTabsFromGroup', { tabIds: [c.id] });
    assert.deepEqual(await ok('browser.clientEnded', { clientGroup: 'Cursor' }), { released: 0, onEnd: 'close' });
    assert.equal(await tabExists(c.id), true, 'a tab the person took out of the group stays');
    assert.deepEqual(await ok('browser.clientEnded', { clientGroup: 'Nobody' }), { released: 0, onEnd: 'close' });
    for (const t of [a1, a2, again, c]) await ok('browser.closeTab', { tabId: t.id });
    await setAgentTabs({});
  });
});

describe('a window of each client\'s own (side panel setting)', () => {
  it('opens a client\'s tabs in its own window, grouped, leaving the person\'s window as it was; a window the person closed is replaced', async () => {
    const [front] = (await ok('browser.listTabs', {})).filter((t) => t.active);
    await setAgentTabs({ place: 'window', onEnd: 'close' });
    const a1 = await open('Claude Code');
    assert.notEqual(a1.windowId, front.windowId);
    assert.equal(a1.group.window, 'own');
    assert.equal(a1.group.title, 'Claude Code');
    const [a2, a3] = await Promise.all([open('Claude Code'), open('Claude Code')]);
    assert.deepEqual([a2.windowId, a3.windowId], [a1.windowId, a1.windowId], 'one window per client');
    assert.deepEqual([a2.group.id, a3.group.id], [a1.group.id, a1.group.id]);
    const b = await open('OpenCode');
    assert.notEqual(b.windowId, a1.windowId);
    assert.notEqual(b.windowId, front.windowId);
    assert.equal((await ok('browser.listTabs', {})).find((t) => t.active && t.windowId === front.windowId)?.id, front.id);
    // The person closes the client's window: its next tab opens a new one.
    await ok('browser.closeWindow', { windowId: a1.windowId });
    const a4 = await open('Claude Code');
    assert.notEqual(a4.windowId, a1.windowId);
    assert.equal(a4.group.title, 'Claude Code');
    // The client ends with 'close': its tabs, and so its window, are gone.
    assert.deepEqual(await ok('browser.clientEnded', { clientGroup: 'Claude Code' }), { released: 1, onEnd: 'close' });
    assert.equal(await tabExists(a4.id), false);
    assert.deepEqual(await ok('browser.clientEnded', { clientGroup: 'OpenCode' }), { released: 1, onEnd: 'close' });
    await setAgentTabs({});
  });
});
