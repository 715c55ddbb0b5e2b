// Shared pieces of the real-Chromium e2e suite: the real `opentabs` binary on an ephemeral port
// with an isolated config dir, the fixture site and plugins (test/fixtures), Chromium started
// either under Playwright (to drive the side panel) or as a plain process (so nothing holds the
// extension's service worker awake), and an official MCP SDK client on /mcp.
//
// Knobs: OPENTABS_BIN (server binary, default build/opentabs), OPENTABS_CHROMIUM
// (default /usr/bin/chromium), OPENTABS_E2E_VERBOSE=1 echoes server and browser output.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const here = path.dirname(fileURLToPath(import.meta.url));
export const SOURCE_DIR = process.env.OPENTABS_SOURCE_DIR ?? path.resolve(here, '../../..');
export const SERVER_BIN = process.env.OPENTABS_BIN ?? path.join(SOURCE_DIR, 'build/opentabs');
export const CHROMIUM = process.env.OPENTABS_CHROMIUM ?? '/usr/bin/chromium';
export const FIXTURE_PLUGINS = path.join(SOURCE_DIR, 'test/fixtures/plugins');
export const ARTIFACTS_DIR = path.join(SOURCE_DIR, 'test/e2e/artifacts');
const VERBOSE = process.env.OPENTABS_E2E_VERBOSE === '1';

const require = createRequire(path.join(SOURCE_DIR, 'test/package.json'));
export const { chromium } = require('playwright-core');

// The extension ID fixed by the manifest `key` (sha256 of the public key, a–p alphabet).
export const EXTENSION_ID = 'enhcedpbjdalmcjpikhimapoddplngdf';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Polls `fn` until it returns a truthy value; fails with `what` after `timeoutMs`.
export async function waitFor(fn, what, timeoutMs = 15_000, intervalMs = 100) {
  const deadline = Date.now() + timeoutMs;
  let lastError;
  while (Date.now() < deadline) {
    try {
      const value = await fn();
      if (value) return value;
    } catch (err) {
      lastError = err;
    }
    await sleep(intervalMs);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastError ? ` (last error: ${lastError.message})` : ''}`);
}

export function tempDir(prefix) {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

// Writes config.json for the server: the two fixture plugins (plus `extraLocalPlugins`) as local
// plugins, with the given
// permissions (plugin name -> {permission, tools?}; reviewedVersion is filled in) and settings.
export function writeConfig(configDir, { permissions = {}, settings = {}, extraLocalPlugins = [] } = {}) {
  const versions = {};
  const localPlugins = [];
  for (const dir of ['notes', 'tracker']) {
    const pkgDir = path.join(FIXTURE_PLUGINS, dir);
    const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
    localPlugins.push(pkgDir);
    versions[dir === 'notes' ? 'fixture-notes' : 'fixture-tracker'] = pkg.version;
  }
  localPlugins.push(...extraLocalPlugins);
  const perms = {};
  for (const [plugin, entry] of Object.entries(permissions)) {
    perms[plugin] = plugin === 'browser' ? { ...entry } : { reviewedVersion: versions[plugin], ...entry };
  }
  const config = {
    localPlugins, localPluginDirs: [], permissions: perms, settings,
    additionalAllowedDirectories: [SOURCE_DIR], version: 3, updateCheckIntervalMinutes: 0,
  };
  fs.mkdirSync(configDir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(configDir, 'config.json'), `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
}

