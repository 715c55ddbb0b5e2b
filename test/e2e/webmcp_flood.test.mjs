// A hostile page against the extension's WebMCP state (issue 24, findings 1 and 3), in real
// headless Chromium with the real extension and the real opentabs binary:
//  * a page whose 10 same-origin iframes re-publish 7 tools of ~68 KB every 30 ms must not
//    stop the service worker from answering the server (browser_list_tabs keeps working);
//  * 12 iframes publishing ~480 KB each must not fill chrome.storage.session: another site's
//    tools still reach the server and the session area keeps room for everything else;
//  (each frame's list stays under the page relay's 512 KiB cap, so these lists do reach the
//  worker and its throttle and caps are what is tested);
//  * an origin whose frames stay under the per-frame cap but over its share keeps only its
//    newest frames;
//  * a tab with 208 tiny iframes from 13 origins (issue 38) holds its tab's share (32 frames)
//    and no more, so another site's tool is still listed and called while it is open.
// The server's dispatch deadline is shortened (OPENTABS_DISPATCH_TIMEOUT_MS) so a stalled
// worker shows up as an error instead of a long wait.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startExtensionStack, callTool, resultText, waitFor } from './support/harness.mjs';
import { startWebmcpSite } from './support/webmcp_site.mjs';
import { pageWords } from '../integration/support/page_text.mjs';

const SESSION_AREA_BYTES = 10 * 1024 * 1024;

describe('WebMCP: a hostile page cannot stall the extension or fill its storage', () => {
  let site;
  let stack;
  let server;
  let browser;
  let mcp;

  before(async () => {
    site = await startWebmcpSite();
    stack = await startExtensionStack({ prefix: 'ot-e2e-webmcp-flood-', permissions: { browser: { permission: 'auto' }, [site.key('localhost')]: { permission: 'auto' } }, env: { OPENTABS_DISPATCH_TIMEOUT_MS: '8000' } });
    ({ server, browser, mcp } = stack);
  });

  after(async () => {
    await stack?.close();
    await site?.close();
  });

  // Waits until each of the page's `count` frames has published at least `rounds` times.
  const framesPublished = (page, count, rounds) => waitFor(async () => {
    const counts = await Promise.all(page.frames().slice(1).map((f) => f.evaluate(() => window.rounds ?? 0).catch(() => 0)));
    return counts.length === count && counts.every((n) => n >= rounds);
  }, `all ${count} frames published ${rounds} time(s)`, 30_000);
  const sessionBytes = () => browser.worker().evaluate(() => chrome.storage.session.getBytesInUse(null));
  const listsTab = async () => {
    const r = await callTool(mcp, 'browser_list_tabs', {});
    assert.ok(!r.isError, `browser_list_tabs failed while the page floods: ${resultText(r)}`);
  };

  test('finding 1: re-publishing 7 tools of ~68 KB every 30 ms in 10 frames does not stall the worker', async () => {
    const page = await browser.context.newPage();
    await page.goto(site.url('flood.html?frames=10&tools=7&kb=68&ms=30'));
    // The flood is on once every frame has re-published many times.
    await framesPublished(page, 10, 40);
    for (let i = 0; i < 5; i += 1) await listsTab();
    await page.close();
    await listsTab();
  });

  test('finding 3: 12 frames of ~480 KB do not fill the session area; another site\'s tools still arrive', async () => {
    const page = await browser.context.newPage();
    await page.goto(site.url('flood.html?frames=12&tools=7&kb=68'));
    await framesPublished(page, 12, 1);
    // Another site (localhost is another origin) publishes a small tool afterwards.
    const other = await browser.context.newPage();
    await other.goto(site.url('frame.html', 'localhost'));
    const name = `${site.prefix('localhost')}frame_echo`;
    await waitFor(async () => (await mcp.client.listTools()).tools.some((t) => t.name === name), `${name} listed`, 20_000);
    const echoed = await mcp.client.callTool({ name, arguments: { text: 'hi' } });
    assert.match(pageWords(echoed), /^hi from /);
    assert.ok(await sessionBytes() < SESSION_AREA_BYTES / 2, 'the session area keeps room for the rest of the extension');
    await listsTab();
    await page.close();
    await other.close();
  });

  test('issue 38: a tab with 208 tiny iframes from 13 origins does not hide another site\'s tools', async () => {
    const page = await browser.context.newPage();
    // Every frame the worker did not keep says so on its console; count those.
    let refusedFrames = 0;
    page.on('console', (m) => { if (/\[OpenTabs WebMCP\].*(not forwarded|nothing forwarded)/.test(m.text())) refusedFrames += 1; });
    await page.goto(site.url('flood.html?frames=208&origins=13&tools=1&kb=1'));
    await framesPublished(page, 208, 1);
    const floodFrames = () => browser.worker().evaluate(async () => {
      const all = await chrome.storage.session.get(null);
      return Object.entries(all).filter(([k, f]) => k.startsWith('webmcpFrame:') && /\/\/o\d+\.localhost:/.test(f.url)).length;
    });
    // Every one of the 208 frames was either kept or refused.
    const kept = await waitFor(async () => { const n = await floodFrames(); return n + refusedFrames >= 208 && n; },
      'the worker to decide on all 208 frames', 60_000).catch(async (err) => { throw new Error(`${err.message} (kept ${await floodFrames()}, refused ${refusedFrames})`); });
    const other = await browser.context.newPage();
    await other.goto(site.url('frame.html', 'localhost'));
    const name = `${site.prefix('localhost')}frame_echo`;
    await waitFor(async () => (await mcp.client.listTools()).tools.some((t) => t.name === name), `${name} listed while the flooding tab is open`, 20_000);
    const echoed = await mcp.client.callTool({ name, arguments: { text: 'still here' } });
    assert.match(pageWords(echoed), /^still here from /);
    assert.ok(kept <= 32, `the flooding tab keeps ${kept} frames, at most its share of 32`);
    await listsTab();
    await page.close();
    await other.close();
  });

  test('an origin over its share keeps only its newest frames; the area stays bounded', async () => {
    const page = await browser.context.newPage();
    // 12 frames of ~400 KB each: every frame is under the per-frame cap, together they are
    // far over the origin's share (1 MiB).
    await page.goto(site.url('flood.html?frames=12&tools=6&kb=64'));
    await framesPublished(page, 12, 1);
    const stored = () => browser.worker().evaluate(async () => {
      const all = await chrome.storage.session.get(null);
      return Object.entries(all).filter(([k]) => k.startsWith('webmcpFrame:')).map(([, f]) => f.chars);
    });
    // Frames are applied every 500 ms per tab; wait until all twelve reports were handled,
    // i.e. the flooding origin holds its cap's worth and no more.
    const prefix = site.prefix('127.0.0.1');
    const listed = await waitFor(async () => {
      const names = (await mcp.client.listTools()).tools.map((t) => t.name).filter((n) => n.startsWith(prefix));
      const chars = await stored();
      return names.length > 0 && chars.length > 0 && chars.length < 12 && { names, chars };
    }, 'the flooding origin trimmed to its share', 30_000);
    assert.ok(listed.chars.reduce((a, b) => a + b, 0) <= 1024 * 1024, `stored ${listed.chars.join(' + ')} characters for one origin`);
    await listsTab();
    await page.close();
  });
});
