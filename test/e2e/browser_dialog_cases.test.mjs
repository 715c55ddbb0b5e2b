// JavaScript dialogs in the awkward places of issue 37, through the real binary, the real
// extension in headless Chromium and the MCP SDK client: a dialog from an iframe, one that
// opens while the page is loading, a page that opens dialogs in a loop, a beforeunload
// dialog, and a dialog the person answers before the agent does.  Each is answerable or has a
// defined outcome, and no call waits past its deadline.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { callTool, resultText, waitFor } from './support/harness.mjs';
import { startMcpStack, json } from './support/mcp_stack.mjs';

let stack;
let site;
let browser;
let mcp;
let tool;

before(async () => {
  stack = await startMcpStack({ tempPrefix: 'ot-dialog-cases-', config: { permissions: { browser: { permission: 'auto' } } }, keepDialogs: true });
  ({ site, browser, mcp, tool } = stack);
});

after(async () => {
  await stack?.close();
});

const CASES = () => `${site.url}/dialog-cases.html`;
const events = async (tabId) => json(await tool('browser_execute_script', { tabId, code: 'window.events' })).value;
async function openLoaded(url) {
  const tab = json(await tool('browser_open_tab', { url }));
  await waitFor(async () => json(await tool('browser_get_tab_info', { tabId: tab.id })).status === 'complete', 'the page to load');
  return tab;
}
// Answers the tab's dialog once one is open; the answer's JSON.
const answerWhenOpen = (tabId, args, what) => waitFor(async () => {
  const r = await callTool(mcp, 'browser_handle_dialog', { tabId, ...args });
  if (r.isError) assert.match(resultText(r), /No JavaScript dialog is open/);
  return r.isError ? null : json(r);
}, what, 20_000);

describe('dialogs in awkward places', () => {
  it('answers a confirm() an iframe opens', { timeout: 60_000 }, async () => {
    const tab = await openLoaded(CASES());
    await tool('browser_click_element', { tabId: tab.id, selector: '#frame-button' });
    const answered = await answerWhenOpen(tab.id, { action: 'accept' }, 'the frame\'s confirm');
    assert.deepEqual(answered.dialog, { type: 'confirm', message: 'From the frame: keep it?' });
    assert.deepEqual(await events(tab.id), ['frame:true']);
    await tool('browser_close_tab', { tabId: tab.id });
  });

  it('answers an alert() that opens while the page loads, for a navigation and for a new tab', { timeout: 90_000 }, async () => {
    const tab = await openLoaded(`${site.url}/interact.html`);
    const nav = await callTool(mcp, 'browser_navigate_tab', { tabId: tab.id, url: `${CASES()}?load=1` });
    assert.match(resultText(nav), /alert\(\)|Still loading/, `the navigation's answer names the dialog: ${resultText(nav)}`);
    const answered = await answerWhenOpen(tab.id, { action: 'accept' }, 'the loading page\'s alert');
    assert.deepEqual(answered.dialog, { type: 'alert', message: 'Still loading' });
    assert.deepEqual(await events(tab.id), ['load-alert']);
    const opened = await callTool(mcp, 'browser_open_tab', { url: `${CASES()}?load=1` });
    assert.match(resultText(opened), /alert\(\)|Still loading/, `open_tab's answer names the dialog: ${resultText(opened)}`);
    const id = JSON.parse(resultText(opened)).id;
    assert.deepEqual((await answerWhenOpen(id, { action: 'accept' }, 'the new tab\'s alert')).dialog, { type: 'alert', message: 'Still loading' });
    for (const t of [tab.id, id]) await tool('browser_close_tab', { tabId: t });
  });

  it('answers a page that opens dialogs in a loop one by one, each reply naming the next; a tab held by a loop can be closed', { timeout: 60_000 }, async () => {
    const tab = await openLoaded(CASES());
    const click = json(await tool('browser_click_element', { tabId: tab.id, selector: '#loop' }));
    assert.deepEqual([click.dialog?.type, click.dialog?.message], ['confirm', 'Again? (1)']);
    for (const n of [1, 2]) {
      const r = json(await tool('browser_handle_dialog', { tabId: tab.id, action: 'accept' }));
      assert.equal(r.dialog.message, `Again? (${n})`);
      assert.equal(r.nextDialog?.message, `Again? (${n + 1})`);
    }
    const last = json(await tool('browser_handle_dialog', { tabId: tab.id, action: 'dismiss' }));
    assert.equal(last.nextDialog, undefined);
    assert.deepEqual(await events(tab.id), ['loop:1', 'loop:2', 'loop-ended:3']);
    // The loop again, left open: closing the tab ends it.
    json(await tool('browser_click_element', { tabId: tab.id, selector: '#loop' }));
    await tool('browser_close_tab', { tabId: tab.id });
    assert.equal(json(await tool('browser_list_tabs')).some((t) => t.id === tab.id), false);
  });

  it('answers a beforeunload dialog a navigation meets: accept leaves the page, dismiss stays', { timeout: 90_000 }, async () => {
    const tab = await openLoaded(CASES());
    await tool('browser_click_element', { tabId: tab.id, selector: '#guard' });
    const nav = await callTool(mcp, 'browser_navigate_tab', { tabId: tab.id, url: `${site.url}/interact.html` });
    assert.match(resultText(nav), /beforeunload/, `the navigation's answer names the dialog: ${resultText(nav)}`);
    const stay = await answerWhenOpen(tab.id, { action: 'dismiss' }, 'the beforeunload dialog');
    assert.equal(stay.dialog.type, 'beforeunload');
    assert.match(json(await tool('browser_get_tab_info', { tabId: tab.id })).url, /dialog-cases\.html/);
    await callTool(mcp, 'browser_navigate_tab', { tabId: tab.id, url: `${site.url}/interact.html` });
    await answerWhenOpen(tab.id, { action: 'accept' }, 'the beforeunload dialog again');
    await waitFor(async () => /interact\.html/.test(json(await tool('browser_get_tab_info', { tabId: tab.id })).url), 'the page to leave');
    await tool('browser_close_tab', { tabId: tab.id });
  });

  it('says no dialog is open once the person answered it in the browser, and the page tools work again', { timeout: 60_000 }, async () => {
    // A URL of its own, so a tab another case left open cannot be taken for this one.
    const url = `${CASES()}?person=1`;
    const tab = await openLoaded(url);
    const page = browser.context.pages().find((p) => p.url() === url);
    const shown = page.waitForEvent('dialog');
    const click = json(await tool('browser_click_element', { tabId: tab.id, selector: '#loop' }));
    assert.equal(click.dialog?.message, 'Again? (1)');
    await (await shown).dismiss(); // the person
    const r = await callTool(mcp, 'browser_handle_dialog', { tabId: tab.id, action: 'accept' });
    assert.equal(r.isError, true);
    assert.match(resultText(r), /No JavaScript dialog is open/);
    assert.deepEqual(await events(tab.id), ['loop-ended:1']);
    await tool('browser_close_tab', { tabId: tab.id });
  });
});
