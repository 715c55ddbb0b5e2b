// The three servers the agent benchmark drives, each behind the same small session shape so a
// task's scripts differ only in the tool names and arguments an agent would send:
//   call(name, args) -> the response's text (throws on an error result), counting the call and
//                       the bytes of its content;
//   ref(text, pattern) -> the ref (uid) on the first line of a snapshot that matches pattern;
//   open(url) -> a page handle the task's script gets; check(handle, expr) -> whether the page
//   expression is true (not counted: it is the benchmark looking, not the agent);
//   close(handle); partner() -> a second agent's server shape, for tasks two agents do at once
//   (opentabs: another MCP session on the same server and browser; the peers: a second server
//   instance with its own browser, as each serves one client and one current page).
// opentabs runs as the real binary with the extension in headless Chromium (the e2e harness);
// Playwright MCP and Chrome DevTools MCP run from bench/agent/node_modules (setup.sh) over stdio,
// each launching the system Chromium headless.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../..');
const SDK = path.join(ROOT, 'test/node_modules/@modelcontextprotocol/sdk/dist/esm/client');
const { Client } = await import(pathToFileURL(path.join(SDK, 'index.js')).href);
const { StdioClientTransport } = await import(pathToFileURL(path.join(SDK, 'stdio.js')).href);
const CHROMIUM = process.env.OPENTABS_BENCH_CHROMIUM ?? '/usr/bin/chromium';
const CALL_TIMEOUT_MS = 60_000;

export const textOf = (result) => (result.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');

// Counts every call an agent makes and the bytes of what came back.
function counter(client) {
  const stats = { calls: 0, bytes: 0 };
  const call = async (name, args = {}) => {
    stats.calls++;
    const result = await client.callTool({ name, arguments: args }, undefined, { timeout: CALL_TIMEOUT_MS });
    stats.bytes += Buffer.byteLength(JSON.stringify(result.content ?? []));
    if (result.isError) throw new Error(`${name}: ${textOf(result).slice(0, 300)}`);
    return textOf(result);
  };
  return { stats, call };
}

// The ref on the first line matching linePattern; when that line has none (text under a list
// item, say), the ref of its parent line, as an agent reading the tree would take it.
const firstMatch = (text, linePattern, refPattern) => {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => linePattern.test(l) && refPattern.test(l));
  if (at >= 0) return refPattern.exec(lines[at])[1];
  const bare = lines.findIndex((l) => linePattern.test(l));
  const indent = (l) => /^\s*/.exec(l)[0].length;
  for (let i = bare - 1; bare > 0 && i >= 0; i--) {
    if (indent(lines[i]) < indent(lines[bare])) return indent(lines[i]) === indent(lines[bare]) - 2 ? refPattern.exec(lines[i])?.[1] : undefined;
  }
  return undefined;
};

// The built-in tools as listed (the e2e harness's fixture plugins left out).
async function listing(client) {
  const tools = (await client.listTools()).tools.filter((t) => !t.name.startsWith('fixture-'));
  return { count: tools.length, bytes: Buffer.byteLength(JSON.stringify(tools)) };
}

// One MCP client of the opentabs server as the benchmark's server shape.  Each client checks
// and closes its own tabs: a tab in one client's group is not another client's to script.
function opentabsClient(client, listed, stop) {
  const evaluate = async (tabId, code) => JSON.parse(textOf(await client.callTool({ name: 'browser_execute_script', arguments: { tabId, code } })));
  return {
    name: 'opentabs',
    listing: listed,
    session: () => ({
      ...counter(client),
      ref: (text, pattern) => firstMatch(text, pattern, /\[ref=(e\d+@[0-9a-z]{4})\]/),
      open: async function (url) { return JSON.parse(await this.call('browser_open_tab', { url })).id; },
    }),
    check: async (tabId, expr) => (await evaluate(tabId, expr)).value === true,
    close: (tabId) => client.callTool({ name: 'browser_close_tab', arguments: { tabId } }),
    stop,
  };
}

