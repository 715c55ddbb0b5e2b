// An oversized reply fails only its own call (issue 38), in real headless Chromium with the real
// extension and the real opentabs binary.  The server closes a WebSocket whose message is over
// 20 MiB (close 1009), so before, one such reply cut the extension off and failed every call in
// flight.  Here a page holds 5 million U+0001 characters, which browser_get_page_html returns
// as over 30 MB of JSON ("\u0001" is six bytes escaped), while a second call waits in another tab
// until the test releases it: the big call fails saying why, the waiting call still completes,
// and the extension stays connected.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startExtensionStack, callTool, resultText, waitFor } from './support/harness.mjs';
import { startWebmcpSite } from './support/webmcp_site.mjs';

describe('an extension reply over 20 MiB', () => {
  let site;
  let stack;
  let server;
  let browser;
  let mcp;

  before(async () => {
    site = await startWebmcpSite();
    stack = await startExtensionStack({ prefix: 'ot-e2e-oversized-', permissions: { browser: { permission: 'auto' } } });
    ({ server, browser, mcp } = stack);
  });

  after(async () => {
    await stack?.close();
    await site?.close();
  });

  const tabIdOf = async (url) => {
    const r = await callTool(mcp, 'browser_list_tabs', {});
    const tabs = JSON.parse(resultText(r));
    const list = Array.isArray(tabs) ? tabs : tabs.tabs;
    return list.find((t) => t.url === url)?.id ?? list.find((t) => t.url === url)?.tabId;
  };

  test('fails only that call: a call waiting meanwhile completes and the extension stays connected', async () => {
    const bigPage = await browser.context.newPage();
    const bigUrl = site.url('frame.html');
    await bigPage.goto(bigUrl);
    await bigPage.evaluate(() => { document.body.textContent = '\u0001'.repeat(5_000_000); });
    const waitPage = await browser.context.newPage();
    const waitUrl = site.url('frame.html', 'localhost');
    await waitPage.goto(waitUrl);
    const bigTab = await waitFor(() => tabIdOf(bigUrl), 'the big tab listed');
    const waitTab = await waitFor(() => tabIdOf(waitUrl), 'the waiting tab listed');
    const connectionsBefore = (server.output().match(/extension connected|extension_connected|connection opened/gi) ?? []).length;

    // In flight until the test says so.
    const waiting = callTool(mcp, 'browser_execute_script', {
      tabId: waitTab,
      code: "await new Promise((r) => { const t = setInterval(() => { if (window.__release) { clearInterval(t); r(); } }, 20); }); return 'waited';",
    });
    waiting.catch(() => {});   // awaited below; a failed assertion before that must not leave it unhandled
    await waitFor(() => waitPage.evaluate(() => typeof window.__release === 'undefined' && document.readyState === 'complete'), 'the waiting page');

    const big = await callTool(mcp, 'browser_get_page_html', { tabId: bigTab, maxLength: 5_000_000 });
    assert.equal(big.isError, true, 'the oversized answer is an error');
    assert.match(resultText(big), /more than the 20\.0 MiB one message to the server may carry; only this call failed/);

    await waitPage.evaluate(() => { window.__release = true; });
    const done = await waiting;
    assert.notEqual(done.isError, true, `the call in flight failed with the big one: ${resultText(done)}`);
    assert.match(resultText(done), /waited/);

    const after = await callTool(mcp, 'browser_list_tabs', {});
    assert.notEqual(after.isError, true, resultText(after));
    const connectionsAfter = (server.output().match(/extension connected|extension_connected|connection opened/gi) ?? []).length;
    assert.equal(connectionsAfter, connectionsBefore, 'the extension did not have to reconnect');
    await bigPage.close();
    await waitPage.close();
  });
});
