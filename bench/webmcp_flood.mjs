// How much a hostile WebMCP page slows the extension's other work (issue 38: "a page within the
// caps must not slow the worker's other work more than 2×").  Real opentabs binary, real
// headless Chromium with the real extension (test/e2e harness): times sequential
// browser_list_tabs round trips (MCP → server → extension worker → chrome.tabs → back) with no
// page open, while each flood page is open, and after it closed.
//
//   OPENTABS_BIN=build/opentabs node bench/webmcp_flood.mjs [rounds]
//   (OPENTABS_EXTENSION_SOURCE=<other extension dir> measures another version of the worker)
import {
  tempDir, writeConfig, startServer, extensionDir, readSecret, ensureServerPortFile, launchWithPlaywright,
  connectMcp, callTool, waitFor,
} from '../test/e2e/support/harness.mjs';
import { startWebmcpSite } from '../test/e2e/support/webmcp_site.mjs';
import fs from 'node:fs';

const rounds = Number(process.argv[2] ?? 30);
// Each flood page is also measured with register=0 (the same frames building the same text,
// registering nothing): the page's own cost on this machine, which the worker cannot avoid.
const PAGES = [
  ['10 same-origin frames, 7 tools of 68 KB re-published every 30 ms', 'flood.html?frames=10&tools=7&kb=68&ms=30'],
  ['32 frames from 13 origins, 7 tools of 68 KB every 30 ms', 'flood.html?frames=32&origins=13&tools=7&kb=68&ms=30'],
  ['208 frames from 13 origins, 7 tools of 68 KB every 30 ms', 'flood.html?frames=208&origins=13&tools=7&kb=68&ms=30'],
  ['208 tiny frames from 13 origins, 1 tool of 1 KB every 30 ms', 'flood.html?frames=208&origins=13&tools=1&kb=1&ms=30'],
];

const site = await startWebmcpSite();
const configDir = tempDir('ot-bench-webmcp-');
writeConfig(configDir, { permissions: { browser: { permission: 'auto' } } });
const server = await startServer(configDir, { env: { OPENTABS_DISPATCH_TIMEOUT_MS: '30000' } });
ensureServerPortFile(configDir, server.port);
const browser = await launchWithPlaywright(extensionDir(configDir));
const mcp = await connectMcp(server.port, readSecret(configDir));
await waitFor(async () => !(await callTool(mcp, 'browser_list_tabs', {})).isError, 'the extension to connect', 20_000);

async function sample(label) {
  const ms = [];
  for (let i = 0; i < rounds; i += 1) {
    const t = performance.now();
    const r = await callTool(mcp, 'browser_list_tabs', {});
    ms.push(performance.now() - t);
    // browser.listTabs is limited to 20 calls a second; stay well under it.
    await new Promise((r) => setTimeout(r, 80));
    if (r.isError) {
      ms[ms.length - 1] = Infinity;
      if (!sample.told) { sample.told = true; console.log(`  (error: ${JSON.stringify(r.content).slice(0, 300)})`); }
    }
  }
  ms.sort((a, b) => a - b);
  const at = (q) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))].toFixed(1);
  console.log(`${label.padEnd(64)} median ${at(0.5).padStart(8)} ms  p90 ${at(0.9).padStart(8)} ms  max ${at(1).padStart(8)} ms`);
  return Number(at(0.5));
}

try {
  const base = await sample('no page open');
  for (const [label, page] of PAGES) {
    const tab = await browser.context.newPage();
    await tab.goto(site.url(page), { timeout: 120_000 });
    // Let every frame publish a few times before measuring.
    await waitFor(async () => {
      const counts = await Promise.all(tab.frames().slice(1).map((f) => f.evaluate(() => window.rounds ?? 0).catch(() => 0)));
      return counts.length > 0 && counts.every((n) => n >= 3);
    }, 'the flood to run', 60_000);
    const open = await sample(label);
    await tab.close();
    const control = await browser.context.newPage();
    await control.goto(site.url(`${page}&register=0`), { timeout: 120_000 });
    await waitFor(async () => {
      const counts = await Promise.all(control.frames().slice(1).map((f) => f.evaluate(() => window.rounds ?? 0).catch(() => 0)));
      return counts.length > 0 && counts.every((n) => n >= 3);
    }, 'the control page to run', 60_000);
    const same = await sample('  the same page registering nothing');
    await control.close();
    const after = await sample('  after both closed');
    console.log(`${''.padEnd(64)} ${(open / base).toFixed(2)}× the no-page median, ${(open / same).toFixed(2)}× the control page's, ${(open / after).toFixed(2)}× the after-close median`);
  }
} finally {
  await mcp.close().catch(() => {});
  await browser.close().catch(() => {});
  await server.stop();
  await site.close();
  fs.rmSync(configDir, { recursive: true, force: true });
}