// Starts `opentabs start` with the config dir and resolves once it prints its port.
export async function startServer(configDir, { port = 0, env = {} } = {}) {
  const child = spawn(SERVER_BIN, ['start'], {
    env: {
      ...process.env,
      // PORT is what the OpenTabs server reads; the opentabs CLI reads OPENTABS_PORT.  Both are
      // set so 0 (an ephemeral port) works whichever one the binary honours.
      OPENTABS_CONFIG_DIR: configDir, PORT: String(port), OPENTABS_PORT: String(port), OPENTABS_SKIP_NPM_DISCOVERY: '1',
      OPENTABS_TELEMETRY_DISABLED: '1', ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const onData = (chunk) => {
    output += chunk;
    if (output.length > 200_000) output = output.slice(-100_000);
    if (VERBOSE) process.stderr.write(`[server] ${chunk}`);
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const boundPort = await Promise.race([
    waitFor(() => Number(/opentabs listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output)?.[1]), 'the server to listen', 20_000),
    exited.then(({ code, signal }) => { throw new Error(`server exited early (${code ?? signal}): ${output.slice(-2000)}`); }),
  ]);
  return {
    port: boundPort,
    process: child,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const stopped = await Promise.race([exited, sleep(5_000).then(() => null)]);
      if (!stopped) { child.kill('SIGKILL'); await exited; }
    },
  };
}

export const extensionDir = (configDir) => path.join(configDir, 'extension');

export function readSecret(configDir) {
  return JSON.parse(fs.readFileSync(path.join(extensionDir(configDir), 'auth.json'), 'utf8')).secret;
}

// The extension learns the server port from `server.json` in its own folder (see
// extension/README.md).  The server writes it; when it has not, the test writes it, since the
// port is ephemeral.
export function ensureServerPortFile(configDir, port) {
  const file = path.join(extensionDir(configDir), 'server.json');
  let current = null;
  try { current = JSON.parse(fs.readFileSync(file, 'utf8')).port; } catch { /* absent */ }
  if (current !== port) fs.writeFileSync(file, `${JSON.stringify({ port })}\n`);
}

const CHROMIUM_FLAGS = [
  '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--window-size=1280,800',
];

// Chromium under Playwright: for tests that drive the side panel or read extension storage.
// Note that an attached Playwright keeps the service worker awake.
export async function launchWithPlaywright(extDir) {
  const userDataDir = tempDir('ot-e2e-profile-');
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM, headless: true,
    args: [...CHROMIUM_FLAGS, `--disable-extensions-except=${extDir}`, `--load-extension=${extDir}`],
  });
  let [worker] = context.serviceWorkers();
  if (!worker) worker = await context.waitForEvent('serviceworker', { timeout: 15_000 });
  if (VERBOSE) worker.on('console', (m) => process.stderr.write(`[sw] ${m.text()}\n`));
  return {
    context, userDataDir,
    worker: () => context.serviceWorkers().find((w) => w.url().startsWith(`chrome-extension://${EXTENSION_ID}/`)) ?? worker,
    async close() {
      await context.close();
      fs.rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

// The extension's side panel in a new tab of a Chromium from launchWithPlaywright, returned
// once it says it is connected to the server.
export async function openSidePanel(browser, { timeout = 20_000 } = {}) {
  const panel = await browser.context.newPage();
  await panel.goto(`chrome-extension://${EXTENSION_ID}/side-panel/side-panel.html`);
  await panel.locator('[data-testid=connection-state][data-state=connected]').waitFor({ timeout });
  return panel;
}

// Chromium as a plain process (no CDP client attached), so the MV3 service worker is suspended
// after 30 s idle exactly as for a user.  `--remote-debugging-port=0` only opens a port; the
// test connects to it (connectOverCDP) after the idle phase to read diagnostics.
export async function launchPlain(extDir, urls) {
  const userDataDir = tempDir('ot-e2e-profile-');
  const child = spawn(CHROMIUM, [
    '--headless=new', '--no-sandbox', ...CHROMIUM_FLAGS, `--user-data-dir=${userDataDir}`,
    `--load-extension=${extDir}`, `--disable-extensions-except=${extDir}`, '--remote-debugging-port=0',
    ...urls,
  ], { detached: true, stdio: ['ignore', 'ignore', VERBOSE ? 'inherit' : 'ignore'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    process: child, userDataDir,
    async cdpUrl() {
      const file = path.join(userDataDir, 'DevToolsActivePort');
      const port = await waitFor(() => fs.existsSync(file) && fs.readFileSync(file, 'utf8').split('\n')[0], 'DevToolsActivePort');
      return `http://127.0.0.1:${port}`;
    },
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        try { process.kill(-child.pid, 'SIGTERM'); } catch { /* already gone */ }
        const done = await Promise.race([exited, sleep(3_000).then(() => false)]);
        if (done === false) { try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ } await exited; }
      }
      fs.rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

// An official MCP SDK client on /mcp, with bearer auth, collecting logging notifications;
// `name` is its clientInfo name.
export async function connectMcp(port, secret, { name = 'opentabs-e2e' } = {}) {
  const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
  const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const { LoggingMessageNotificationSchema } = require('@modelcontextprotocol/sdk/types.js');
  const client = new Client({ name, version: '1.0.0' });
  const logs = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => { logs.push(n.params); });
  const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${secret}` } },
  });
  await client.connect(transport);
  // end(): DELETE the session, as a client that is done does (close() only drops the connection).
  return { client, logs, close: () => client.close(), end: () => transport.terminateSession() };
}

// Text of a CallToolResult's first content item.
export const resultText = (result) => result?.content?.find((c) => c.type === 'text')?.text ?? '';

// Calls a tool; `onprogress` makes the SDK send a progressToken.
export function callTool(mcp, name, args, { onprogress, timeout = 60_000 } = {}) {
  return mcp.client.callTool({ name, arguments: args }, undefined, { onprogress, timeout, resetTimeoutOnProgress: true });
}

// The listed MCP name of a plugin tool: `<plugin>_<tool>` (canonical) or `<plugin>__<tool>`.
export async function pluginToolName(mcp, plugin, tool) {
  const { tools } = await mcp.client.listTools();
  const names = new Set(tools.map((t) => t.name));
  const name = [`${plugin}_${tool}`, `${plugin}__${tool}`].find((n) => names.has(n));
  if (!name) throw new Error(`tool ${plugin}/${tool} is not listed; tools/list has ${[...names].slice(0, 20).join(', ')}`);
  return name;
}

// Extension storage as the side panel sees it, read through the service worker.
export async function extensionSession(browser, keys) {
  return browser.worker().evaluate((k) => chrome.storage.session.get(k), keys);
}

// Waits until the extension is connected and reports `plugin` ready in at least `minTabs` tabs.
export async function waitForPluginReady(browser, plugin, minTabs = 1) {
  return waitFor(async () => {
    const s = await extensionSession(browser, ['connection', 'tabStates']);
    const state = s.tabStates?.[plugin];
    return s.connection?.state === 'connected' && state?.state === 'ready' &&
      state.tabs.filter((t) => t.ready).length >= minTabs && state;
  }, `${plugin} ready in ${minTabs} tab(s)`, 20_000);
}

// The stack many suites start from: a server whose config.json grants `permissions` (it must
// let browser tools run), our extension in Playwright's Chromium, and an MCP client, returned
// once a browser tool answers.  close() takes it down in reverse order.
export async function startExtensionStack({ prefix, permissions, env = {} }) {
  const configDir = tempDir(prefix);
  writeConfig(configDir, { permissions });
  const stack = { configDir };
  stack.close = async () => {
    await stack.mcp?.close().catch(() => {});
    await stack.browser?.close().catch(() => {});
    await stack.server?.stop();
    fs.rmSync(configDir, { recursive: true, force: true });
  };
  stack.server = await startServer(configDir, { env });
  ensureServerPortFile(configDir, stack.server.port);
  stack.browser = await launchWithPlaywright(extensionDir(configDir));
  stack.mcp = await connectMcp(stack.server.port, readSecret(configDir));
  await waitFor(async () => !(await callTool(stack.mcp, 'browser_list_tabs', {})).isError, 'the extension to connect', 20_000);
  return stack;
}
