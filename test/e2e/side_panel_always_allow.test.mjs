// "Always allow" answered in the agent's own dialog (issue 38): the answer sets the tool to
// auto in config.json, which the side panel did not see happen.  In real Chromium with the
// real extension and server: an official MCP SDK client (2025-11-25 session declaring
// elicitation) answers "always_allow"; the side panel then shows a notice naming the tool,
// saying it now runs without asking and how to undo it, and its "Set back to Ask" button
// puts config.json back to ask.  And the other way round: an answer clicked in the side
// panel after the agent's dialog had decided is not used, and the panel says so.
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

describe('side panel notices of answers given in the agent\'s dialog', () => {
  let configDir; let server; let browser; let panel; let client;
  // What the agent's dialog answers; a test may first wait for the side panel's copy.
  let agentAnswer = async () => ({ action: 'accept', content: { decision: 'always_allow' } });
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
    client.setRequestHandler(ElicitRequestSchema, () => agentAnswer());
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

  test('an answer clicked in the side panel after the agent\'s dialog decided: the panel says it was not used and which answer took effect', async () => {
    assert.equal(toolPermission(), 'ask');
    let questionId;
    agentAnswer = async () => {
      // The side panel shows the question too; its id is what a click there would answer.
      const card = panel.locator(`[data-testid=confirmation][data-tool=${TOOL}]`).first();
      await card.waitFor({ timeout: 15_000 });
      questionId = await card.getAttribute('data-id');
      return { action: 'accept', content: { decision: 'deny' } };
    };
    const r = await client.callTool({ name: TOOL, arguments: {} });
    assert.equal(r.isError, true, JSON.stringify(r));
    assert.ok(questionId);
    // The person's click on the card they still saw: the same message its "Allow once" sends.
    await panel.evaluate((id) => chrome.runtime.sendMessage({ target: 'background', type: 'sp:confirm', payload: { id, decision: 'allow' } }), questionId);

    const notice = panel.locator('[data-testid=notice][data-kind=answerNotUsed]');
    await notice.waitFor({ timeout: 15_000 });
    const text = await notice.textContent();
    assert.match(text, /Your answer was not used/);
    assert.match(text, /Your answer in the OpenTabs side panel \(allow_once\) was not used: the agent's dialog had already decided \(denied\)/);
    assert.equal(toolPermission(), 'ask');
    await notice.locator('[data-testid=notice-dismiss]').click();
    await notice.waitFor({ state: 'detached' });
  });
});
