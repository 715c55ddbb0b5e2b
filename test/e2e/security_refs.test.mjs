// Snapshot refs are bound to the document they came from (issue 13, item 5).  Refs number
// elements from e1 in every document, so a ref taken on one page, used after the tab moved on
// to another page laid out alike, used to click the other page's element at that number and
// report success.  Against the real binary, the real extension in headless Chromium and the
// official MCP SDK client: such a ref is refused with a message that says to take a new
// snapshot and nothing is clicked; so is a ref whose element left the page or whose frame
// navigated; a ref of the current document still clicks.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { callTool, resultText, waitFor } from './support/harness.mjs';
import { startMcpStack, json } from './support/mcp_stack.mjs';

const REF = /^e\d+@[0-9a-z]{4}$/;
const TAKE_NEW_SNAPSHOT = /take a new browser_snapshot/;

let stack;
let site;
let mcp;
let tool;
async function refused(name, args, pattern) {
  const r = await callTool(mcp, name, args);
  assert.equal(r.isError, true, `${name} unexpectedly succeeded: ${resultText(r)}`);
  assert.match(resultText(r), pattern);
  return resultText(r);
}
async function loaded(tabId, urlEnd) {
  await waitFor(async () => {
    const info = json(await tool('browser_get_tab_info', { tabId }));
    return info.status === 'complete' && info.url.endsWith(urlEnd);
  }, `${urlEnd} to load`);
}
async function snapshotRef(tabId, pattern) {
  // Plain text: a metadata line, then the snapshot.
  const snapshot = resultText(await tool('browser_snapshot', { tabId })).split('\n').slice(1).join('\n');
  const line = snapshot.split('\n').find((l) => pattern.test(l));
  assert.ok(line, `snapshot has a line matching ${pattern}:\n${snapshot}`);
  const ref = /\[ref=([^\]]+)\]/.exec(line)[1];
  assert.match(ref, REF);
  return ref;
}
const pageValue = async (tabId, code) => json(await tool('browser_execute_script', { tabId, code })).value;

before(async () => {
  stack = await startMcpStack({ tempPrefix: 'ot-sec-refs-', config: { permissions: { browser: { permission: 'auto' } } } });
  ({ site, mcp, tool } = stack);
});

after(async () => {
  await stack?.close();
});

describe('snapshot refs are bound to their document', () => {
  it('a ref from the page the tab left is refused on the next page, nothing is clicked there, and the new page\'s ref clicks', async () => {
    const tab = json(await tool('browser_open_tab', { url: `${site.url}/refs-a.html` }));
    await loaded(tab.id, '/refs-a.html');
    const keepDraft = await snapshotRef(tab.id, /button "Keep draft"/);

    await tool('browser_navigate_tab', { tabId: tab.id, url: `${site.url}/refs-b.html` });
    await loaded(tab.id, '/refs-b.html');
    const deleteAccount = await snapshotRef(tab.id, /button "Delete account"/);
    // The pages are laid out alike: both buttons have the same element number, so only the
    // document tag tells the refs apart.
    assert.equal(keepDraft.split('@')[0], deleteAccount.split('@')[0]);
    assert.notEqual(keepDraft, deleteAccount);

    for (const name of ['browser_click_element', 'browser_hover_element', 'browser_scroll']) {
      const text = await refused(name, { tabId: tab.id, ref: keepDraft }, TAKE_NEW_SNAPSHOT);
      assert.match(text, /another document/);
    }
    await refused('browser_type_text', { tabId: tab.id, ref: keepDraft, text: 'x' }, TAKE_NEW_SNAPSHOT);
    await refused('browser_press_key', { tabId: tab.id, ref: keepDraft, key: 'Enter' }, TAKE_NEW_SNAPSHOT);
    await refused('browser_wait_for_element', { tabId: tab.id, ref: keepDraft, timeout: 5000 }, TAKE_NEW_SNAPSHOT);
    await refused('browser_snapshot', { tabId: tab.id, ref: keepDraft }, TAKE_NEW_SNAPSHOT);
    assert.deepEqual(await pageValue(tab.id, 'window.events'), [], 'nothing on page B was clicked');

    // A ref without its document tag names no document: refused by the tool's schema.
    await refused('browser_click_element', { tabId: tab.id, ref: deleteAccount.split('@')[0] }, /ref/);
    assert.deepEqual(await pageValue(tab.id, 'window.events'), []);

    const clicked = json(await tool('browser_click_element', { tabId: tab.id, ref: deleteAccount }));
    assert.equal(clicked.ref, deleteAccount);
    assert.deepEqual(await pageValue(tab.id, 'window.events'), ['delete-account']);
    await tool('browser_close_tab', { tabId: tab.id });
  });

  it('a reload of the same URL makes a new document: its old refs are refused', async () => {
    const tab = json(await tool('browser_open_tab', { url: `${site.url}/refs-a.html` }));
    await loaded(tab.id, '/refs-a.html');
    const before = await snapshotRef(tab.id, /button "Keep draft"/);
    await pageValue(tab.id, 'window.__oldDocument = true');
    await tool('browser_navigate_tab', { tabId: tab.id, url: `${site.url}/refs-a.html` });
    await waitFor(async () => (await pageValue(tab.id, 'document.readyState === "complete" && !window.__oldDocument')) === true, 'the reloaded page');
    // Snapshot the new document first, so its registry has refs with the same numbers.
    const after = await snapshotRef(tab.id, /button "Keep draft"/);
    assert.notEqual(after, before);
    await refused('browser_click_element', { tabId: tab.id, ref: before }, TAKE_NEW_SNAPSHOT);
    assert.deepEqual(await pageValue(tab.id, 'window.events'), []);
    await tool('browser_click_element', { tabId: tab.id, ref: after });
    assert.deepEqual(await pageValue(tab.id, 'window.events'), ['keep-draft']);
    await tool('browser_close_tab', { tabId: tab.id });
  });

  it('a ref whose element left the page is refused; a ref into a frame that navigated is refused', async () => {
    const tab = json(await tool('browser_open_tab', { url: `${site.url}/refs-b.html` }));
    await loaded(tab.id, '/refs-b.html');
    const deleteAccount = await snapshotRef(tab.id, /button "Delete account"/);
    const frameButton = await snapshotRef(tab.id, /button "Frame button"/);

    await pageValue(tab.id, "document.getElementById('delete').remove(), true");
    const text = await refused('browser_click_element', { tabId: tab.id, ref: deleteAccount }, TAKE_NEW_SNAPSHOT);
    assert.match(text, /left the page/);

    // The frame loads a new document in the same place: the old frame document's button is
    // gone from the page even though its element object still exists.
    await pageValue(tab.id, "document.getElementById('frame').src = '/refs-frame.html?doc=2', true");
    await waitFor(async () => (await pageValue(tab.id, "document.getElementById('frame').contentDocument?.readyState === 'complete' && document.getElementById('frame').contentWindow.location.search === '?doc=2'")) === true, 'the frame to navigate');
    const frameText = await refused('browser_click_element', { tabId: tab.id, ref: frameButton }, TAKE_NEW_SNAPSHOT);
    assert.match(frameText, /left the page/);
    assert.deepEqual(await pageValue(tab.id, 'window.events'), [], 'nothing was clicked');

    const newFrameButton = await snapshotRef(tab.id, /button "Frame button"/);
    assert.notEqual(newFrameButton, frameButton);
    await tool('browser_click_element', { tabId: tab.id, ref: newFrameButton });
    assert.deepEqual(await pageValue(tab.id, 'window.events'), ['frame-clicked:2']);
    await tool('browser_close_tab', { tabId: tab.id });
  });
});
