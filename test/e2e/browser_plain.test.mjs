// Browser tools in a plain Chromium process (no Playwright attached, so none of its
// anti-throttling flags, and the extension's service worker is stopped when idle): the
// conditions users are in.  Background-tab screenshots must succeed without activating the
// tab, and the always-on request record must survive the worker being stopped.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

import { callTool, resultText, waitFor, EXTENSION_ID } from './support/harness.mjs';
import { startMcpStack, json } from './support/mcp_stack.mjs';

const WebSocket = createRequire(import.meta.url)('ws');

let stack; let site; let browser; let mcp; let tool;

// A DevTools protocol session of the test's own on the page whose URL contains `urlPart`
// (beside the extension's debugger), through the plain Chromium's remote debugging port.
async function pageSession(urlPart) {
  const targets = await (await fetch(`${await browser.cdpUrl()}/json/list`)).json();
  const target = targets.find((t) => t.type === 'page' && t.url.includes(urlPart));
  assert.ok(target, `no page target with ${urlPart}`);
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject); });
  let lastId = 0;
  const waiting = new Map();
  ws.on('message', (data) => {
    const m = JSON.parse(String(data));
    waiting.get(m.id)?.(m);
    waiting.delete(m.id);
  });
  return {
    send: (method, params = {}) => new Promise((resolve) => { const id = ++lastId; waiting.set(id, resolve); ws.send(JSON.stringify({ id, method, params })); }),
    close: () => ws.close(),
  };
}

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

describe('pointer input on a background tab in a plain browser', () => {
  it('clicks and turns the wheel on a tab behind the one in front, which stays in front', { timeout: 180_000 }, async () => {
    // A link opened a tab in front of the one the agent works in: the agent's tab is hidden.
    const work = json(await tool('browser_open_tab', { url: `${site.url}/interact.html` }));
    const front = json(await tool('browser_open_tab', { url: `${site.url}/actions.html`, active: true }));
    await waitFor(async () => json(await tool('browser_get_tab_info', { tabId: work.id })).status === 'complete', 'page load');
    assert.equal(json(await tool('browser_execute_script', { tabId: work.id, code: 'document.visibilityState' })).value, 'hidden');
    const scroller = json(await tool('browser_execute_script', {
      tabId: work.id, code: "(() => { const r = document.getElementById('scroller').getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 }; })()",
    })).value;
    const started = Date.now();
    const wheel = json(await tool('browser_mouse', { tabId: work.id, action: 'wheel', x: scroller.x, y: scroller.y, deltaY: 60 }));
    console.log(`background wheel in ${Date.now() - started} ms`);
    // A hidden tab's compositor may send the wheel to the page instead of the box: the
    // answer says so, and something scrolled.
    assert.match(wheel.note, /The tab is not shown: Chromium may have scrolled the page rather than a scrolling box/);
    assert.ok(json(await tool('browser_execute_script', { tabId: work.id, code: "document.getElementById('scroller').scrollTop + scrollY" })).value > 0);
    for (let i = 0; i < 3; i++) {
      const t = Date.now();
      await tool('browser_click_element', { tabId: work.id, selector: '#btn' });
      console.log(`background click ${i + 1} in ${Date.now() - t} ms`);
    }
    await tool('browser_hover_element', { tabId: work.id, selector: '#hover-target' });
    const seen = json(await tool('browser_execute_script', { tabId: work.id, code: 'window.events' })).value;
    assert.deepEqual(seen, ['clicked:trusted', 'clicked:trusted', 'clicked:trusted', 'hovered']);
    assert.equal(json(await tool('browser_get_tab_info', { tabId: work.id })).active, false);
    assert.equal(json(await tool('browser_get_tab_info', { tabId: front.id })).active, true);
    for (let i = 0; i < 3; i++) {
      const t = Date.now();
      await tool('browser_click_element', { tabId: front.id, selector: 'body' });
      console.log(`front click ${i + 1} in ${Date.now() - t} ms`);
    }
    await tool('browser_close_tab', { tabId: front.id });
    await tool('browser_close_tab', { tabId: work.id });
  });
});

describe('a hidden tab\'s throttled timers', () => {
  it('do not hold up a click by selector there (its timers paused, the click still lands); a wheel on the front tab has no hidden-tab note', { timeout: 120_000 }, async () => {
    const work = json(await tool('browser_open_tab', { url: `${site.url}/interact.html?timers-paused` }));
    const front = json(await tool('browser_open_tab', { url: `${site.url}/interact.html?front`, active: true }));
    for (const tab of [work, front]) await waitFor(async () => json(await tool('browser_get_tab_info', { tabId: tab.id })).status === 'complete', 'page load');
    assert.equal(json(await tool('browser_execute_script', { tabId: work.id, code: 'document.visibilityState' })).value, 'hidden');
    // Chromium runs a hidden tab's timers at most once a second; here they do not run at all.
    // Locating the button must not wait on one (nothing scrolls in a tab that draws no frames).
    const cdp = await pageSession('interact.html?timers-paused');
    try {
      assert.ok((await cdp.send('Emulation.setVirtualTimePolicy', { policy: 'pause' })).result);
      const click = json(await tool('browser_click_element', { tabId: work.id, selector: '#btn' }));
      assert.equal(click.tag, 'button');
      assert.deepEqual(json(await tool('browser_execute_script', { tabId: work.id, code: 'window.events' })).value, ['clicked:trusted']);
    } finally {
      await cdp.send('Emulation.setVirtualTimePolicy', { policy: 'advance' });
      cdp.close();
    }
    // The tab in front is shown: its wheel answer carries no note about hidden tabs.
    const box = json(await tool('browser_execute_script', {
      tabId: front.id, code: "(() => { const r = document.getElementById('scroller').getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 }; })()",
    })).value;
    for (let i = 0; i < 3; i++) {
      const wheel = json(await tool('browser_mouse', { tabId: front.id, action: 'wheel', x: box.x, y: box.y, deltaY: 20 }));
      assert.equal(wheel.note, undefined, `wheel ${i + 1} on the front tab: ${wheel.note}`);
    }
    assert.equal(json(await tool('browser_execute_script', { tabId: front.id, code: "document.getElementById('scroller').scrollTop" })).value, 60);
    await tool('browser_close_tab', { tabId: front.id });
    await tool('browser_close_tab', { tabId: work.id });
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
