// The work_on_tab slash command end to end (issue 40): the real `opentabs` binary, the real
// extension in headless Chromium, and the official MCP SDK clients — v2 pinned to
// 2026-07-28 and 1.x in a 2025-11-25 session.  The prompt for a real tab carries that tab's
// accessibility snapshot (taken through the tool pipeline: audited like a call), and
// completion/complete finds the tab by part of its title.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

import { readSecret, waitFor } from './support/harness.mjs';
import { startMcpStack, json } from './support/mcp_stack.mjs';

let stack;
let tabId;
let sdk2;

before(async () => {
  stack = await startMcpStack({ tempPrefix: 'ot-slash-', config: { permissions: { browser: { permission: 'auto' } } } });
  const opened = json(await stack.tool('browser_open_tab', { url: `${stack.site.url}/interact.html` }));
  tabId = opened.id;
  await waitFor(async () => json(await stack.tool('browser_get_tab_info', { tabId })).status === 'complete', 'page load');
  sdk2 = new Client({ name: 'slash-e2e', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await sdk2.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${stack.server.port}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${readSecret(stack.configDir)}` } },
  }));
});

after(async () => {
  await sdk2?.close().catch(() => {});
  await stack?.close();
});

const texts = (prompt) => prompt.messages.map((m) => m.content.text).join('\n');

describe('work_on_tab on a real tab', () => {
  it('the SDK v2 client (2026-07-28) lists the prompt and gets it with the tab snapshot attached', { timeout: 60_000 }, async () => {
    assert.equal(sdk2.getProtocolEra(), 'modern');
    const { prompts } = await sdk2.listPrompts();
    const work = prompts.find((p) => p.name === 'work_on_tab');
    assert.ok(work, JSON.stringify(prompts.map((p) => p.name)));
    const prompt = await sdk2.getPrompt({ name: 'work_on_tab', arguments: { tabId: String(tabId), task: 'press the button' } });
    const all = texts(prompt);
    assert.match(all, new RegExp(`tab ${tabId}`));
    assert.match(all, /The task: press the button/);
    assert.match(all, /heading "Interaction fixture" \[ref=e\d+@[0-9a-z]{4}\]/);
    assert.match(all, /button "Press me" \[ref=e\d+@[0-9a-z]{4}\]/);
    assert.match(all, new RegExp(`Browser tools \\(pass tabId ${tabId}\\)`));
    assert.match(all, /browser_click_element/);
    const audit = await (await fetch(`http://127.0.0.1:${stack.server.port}/audit?tool=browser_snapshot&limit=1`, {
      headers: { Authorization: `Bearer ${readSecret(stack.configDir)}` },
    })).json();
    assert.equal(audit[0].success, true);
  });

  it('completion finds the tab by its title, and the 2025-11-25 session gets the same prompt', { timeout: 60_000 }, async () => {
    const completion = await sdk2.complete({ ref: { type: 'ref/prompt', name: 'work_on_tab' }, argument: { name: 'tabId', value: 'interaction fix' } });
    assert.deepEqual(completion.completion.values, [String(tabId)]);
    const prompt = await stack.mcp.client.getPrompt({ name: 'work_on_tab', arguments: { tabId: String(tabId) } });
    assert.match(texts(prompt), /button "Press me" \[ref=e\d+@[0-9a-z]{4}\]/);
  });
});
