// Real-Chromium tests of the tab group each MCP client's tabs go into (issue 37), through the
// extension's command handlers: browser.openTab with clientGroup (the client's name, which the
// server adds for browser_open_tab) puts the tab into that client's group in the tab's window,
// two clients get two groups, tabs opened at once share one group, and a group the person
// renamed or dissolved is not reused.  The server side (the name sent, /health) is in
// browser_mcp.test.mjs.
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
