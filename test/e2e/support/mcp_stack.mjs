// The whole chain for MCP-level browser tool tests: the fixture pages server, the real
// `opentabs` binary with a temp config dir, the real extension in Chromium (through
// Playwright, or a plain process with no Playwright attached), and the official MCP SDK
// client, started once the extension has connected.
import assert from 'node:assert/strict';
import fs from 'node:fs';

import {
  tempDir, writeConfig, startServer, extensionDir, readSecret, ensureServerPortFile, launchWithPlaywright,
  launchPlain, connectMcp, callTool, resultText, waitFor,
} from './harness.mjs';
import { startPagesServer } from '../../fixtures/site/pages/serve.mjs';

export const json = (r) => JSON.parse(resultText(r));

// config is written as the server's config, serverEnv added to the server's environment (test
// knobs).  plainStartPaths launches plain Chromium opened
// at those fixture pages instead of Playwright.  With keepDialogs the Playwright context gets a
// 'dialog' listener that leaves dialogs open (Playwright would otherwise dismiss them).
export async function startMcpStack({ tempPrefix, config, serverEnv = {}, plainStartPaths, keepDialogs = false }) {
  const stack = {};
  stack.close = async () => {
    await stack.mcp?.close().catch(() => {});
    await stack.browser?.close();
    await stack.server?.stop();
    await stack.site?.close();
    if (stack.configDir) fs.rmSync(stack.configDir, { recursive: true, force: true });
  };
  try {
    stack.site = await startPagesServer();
    stack.configDir = tempDir(tempPrefix);
    writeConfig(stack.configDir, config);
    stack.server = await startServer(stack.configDir, { env: serverEnv });
    ensureServerPortFile(stack.configDir, stack.server.port);
    const extDir = extensionDir(stack.configDir);
    stack.browser = plainStartPaths
      ? await launchPlain(extDir, plainStartPaths.map((p) => `${stack.site.url}${p}`))
      : await launchWithPlaywright(extDir);
    if (keepDialogs) {
      // On the context, not on each page: a page's own listener comes after its 'page' event,
      // and a dialog that opens while a new tab loads would be dismissed before it.
      stack.browser.context.on('dialog', () => {});
    }
    stack.mcp = await connectMcp(stack.server.port, readSecret(stack.configDir));
    const { mcp } = stack;
    await waitFor(async () => !(await callTool(mcp, 'browser_list_tabs', {})).isError, 'the extension to connect', 20_000);
  } catch (err) {
    await stack.close();
    throw err;
  }
  // Calls a tool that must succeed.
  stack.tool = async (name, args = {}) => {
    const r = await callTool(stack.mcp, name, args);
    assert.ok(!r.isError, `${name} failed: ${resultText(r)}`);
    return r;
  };
  return stack;
}
