// Attacker's view in real headless Chromium, issue 13 item 1: a web page (no permission
// needed) registers WebMCP tools whose inputSchemas carry hostile patterns
// (test/fixtures/site/pages/webmcp/hostile.html: (?:){40000}, a{49000}, (.*)+Z) through the
// real extension, while an OpenTabs plugin tool (fixture-notes, in a page of the fixture
// site) is called.  On the old code the registration held the server's I/O thread for tens
// of seconds and the plugin call ran into its timeout; now the plugin call keeps working,
// the hostile tools are refused with the reason when called, and (.*)+Z on a 40 kB argument
// gets a validation result.  Deadlines are the MCP SDK's own request timeout.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  SOURCE_DIR, tempDir, writeConfig, startServer, extensionDir, readSecret, ensureServerPortFile, launchWithPlaywright,
  connectMcp, callTool, resultText, pluginToolName, waitForPluginReady,
} from './support/harness.mjs';
import { pageWords } from '../integration/support/page_text.mjs';
import { startWebmcpSite } from './support/webmcp_site.mjs';

const { startFixtureSite } = await import(path.join(SOURCE_DIR, 'test/fixtures/site/server.mjs'));
const PLUGIN = 'fixture-notes';
const DEADLINE_MS = 15_000;

describe('security: a hostile WebMCP page in Chromium does not stall the server', () => {
  let webmcpSite; let fixtureSite; let configDir; let server; let browser; let mcp; let appPage; let echo; let P;

  before(async () => {
    webmcpSite = await startWebmcpSite();
    fixtureSite = await startFixtureSite({ port: 0, name: 'e2e-security-site' });
    P = webmcpSite.prefix('127.0.0.1');
    configDir = tempDir('ot-e2e-security-regex-');
    // The plugin on auto, and the hostile site enabled too: its schemas are then compiled as
    // soon as a call needs them.
    writeConfig(configDir, { permissions: { [PLUGIN]: { permission: 'auto' }, [webmcpSite.key('127.0.0.1')]: { permission: 'auto' } } });
    server = await startServer(configDir);
    ensureServerPortFile(configDir, server.port);
    browser = await launchWithPlaywright(extensionDir(configDir));
    appPage = await browser.context.newPage();
    await appPage.goto(`http://localhost:${fixtureSite.port}/`);
    await waitForPluginReady(browser, PLUGIN);
    mcp = await connectMcp(server.port, readSecret(configDir));
    echo = await pluginToolName(mcp, PLUGIN, 'echo');
  });

  after(async () => {
    await mcp?.close().catch(() => {});
    await browser?.close().catch(() => {});
    await server?.stop();
    await webmcpSite?.close();
    await fixtureSite?.close();
    if (configDir) fs.rmSync(configDir, { recursive: true, force: true });
  });

  test('the plugin call keeps working while the page registers hostile schemas; the hostile tools are refused when called', async () => {
    const page = await browser.context.newPage();
    await page.goto(webmcpSite.url('hostile.html'));
    // Plugin calls, each bounded by the SDK timeout, until the hostile tools are listed: the
    // calls span the registration (on the old code, the I/O thread froze on it).
    const names = [`${P}empty_repeat`, `${P}big_repeat`, `${P}backtrack`];
    for (let i = 0; ; i++) {
      const r = await callTool(mcp, echo, { message: `during ${i}` }, { timeout: DEADLINE_MS });
      assert.notEqual(r.isError, true, resultText(r));
      assert.deepEqual(JSON.parse(resultText(r)), { ok: true, message: `during ${i}` });
      const listed = (await mcp.client.listTools(undefined, { timeout: DEADLINE_MS })).tools.map((t) => t.name);
      if (i >= 2 && names.every((n) => listed.includes(n))) break;
      assert.ok(i < 300, `the hostile page's tools were not listed after ${i} plugin calls; listed: ${listed.filter((n) => n.startsWith('webmcp_')).join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.deepEqual(await page.evaluate(() => window.hostileResults), { empty_repeat: 'ok', big_repeat: 'ok', backtrack: 'ok' });

    const empty = await callTool(mcp, `${P}empty_repeat`, { p0: 'a' }, { timeout: DEADLINE_MS });
    assert.equal(empty.isError, true);
    assert.match(resultText(empty), /cannot be called: the page's inputSchema was refused: .*pattern "\(\?:\)\{40000\}" cannot be used: a repetition count of 40000 is not supported/);
    const big = await callTool(mcp, `${P}big_repeat`, { p0: 'a' }, { timeout: DEADLINE_MS });
    assert.equal(big.isError, true);
    assert.match(resultText(big), /pattern "a\{49000\}" cannot be used: a repetition count of 49000/);

    const long = 'a'.repeat(40_000);
    const invalid = await callTool(mcp, `${P}backtrack`, { text: long }, { timeout: DEADLINE_MS });
    assert.equal(invalid.isError, true);
    assert.match(resultText(invalid), /\/text: must match pattern "\(\.\*\)\+Z"/);
    const valid = await callTool(mcp, `${P}backtrack`, { text: `${long}Z` }, { timeout: DEADLINE_MS });
    assert.notEqual(valid.isError, true, resultText(valid));
    assert.equal(pageWords(valid), 'backtrack ran with 40012 bytes', 'the page\'s words, inside the page-content marks');

    const after = await callTool(mcp, echo, { message: 'after' }, { timeout: DEADLINE_MS });
    assert.deepEqual(JSON.parse(resultText(after)), { ok: true, message: 'after' });
    await page.close();
  });
});