export async function opentabsServer(workDir) {
  const { startMcpStack } = await import(pathToFileURL(path.join(ROOT, 'test/e2e/support/mcp_stack.mjs')).href);
  const { connectMcp, readSecret } = await import(pathToFileURL(path.join(ROOT, 'test/e2e/support/harness.mjs')).href);
  // keepDialogs: Playwright, which the harness drives Chromium with, would dismiss the dialogs
  // the agent is to answer.
  const stack = await startMcpStack({ tempPrefix: 'ot-agent-bench-', config: { permissions: { browser: { permission: 'auto' } } }, keepDialogs: true });
  fs.cpSync(workDir, path.join(stack.configDir, 'output'), { recursive: true });
  const listed = await listing(stack.mcp.client);
  const server = opentabsClient(stack.mcp.client, listed, () => stack.close());
  // A second agent beside the first: another MCP session (another clientInfo name) on the
  // same server and browser, as two agents on one machine share them.
  server.partner = async () => {
    const second = await connectMcp(stack.server.port, readSecret(stack.configDir), { name: 'opentabs-bench-second' });
    return opentabsClient(second.client, listed, () => second.close());
  };
  return server;
}

async function stdioClient(args, cwd) {
  const client = new Client({ name: 'opentabs-agent-bench', version: '1.0.0' });
  await client.connect(new StdioClientTransport({
    command: process.execPath, args, cwd, stderr: 'ignore',
    env: { ...process.env, CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1' },
  }));
  return client;
}

// The JSON value in a peer's evaluate answer: DevTools fences it as json, Playwright puts it
// under a "### Result" heading.
export const evaluated = (text) => JSON.parse((/```json\n([\s\S]*?)\n```/.exec(text) ?? /### Result\n([\s\S]*?)(?:\n###|$)/.exec(text))?.[1] ?? 'null');

// Playwright MCP with its coordinate tools (`--caps vision`), files confined to workDir.
export async function playwrightServer(workDir) {
  const cli = path.join(HERE, 'node_modules/@playwright/mcp/cli.js');
  const client = await stdioClient([cli, '--headless', '--isolated', '--no-sandbox', '--caps', 'vision',
    '--executable-path', CHROMIUM, '--output-dir', path.join(workDir, '.playwright-mcp')], workDir);
  // Its browser starts on the first call: started here, outside the tasks' times, as opentabs'
  // browser is started before its tasks.
  await client.callTool({ name: 'browser_navigate', arguments: { url: 'about:blank' } });
  return {
    name: 'Playwright MCP',
    listing: await listing(client),
    session: () => ({
      ...counter(client),
      ref: (text, pattern) => firstMatch(text, pattern, /\[ref=([a-z0-9]+)\]/),
      open: async function (url) { await this.call('browser_navigate', { url }); return null; },
    }),
    check: async (_, expr) => {
      const r = await client.callTool({ name: 'browser_evaluate', arguments: { function: `() => (${expr})` } });
      return !r.isError && evaluated(textOf(r)) === true;
    },
    close: async () => {},
    stop: () => client.close(),
    // A second agent: a second server instance with its own browser (one server drives one
    // current tab for its one stdio client).
    partner: () => playwrightServer(workDir),
  };
}

// Chrome DevTools MCP with its coordinate tools (`--experimentalVision`).
export async function devtoolsServer(workDir) {
  const cli = path.join(HERE, 'node_modules/chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js');
  const client = await stdioClient([cli, '--headless', '--isolated', '--experimentalVision', '--executablePath', CHROMIUM,
    '--chromeArg=--no-sandbox', '--no-usage-statistics', '--no-performance-crux', '--workspace', workDir], workDir);
  const call = (name, args) => client.callTool({ name, arguments: args });
  await call('list_pages', {}); // starts its browser outside the tasks' times
  return {
    name: 'DevTools MCP',
    listing: await listing(client),
    session: () => ({
      ...counter(client),
      ref: (text, pattern) => firstMatch(text, pattern, /uid=(\S+)/),
      open: async function (url) { return Number(/(\d+): [^\n]*\[selected\]/.exec(await this.call('new_page', { url }))?.[1]); },
    }),
    check: async (pageId, expr) => {
      const r = await call('evaluate_script', { pageId, function: `() => (${expr})` });
      return !r.isError && evaluated(textOf(r)) === true;
    },
    close: (pageId) => call('close_page', { pageId }),
    stop: () => client.close(),
    // A second agent: a second server instance with its own browser (a stdio server has one
    // client).
    partner: () => devtoolsServer(workDir),
  };
}

// A scratch folder the servers may read files from: the receipt a task drops onto a page.
export function makeWorkDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ot-agent-bench-files-'));
  fs.writeFileSync(path.join(dir, 'taxi-receipt.txt'), 'Taxi 23.50 EUR\n');
  return dir;
}
