// Claude Code itself on opentabs (issue 40): the real `claude` CLI (test/node_modules) with
// the real binary and the real extension in headless Chromium, against a scripted Messages
// API (support/scripted_model.mjs), since there is no network and no key.  The proof is the
// request Claude Code sends to the model:
// - print mode, `/mcp__opentabs__work_on_tab <tabId> press`: the request carries the
//   prompt's messages with the tab's accessibility snapshot;
// - the interactive screen (in a pseudo-terminal), `@opentabs:opentabs://tabs/<tabId>`: the
//   and `…/<tabId>/text`: the request carries the tab resource and the tab's text.  Only
//   there: Claude Code 2.1.328's print-mode and stream-json runners build the turn with no MCP
//   resources, so a mention stays literal text; and it attaches only listed URIs (one a
//   template makes stays text), which is why the listing names each tab's text.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { readSecret, tempDir, waitFor, SOURCE_DIR } from './support/harness.mjs';
import { startMcpStack, json } from './support/mcp_stack.mjs';
import { startScriptedModel } from './support/scripted_model.mjs';

const CLAUDE = process.env.OPENTABS_CLAUDE ?? path.join(SOURCE_DIR, 'test/node_modules/.bin/claude');
const REPLY = 'Scripted reply: pressed.';
const API_KEY = 'sk-scripted-model-key-for-opentabs-tests';
const HAVE_PYTHON = spawnSync('python3', ['-c', 'import pty'], { stdio: 'ignore' }).status === 0;

let stack;
let model;
let home;
let tabId;

// One print-mode run of Claude Code with only opentabs as its MCP server, a HOME of its own
// (no settings of the machine), and the model at the scripted server.  MCP_CONNECTION_NONBLOCKING=0
// makes it connect to opentabs before the turn, so the prompts are known when the command runs.
function claudeArgsAndEnv(dir) {
  const config = path.join(dir, 'mcp.json');
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
    PATH: process.env.PATH, HOME: dir, ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: API_KEY,
    MCP_CONNECTION_NONBLOCKING: '0', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  };
  return { args: ['--mcp-config', config, '--strict-mcp-config'], env };
}

function runClaude(prompt) {
  const { args, env } = claudeArgsAndEnv(home);
  const child = spawn(CLAUDE, ['-p', prompt, ...args], { env, cwd: home, stdio: ['ignore', 'pipe', 'pipe'] });
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
// The interactive screen in a pseudo-terminal (python3's pty module), with the first-run
// dialogs answered in its ~/.claude.json: onboarding done, this API key approved, the
// working directory trusted.  A HOME of its own: no discovery cache from the print-mode runs,
// so it lists opentabs' resources afresh.
function startInteractiveClaude() {
  const dir = path.join(home, 'interactive');
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, '.claude.json'), JSON.stringify({
    hasCompletedOnboarding: true,
    theme: 'dark',
    customApiKeyResponses: { approved: [API_KEY.slice(-20)], rejected: [] },
    projects: { [dir]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } },
  }));
  const { args, env } = claudeArgsAndEnv(dir);
  const child = spawn('python3', ['-c', 'import pty, sys; pty.spawn(sys.argv[1:])', CLAUDE, ...args],
    { env: { ...env, TERM: 'xterm-256color' }, cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] });
  const session = { screen: '', type: (text) => child.stdin.write(text) };
  child.stdout.on('data', (d) => { session.screen += d; });
  session.exited = new Promise((resolve) => child.on('exit', resolve));
  session.close = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await session.exited;
  };
  return session;
}

const auditCount = async (tool) => (await (await fetch(`http://127.0.0.1:${stack.server.port}/audit?tool=${tool}&limit=100`, {
  headers: { Authorization: `Bearer ${readSecret(stack.configDir)}` },
})).json()).length;

const count = (text, part) => text.split(part).length - 1;

const userTexts = (request) => request.messages.filter((m) => m.role === 'user').flatMap((m) =>
  typeof m.content === 'string' ? [m.content] : m.content.filter((b) => b.type === 'text').map((b) => b.text));

describe('Claude Code 2.1.328 on opentabs, against a scripted model', { skip: fs.existsSync(CLAUDE) ? false : `no Claude Code CLI at ${CLAUDE} (npm package @anthropic-ai/claude-code)` }, () => {
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

  it('@opentabs:opentabs://tabs/<id> and …/<id>/text on the interactive screen attach the tab and its text', { timeout: 120_000, skip: HAVE_PYTHON ? false : 'no python3 with the pty module for a pseudo-terminal' }, async () => {
    const listings = await auditCount('browser_list_tabs');
    const session = startInteractiveClaude();
    try {
      // Claude Code lists opentabs' resources once connected (a browser_list_tabs call on its
      // behalf); a mention typed before then finds nothing to attach.
      await waitFor(async () => (await auditCount('browser_list_tabs')) > listings, "Claude Code's resources/list", 60_000);
      await waitFor(async () => session.screen.includes('\u276f'), 'the input prompt', 60_000);
      // Claude Code keeps what resources/list returned only once it has processed the answer,
      // a moment after the server wrote it; a mention sent before then goes out as plain text.
      // That is the client's race, not the server's, so a turn that attached nothing is asked
      // again (at most three turns, each with its own words).
      const resources = (r) => r.messages.flatMap((m) => typeof m.content === 'string' ? [m.content] : m.content.map((b) => b.text ?? ''))
        .join('\n').split('Full contents of resource:\n').slice(1).map((part) => part.split('\nDo NOT read this resource again')[0]);
      let attached = [];
      for (let turn = 1; turn <= 3 && attached.length < 2; turn++) {
        const prompt = `Summarize @opentabs:opentabs://tabs/${tabId} and @opentabs:opentabs://tabs/${tabId}/text (turn ${turn})`;
        const shown = count(session.screen, `tabs/${tabId}`);
        session.type(prompt);
        await waitFor(async () => count(session.screen, `tabs/${tabId}`) > shown, 'the typed mention on screen');
        session.type('\r');
        // Claude Code puts each attached resource in the request as "Full contents of resource:\n<contents>\nDo NOT read…".
        const asked = (r) => userTexts(r).includes(prompt);
        await waitFor(async () => model.requests.some(asked), 'the model request of the typed prompt', 60_000);
        attached = resources(model.requests.find(asked));
        if (attached.length < 2) await waitFor(async () => count(session.screen, REPLY) >= turn, "the scripted model's reply on screen", 60_000);
      }
      const info = attached.find((t) => t.startsWith('{'));
      const text = attached.find((t) => t !== info);
      assert.ok(info && text, `attached: ${JSON.stringify(attached)}`);
      const tab = JSON.parse(info);
      assert.equal(tab.id, tabId);
      assert.equal(tab.title, 'Interaction fixture');
      assert.match(tab.url, /interact\.html$/);
      assert.match(text, /^\[untrusted page text[^\n]*\]\nInteraction fixture\n[\s\S]*Press me[\s\S]*\n\[\/page [0-9a-f]{16}\]$/);
      for (const tool of ['browser_get_tab_info', 'browser_get_tab_content']) assert.ok(await auditCount(tool) > 0, `${tool} audited`);
    } finally {
      await session.close();
    }
  });
});
