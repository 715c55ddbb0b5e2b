// "Always allow" answered in the agent's own dialog (issue 38): the answer sets the tool to
// auto in config.json, which the side panel did not see happen.  In real Chromium with the
// real extension and server: an official MCP SDK client (2025-11-25 session declaring
// elicitation) answers "always_allow"; the side panel then shows a notice naming the tool,
// saying it now runs without asking and how to undo it, and its "Set back to Ask" button
// puts config.json back to ask.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

import {
  ARTIFACTS_DIR, tempDir, writeConfig, startServer, extensionDir, ensureServerPortFile, launchWithPlaywright, openSidePanel,
  readSecret, waitFor,
} from './support/harness.mjs';

const require = createRequire(import.meta.url);
const TOOL = 'browser_list_tabs';

describe('side panel notice when the agent\'s "always allow" wrote auto', () => {
  let configDir; let server; let browser; let panel; let client;
  const toolPermission = () => JSON.parse(fs.readFileSync(path.join(configDir, 'config.json'), 'utf8')).permissions?.browser?.tools?.[TOOL];

  before(async () => {
    configDir = tempDir('ot-e2e-always-');
    writeConfig(configDir, { permissions: { browser: { permission: 'auto', tools: { [TOOL]: 'ask' } } } });
    server = await startServer(configDir);
    ensureServerPortFile(configDir, server.port);
    browser = await launchWithPlaywright(extensionDir(configDir));
    panel = await openSidePanel(browser);

    const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
    const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');
    const { ElicitRequestSchema } = require('@modelcontextprotocol/sdk/types.js');
    client = new Client({ name: 'always-allow-e2e', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { decision: 'always_allow' } }));
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.port}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${readSecret(configDir)}` } },
    }));
  });

  after(async () => {
    await client?.close().catch(() => {});
    await browser?.close().catch(() => {});
    await server?.stop();
    if (configDir) fs.rmSync(configDir, { recursive: true, force: true });
  });

  test('the notice names the tool, says it is auto now and how to undo it; "Set back to Ask" undoes it', async () => {
    assert.equal(toolPermission(), 'ask');
    const r = await client.callTool({ name: TOOL, arguments: {} });
    assert.notEqual(r.isError, true, JSON.stringify(r));
    await waitFor(() => toolPermission() === 'auto', 'config.json to say auto');

    const notice = panel.locator(`[data-testid=notice][data-tool=${TOOL}]`);
    await notice.waitFor({ timeout: 15_000 });
    const text = await notice.textContent();
    assert.match(text, new RegExp(`${TOOL} now runs without asking`));
    assert.match(text, /"Always allow" in the agent's dialog set browser_list_tabs to auto/);
    assert.match(text, /opentabs config set tool-permission\.browser\.browser_list_tabs ask/);
    // The side panel's copy of the question was withdrawn: nothing waits for an answer there.
    await panel.locator('[data-testid=confirmation]').first().waitFor({ state: 'detached' });
    fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
    await panel.screenshot({ path: path.join(ARTIFACTS_DIR, 'side-panel-always-allow-notice.png') });

    await notice.locator('[data-testid=notice-undo]').click();
    await waitFor(() => toolPermission() === 'ask', 'config.json back to ask');
    await notice.waitFor({ state: 'detached' });
  });
});
