// JavaScript dialogs a page opens by itself (issue 15 item 3), through the real binary, the
// real extension (service worker, content scripts) in headless Chromium and the MCP SDK client:
// a confirm() opened by a timer, not by our click, is detected; other page tools on that tab
// fail at once naming it; browser_handle_dialog answers it and the page sees the answer.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { callTool, resultText, waitFor } from './support/harness.mjs';
import { startMcpStack, json } from './support/mcp_stack.mjs';

let stack;
let site;
let browser;
let mcp;
let tool;
const BLOCKED = /Tab \d+ is blocked by a JavaScript confirm\(\) dialog "Discard the draft\?"; answer it with browser_handle_dialog/;

before(async () => {
  stack = await startMcpStack({ tempPrefix: 'ot-dialogs-', config: { permissions: { browser: { permission: 'auto' } } }, keepDialogs: true });
  ({ site, browser, mcp, tool } = stack);
});

after(async () => {
  await stack?.close();
});

describe('a dialog the page opens by itself', () => {
  it('blocks other page tools with an error naming it, and browser_handle_dialog answers it', { timeout: 60_000 }, async () => {
    const tab = json(await tool('browser_open_tab', { url: `${site.url}/dialog.html?ms=1500` }));
    // Until the timer fires the page answers; then every page tool fails, naming the dialog.
    const refusal = await waitFor(async () => {
      const r = await callTool(mcp, 'browser_get_tab_content', { tabId: tab.id });
      return r.isError ? resultText(r) : null;
    }, 'the dialog to block the page', 20_000);
    assert.match(refusal, BLOCKED);
    const snap = await callTool(mcp, 'browser_snapshot', { tabId: tab.id });
    assert.equal(snap.isError, true);
    assert.match(resultText(snap), BLOCKED);
    const click = await callTool(mcp, 'browser_click_element', { tabId: tab.id, selector: '#later' });
    assert.equal(click.isError, true);
    assert.match(resultText(click), BLOCKED);

    const answered = json(await tool('browser_handle_dialog', { tabId: tab.id, action: 'accept' }));
    assert.equal(answered.handled, true);
    assert.deepEqual(answered.dialog, { type: 'confirm', message: 'Discard the draft?' });
    // The page saw "OK" and runs again.
    assert.deepEqual(json(await tool('browser_execute_script', { tabId: tab.id, code: 'window.events' })).value, ['confirm:true']);
    assert.match(json(await tool('browser_get_tab_content', { tabId: tab.id, selector: '#out' })).content, /confirm:true/);
    const again = await callTool(mcp, 'browser_handle_dialog', { tabId: tab.id, action: 'accept' });
    assert.equal(again.isError, true);
    assert.match(resultText(again), /No JavaScript dialog is open/);
    await tool('browser_close_tab', { tabId: tab.id });
  });

  it('answers a prompt() that opened before any page tool ran in the tab', { timeout: 60_000 }, async () => {
    // The agent opened the tab, so the dialog was held until the debugger watched; nothing
    // else was sent to the tab before it opened.
    const tab = json(await tool('browser_open_tab', { url: `${site.url}/dialog.html?kind=prompt&ms=800` }));
    const answered = await waitFor(async () => {
      const r = await callTool(mcp, 'browser_handle_dialog', { tabId: tab.id, action: 'accept', promptText: 'Ada' });
      return r.isError ? null : json(r);
    }, 'the prompt to open and be answered', 20_000);
    assert.deepEqual(answered.dialog, { type: 'prompt', message: 'Your name?' });
    assert.deepEqual(json(await tool('browser_execute_script', { tabId: tab.id, code: 'window.events' })).value, ['prompt:Ada']);
    await tool('browser_close_tab', { tabId: tab.id });
  });

  it('answers prompt, confirm and alert that one click opens one after another, each reply naming the next', { timeout: 120_000 }, async () => {
    const tab = json(await tool('browser_open_tab', { url: `${site.url}/dialog-chain.html` }));
    await waitFor(async () => json(await tool('browser_get_tab_info', { tabId: tab.id })).status === 'complete', 'the page to load');
    const expected = [];
    for (let run = 1; run <= 4; run++) {
      const click = json(await tool('browser_click_element', { tabId: tab.id, selector: '#chain' }));
      assert.deepEqual({ ...click.dialog, note: undefined }, { type: 'prompt', message: 'Name of the list?', defaultPrompt: 'Groceries', note: undefined });
      const first = json(await tool('browser_handle_dialog', { tabId: tab.id, action: 'accept', promptText: `List ${run}` }));
      assert.deepEqual(first.dialog, { type: 'prompt', message: 'Name of the list?' });
      assert.deepEqual({ ...first.nextDialog, note: undefined }, { type: 'confirm', message: 'Share it with the family?', note: undefined });
      const second = json(await tool('browser_handle_dialog', { tabId: tab.id, action: run % 2 ? 'accept' : 'dismiss' }));
      assert.deepEqual(second.dialog, { type: 'confirm', message: 'Share it with the family?' });
      assert.deepEqual({ ...second.nextDialog, note: undefined }, { type: 'alert', message: 'Shared', note: undefined });
      const third = json(await tool('browser_handle_dialog', { tabId: tab.id, action: 'accept' }));
      assert.deepEqual(third.dialog, { type: 'alert', message: 'Shared' });
      assert.equal(third.nextDialog, undefined);
      expected.push(`prompt:List ${run}`, `confirm:${Boolean(run % 2)}`, 'alert');
      assert.deepEqual(json(await tool('browser_execute_script', { tabId: tab.id, code: 'window.events' })).value, expected);
    }
    // A key that opens a dialog answers with it too, instead of waiting for the blocked page.
    const key = json(await tool('browser_press_key', { tabId: tab.id, selector: '#command', key: 'Enter' }));
    assert.deepEqual([key.dialog?.type, key.dialog?.message], ['confirm', 'Delete the list?']);
    const answered = json(await tool('browser_handle_dialog', { tabId: tab.id, action: 'dismiss' }));
    assert.deepEqual(answered.dialog, { type: 'confirm', message: 'Delete the list?' });
    assert.equal(json(await tool('browser_execute_script', { tabId: tab.id, code: 'window.events.at(-1)' })).value, 'delete:false');
    // Typing whose Enter opens one answers with it; the rest of the typing waits for the answer.
    const typed = json(await tool('browser_type_text', { tabId: tab.id, selector: '#command', text: 'x\ny', slowly: true }));
    assert.deepEqual([typed.dialog?.type, typed.dialog?.message], ['confirm', 'Delete the list?']);
    await tool('browser_handle_dialog', { tabId: tab.id, action: 'accept' });
    await waitFor(async () => json(await tool('browser_execute_script', { tabId: tab.id, code: "document.getElementById('command').value" })).value === 'xy', 'the typing to finish');
    assert.equal(json(await tool('browser_execute_script', { tabId: tab.id, code: 'window.events.at(-1)' })).value, 'delete:true');
    await tool('browser_close_tab', { tabId: tab.id });
  });

  it('answers a chain whose dialogs open on timers after each answer', { timeout: 120_000 }, async () => {
    const tab = json(await tool('browser_open_tab', { url: `${site.url}/dialog-chain.html?gap=200` }));
    await waitFor(async () => json(await tool('browser_get_tab_info', { tabId: tab.id })).status === 'complete', 'the page to load');
    const click = json(await tool('browser_click_element', { tabId: tab.id, selector: '#chain' }));
    assert.equal(click.dialog?.type, 'prompt');
    await tool('browser_handle_dialog', { tabId: tab.id, action: 'accept', promptText: 'Timed' });
    // The next dialog opens 200 ms after the answer: until then there is none to answer.
    for (const type of ['confirm', 'alert']) {
      const answered = await waitFor(async () => {
        const r = await callTool(mcp, 'browser_handle_dialog', { tabId: tab.id, action: 'accept' });
        if (r.isError) assert.match(resultText(r), /No JavaScript dialog is open/);
        return r.isError ? null : json(r);
      }, `the ${type} to open and be answered`, 20_000);
      assert.equal(answered.dialog.type, type);
    }
    assert.deepEqual(json(await tool('browser_execute_script', { tabId: tab.id, code: 'window.events' })).value, ['prompt:Timed', 'confirm:true', 'alert']);
    await tool('browser_close_tab', { tabId: tab.id });
  });

  it('names a dialog of a tab no agent drove, and says it can only be answered in the browser', { timeout: 60_000 }, async () => {
    // Opened by the person (here Playwright), not by the agent: the dialog opens at once.
    // No tool touches the tab before the dialog is open.
    const page = await browser.context.newPage();
    const opened = page.waitForEvent('dialog');
    await page.goto(`${site.url}/dialog.html?ms=300`);
    await opened;
    const tab = json(await tool('browser_list_tabs')).find((t) => t.url.includes('/dialog.html?ms=300'));
    const refusal = await callTool(mcp, 'browser_get_tab_content', { tabId: tab.id });
    assert.equal(refusal.isError, true);
    assert.match(resultText(refusal), BLOCKED);
    const answer = await callTool(mcp, 'browser_handle_dialog', { tabId: tab.id, action: 'accept' });
    assert.equal(answer.isError, true);
    assert.match(resultText(answer), /shows a JavaScript confirm\(\) dialog "Discard the draft\?" that opened before the extension watched the tab, so it can only be answered in the browser window/);
    await page.close();
  });
});
