// What the release tests share: where the release's files are (OPENTABS_DIST, default
// <repo>/dist, made by scripts/release.sh), finding one by its name, and the MCP checks
// every artifact must pass once it is where a user would run it: a server that answers
// /health and tools/list, and a stdio bridge session through the official SDK client.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export const REPO = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
export const DIST = process.env.OPENTABS_DIST ?? join(REPO, 'dist');
export const VERSION = /project\(opentabs VERSION ([0-9.]+)/.exec(readFileSync(join(REPO, 'CMakeLists.txt'), 'utf8'))[1];

/** The one file in dist/ whose name matches `pattern` (its path), or an error naming what is there. */
export function artifact(pattern) {
  const names = readdirSync(DIST).filter((n) => pattern.test(n));
  if (names.length !== 1) throw new Error(`expected one file matching ${pattern} in ${DIST}, found: ${names.join(', ') || 'none'}`);
  return join(DIST, names[0]);
}

/** Polls GET /health until it answers with opentabs' version header. */
export async function waitForHealth(port, { attempts = 600, what = 'the server' } = {}) {
  let last = '';
  for (let i = 0; i < attempts; i++) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/health`);
      if (r.headers.get('x-opentabs-version')) return { status: r.status, version: r.headers.get('x-opentabs-version'), body: await r.json() };
      last = `HTTP ${r.status} without x-opentabs-version`;
    } catch (e) {
      last = e.cause?.code ?? e.message;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not answer /health on port ${port} (last: ${last})`);
}

/** tools/list over /mcp with the bearer secret, through the SDK's HTTP client. */
export async function listToolsOverHttp(port, secret) {
  const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${secret}` } },
  });
  const client = new Client({ name: 'release-test', version: VERSION });
  await client.connect(transport);
  try {
    return (await client.listTools()).tools;
  } finally {
    await client.close();
  }
}

/** A stdio session the way an MCP client config runs one: `command args...`, then tools/list. */
export async function listToolsOverStdio(command, args, env) {
  const transport = new StdioClientTransport({ command, args, env, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d) => (stderr += d));
  const client = new Client({ name: 'release-test', version: VERSION });
  try {
    await client.connect(transport);
    const server = client.getServerVersion();
    const { tools } = await client.listTools();
    return { server, tools };
  } catch (e) {
    throw new Error(`${command} ${args.join(' ')}: ${e.message}\n${stderr}`);
  } finally {
    await client.close();
  }
}

/** Runs a command to its exit without blocking this process (whose servers it may talk to). */
export function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', (e) => resolve({ status: -1, stdout, stderr: stderr + e.message }));
    child.on('exit', (status) => resolve({ status, stdout, stderr }));
  });
}
