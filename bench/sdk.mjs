// The benchmark's second harness (issue 18): the official MCP SDK client, the way MCP hosts
// drive the server, instead of bench.mjs's raw keep-alive sockets.  Streamable HTTP on /mcp
// (initialize, notifications/initialized, the standalone GET stream, session headers, an SSE
// response per tools/call), or the same client over stdio through the bridge
// (`opentabs start --stdio`).  Calls go to one real plugin (test/fixtures/plugins/notes, tool
// `echo`), relayed to the fake extension (bench/extension.mjs) and back.  CPU is read from
// /proc/<pid>/stat (utime + stime of all threads), as the issue asks.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const SDK = resolve(HERE, '../test/node_modules/@modelcontextprotocol/sdk/dist/esm');
const { Client } = await import(pathToFileURL(join(SDK, 'client/index.js')).href);
const { StreamableHTTPClientTransport } = await import(pathToFileURL(join(SDK, 'client/streamableHttp.js')).href);
const { StdioClientTransport } = await import(pathToFileURL(join(SDK, 'client/stdio.js')).href);

// The 2.x client (@modelcontextprotocol/client), for the MCP 2026-07-28 rows: no session,
// every call its own POST with per-request _meta and the Mcp-Method/Mcp-Name headers.
const CLIENT2 = resolve(HERE, '../test/node_modules/@modelcontextprotocol/client/dist');
const client2 = await import(pathToFileURL(join(CLIENT2, 'index.mjs')).href);

/** The real plugin every SDK-harness call goes to. */
export const NOTES_DIR = resolve(HERE, '../test/fixtures/plugins/notes');
export const NOTES_PLUGIN = 'fixture-notes';
const TOOL = `${NOTES_PLUGIN}_echo`;

const CLK_TCK = 100; // USER_HZ on Linux
/** utime + stime of the whole process (all threads), in µs, from /proc/<pid>/stat. */
export function statCpuMicros(pid) {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // After the command: state is field 3, utime field 14, stime field 15 (1-based).
  return ((Number(f[11]) + Number(f[12])) * 1e6) / CLK_TCK;
}

/** An SDK client on the server's /mcp over Streamable HTTP. */
export async function connectHttp(s) {
  const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${s.port}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${s.secret}` } },
  });
  const client = new Client({ name: 'opentabs-bench', version: '1.0.0' });
  await client.connect(transport);
  return { client, bridgePid: null, close: () => client.close() };
}

/** The 2.x SDK client on /mcp pinned to MCP 2026-07-28 (the revision Claude Code tries first). */
export async function connectHttp2026(s) {
  const transport = new client2.StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${s.port}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${s.secret}` } },
  });
  const client = new client2.Client({ name: 'opentabs-bench-2026', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(transport);
  if (client.getProtocolEra() !== 'modern') throw new Error('the 2.x client did not settle on 2026-07-28');
  return { client, bridgePid: null, close: () => client.close() };
}

/** An SDK client that spawns the stdio bridge in front of the running server, as hosts do. */
export async function connectStdio(s, bin, wrap = []) {
  // `wrap`: a command the bridge runs under (valgrind for the instruction count).
  const transport = new StdioClientTransport({
    command: wrap.length ? wrap[0] : bin,
    args: [...wrap.slice(1), ...(wrap.length ? [bin] : []), 'start', '--stdio', '--port', String(s.port)],
    env: { HOME: process.env.HOME, PATH: process.env.PATH, OPENTABS_CONFIG_DIR: s.configDir, OPENTABS_SKIP_NPM_DISCOVERY: '1', NO_COLOR: '1' },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'opentabs-bench-stdio', version: '1.0.0' });
  await client.connect(transport);
  return { client, bridgePid: transport.pid, close: () => client.close() };
}

/**
 * `concurrency` calls in flight on one SDK client (one session, as one host running tool
 * calls in parallel) until `calls` are done.  Returns calls/s, latency percentiles and CPU
 * per call of the server, the bridge (if any), the extension and this process.
 */
export async function sdkLoad(conn, s, ext, { concurrency, calls }) {
  const { client, bridgePid } = conn;
  const args = { message: 'hello from the bench', repeat: 1 };
  const lat = new Float64Array(calls);
  let issued = 0;
  let errors = 0;
  const server0 = statCpuMicros(s.pid);
  const bridge0 = bridgePid ? statCpuMicros(bridgePid) : 0;
  const ext0 = statCpuMicros(ext.pid);
  const self0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (issued < calls) {
        const n = issued++;
        const start = performance.now();
        try {
          const r = await client.callTool({ name: TOOL, arguments: args });
          if (r.isError) errors++;
        } catch {
          errors++;
        }
        lat[n] = performance.now() - start;
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const self = process.cpuUsage(self0);
  const sorted = Array.from(lat).sort((a, b) => a - b);
  const pct = (p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
  return {
    calls,
    errors,
    perSecond: calls / seconds,
    serverCpuPerCall: (statCpuMicros(s.pid) - server0) / calls,
    bridgeCpuPerCall: bridgePid ? (statCpuMicros(bridgePid) - bridge0) / calls : 0,
    extCpuPerCall: (statCpuMicros(ext.pid) - ext0) / calls,
    genCpuPerCall: (self.user + self.system) / calls,
    p50: pct(50),
    p99: pct(99),
  };
}

/** Checks the tool answers as the fake extension says, so the runs measure real calls. */
export async function checkCall(conn) {
  const r = await conn.client.callTool({ name: TOOL, arguments: { message: 'check' } });
  if (r.isError) throw new Error(`bench call failed: ${JSON.stringify(r.content)}`);
  return r;
}

