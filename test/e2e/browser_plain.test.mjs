// Browser tools in a plain Chromium process (no Playwright attached, so none of its
// anti-throttling flags, and the extension's service worker is stopped when idle): the
// conditions users are in.  Background-tab screenshots must succeed without activating the
// tab, and the always-on request record must survive the worker being stopped.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { callTool, resultText, waitFor, EXTENSION_ID } from './support/harness.mjs';
import { startMcpStack, json } from './support/mcp_stack.mjs';

let stack; let site; let browser; let mcp; let tool;

before(async () => {
  stack = await startMcpStack({
    tempPrefix: 'ot-bt-plain-', config: { permissions: { browser: { permission: 'auto' } } }, plainStartPaths: ['/interact.html'],
  });
  ({ site, browser, mcp, tool } = stack);
});

after(async () => {
  await stack?.close();
});

describe('background-tab screenshots in a plain browser', () => {
  it('succeed 7 times out of 7 without activating the tab', { timeout: 180_000 }, async () => {
    const bg = json(await tool('browser_open_tab', { url: `${site.url}/actions.html` }));
    await waitFor(async () => json(await tool('browser_get_tab_info', { tabId: bg.id })).status === 'complete', 'page load');
    const outcomes = [];
    for (let i = 0; i < 7; i++) {
      const started = Date.now();
      const r = await callTool(mcp, 'browser_screenshot_tab', { tabId: bg.id });
      outcomes.push(r.isError ? resultText(r) : 'ok');
      console.log(`capture ${i + 1}: ${r.isError ? resultText(r) : 'ok'} in ${Date.now() - started} ms`);
      await new Promise((resolve) => setTimeout(resolve, 600)); // the 2-per-second limit
    }
    assert.deepEqual(outcomes, Array(7).fill('ok'));
    assert.equal(json(await tool('browser_get_tab_info', { tabId: bg.id })).active, false);
  });
});

describe('always-on request record in a plain browser', () => {
  it('survives the service worker being stopped while idle', { timeout: 240_000 }, async () => {
    const tab = json(await tool('browser_open_tab', { url: `${site.url}/actions.html` }));
    const listed = async () => resultText(await tool('browser_get_network_requests', { tabId: tab.id })).includes('/api/data?kind=boot');
    await waitFor(listed, 'the boot request in the index', 15_000);
    // The record lives in the page, not in the worker: wait for Chrome to stop the idle worker
    // (30 s after its last event), then read it again.
    const cdpUrl = await browser.cdpUrl();
    const workerUrl = `chrome-extension://${EXTENSION_ID}/src/background.js`;
    const workerRunning = async () => (await (await fetch(`${cdpUrl}/json/list`)).json()).some((t) => t.type === 'service_worker' && t.url === workerUrl);
    await waitFor(async () => !(await workerRunning()), 'Chrome to stop the idle service worker', 200_000, 1_000);
    assert.ok(await listed(), 'the requests recorded before the worker stopped are still listed');
    assert.ok(await workerRunning(), 'the call woke the worker');
  });
});
