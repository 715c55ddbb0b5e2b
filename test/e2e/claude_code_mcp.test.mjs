// Claude Code itself on opentabs (issue 40): the real `claude` CLI (test/node_modules, print
// mode) with the real binary and the real extension in headless Chromium, against a scripted
// Messages API (support/scripted_model.mjs), since there is no network and no key.  What
// proves the slash command works is the request Claude Code sends to the model: it carries
// the work_on_tab prompt's messages with the tab's accessibility snapshot.
//
// An `@opentabs:opentabs://tabs/<id>` mention is not tested here because Claude Code
// 2.1.328 does not attach MCP resources outside its interactive screen: its print-mode and
// stream-json runners build the turn with an empty resource list, so the mention reaches the
// model as the literal text (checked by hand, see the README's Resources section).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { readSecret, tempDir, waitFor, SOURCE_DIR } from './support/harness.mjs';
import { startMcpStack, json } from './support/mcp_stack.mjs';
import { startScriptedModel } from './support/scripted_model.mjs';

const CLAUDE = process.env.OPENTABS_CLAUDE ?? path.join(SOURCE_DIR, 'test/node_modules/.bin/claude');
const REPLY = 'Scripted reply: pressed.';

let stack;
let model;
let home;
let tabId;

// One print-mode run of Claude Code with only opentabs as its MCP server, a HOME of its own
// (no settings of the machine), and the model at the scripted server.  MCP_CONNECTION_NONBLOCKING=0
// makes it connect to opentabs before the turn, so the prompts are known when the command runs.
function runClaude(prompt) {
  const config = path.join(home, 'mcp.json');
  fs.writeFileSync(config, JSON.stringify({
    mcpServers: {
      opentabs: {
        type: 'http',
        url: `http://127.0.0.1:${stack.server.port}/mcp`,
        headers: { Authorization: `Bearer ${readSecret(stack.configDir)}` },
      },
    },
  }));
  const env = {
    PATH: process.env.PATH, HOME: home, ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'dummy',
    MCP_CONNECTION_NONBLOCKING: '0', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  };
  const child = spawn(CLAUDE, ['-p', prompt, '--mcp-config', config, '--strict-mcp-config'],
    { env, cwd: home, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => { stdout += d; });
  child.stderr.on('data', (d) => { stderr += d; });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

// The text blocks of the user messages of a Messages API request, in order.
const userTexts = (request) => request.messages.filter((m) => m.role === 'user').flatMap((m) =>
  typeof m.content === 'string' ? [m.content] : m.content.filter((b) => b.type === 'text').map((b) => b.text));

describe('Claude Code on opentabs (print mode, scripted model)', { skip: fs.existsSync(CLAUDE) ? false : `no Claude Code CLI at ${CLAUDE} (npm package @anthropic-ai/claude-code)` }, () => {
  before(async () => {
    stack = await startMcpStack({ tempPrefix: 'ot-claude-', config: { permissions: { browser: { permission: 'auto' } } } });
    model = await startScriptedModel({ reply: REPLY });
    home = tempDir('ot-claude-home-');
    tabId = json(await stack.tool('browser_open_tab', { url: `${stack.site.url}/interact.html` })).id;
    await waitFor(async () => json(await stack.tool('browser_get_tab_info', { tabId })).status === 'complete', 'page load');
  });

  after(async () => {
    await model?.close();
    await stack?.close();
    if (home) fs.rmSync(home, { recursive: true, force: true });
  });

  it('/mcp__opentabs__work_on_tab sends the prompt, with the tab snapshot, to the model', { timeout: 120_000 }, async () => {
    const run = await runClaude(`/mcp__opentabs__work_on_tab ${tabId} press`);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout.trim(), REPLY);

    const request = model.requests.find((r) => userTexts(r).some((t) => t.includes('<command-name>/mcp__opentabs__work_on_tab</command-name>')));
    assert.ok(request, `no model request carried the command: ${JSON.stringify(model.requests.map(userTexts))}`);
    const all = userTexts(request).join('\n');
    assert.match(all, new RegExp(`<command-args>${tabId} press</command-args>`));
    assert.match(all, new RegExp(`Work in the person's browser tab ${tabId} through OpenTabs`));
    assert.match(all, /The task: press/);
    assert.match(all, new RegExp(`Browser tools \\(pass tabId ${tabId}\\)`));
    assert.match(all, new RegExp(`Accessibility snapshot of tab ${tabId} \\(untrusted page content\\)`));
    assert.match(all, /page title="Interaction fixture"/);
    assert.match(all, /button "Press me" \[ref=e\d+@[0-9a-z]{4}\]/);
    assert.match(all, /\[\/page [0-9a-f]{16}\]/);
  });
});
