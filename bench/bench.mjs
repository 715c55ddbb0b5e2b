// The opentabs benchmark (issue 9): drives the real server binary as the Chrome extension
// (bench/extension.mjs, its own process, answering every dispatch at once) and as MCP/REST
// clients (this process: raw keep-alive HTTP/1.1 sockets, no fetch, so the generator costs
// little), and prints one table: start-to-/health time, idle RSS, RSS with 120 plugins × 30
// tools, tools/list at that size, sequential tools/call latency, throughput at 1/16/64
// concurrent calls over /mcp and REST, server CPU per call, and memory over 100,000 calls.
// The generator's own cost is measured in the same run: its CPU per call (this process and
// the extension process) and a floor against a null HTTP target (bench/null_target.mjs).
//
// The same run then drives a second server with the official MCP SDK client (bench/sdk.mjs):
// on /mcp and through the stdio bridge, sequential and 16 in flight (issue 18's targets).
//
// Usage: node bench/bench.mjs [--bin build/opentabs] [--out bench/results/latest.md] [--quick] [--profile]
//                             [--only raw|sdk|start|list|bridge|instructions|rebuild]  (start: only the start-up and RSS rows;
//                             list: only the tools/list row, one 120 × 30 start; bridge: only
//                             the SDK harness's stdio-bridge rows)
//                             [--attach 'CMD {pid}']  (run CMD where --profile would record)
//                             [--ext-connections N]  (default 1, like one Chrome profile; more
//                             connections multiply the tool.invocationStart/End broadcasts)
//                             [--no-2026]  (skip the MCP 2026-07-28 rows: for binaries older than that revision)
//                             [--callgrind-out FILE]  (keep the instruction row's callgrind dump
//                             there, for callgrind_annotate)
import { execFileSync, fork, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { writeBenchPlugins, writePlugin } from './plugins.mjs';
import { NOTES_DIR, NOTES_PLUGIN, checkCall, connectHttp, connectHttp2026, connectStdio, sdkLoad, statCpuMicros } from './sdk.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..');
const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const BIN = resolve(opt('--bin', join(ROOT, 'build/opentabs')));
const OUT = resolve(opt('--out', join(ROOT, 'bench/results/latest.md')));
const QUICK = args.includes('--quick');
// --profile: perf-record the server during the 64-concurrent runs; reports land next to OUT.
// --attach 'CMD {pid}': instead of perf record, runs CMD (with {pid} replaced) over the same
// stretches and stops it with SIGINT, e.g. --attach 'strace -c -f -o /tmp/s.txt -p {pid}'.
const ATTACH = opt('--attach', '');
const PROFILE = args.includes('--profile') || ATTACH !== '';
const PLUGINS = 120;
const TOOLS = 30;
const REST_CALLS = 25;
const EXT_CONNECTIONS = Number(opt('--ext-connections', '1'));
const MEMORY_CALLS = QUICK ? 20_000 : 100_000;
// --only raw|sdk: one harness (the table then lacks the other's rows); --only start: only the
// start-up and RSS rows above both harnesses; --only list / --only bridge: only the tools/list
// row / the stdio-bridge rows (for quick before/after measurements of one of them); --only eras:
// the SDK rows on /mcp in both revisions (2025-11-25 session, 2026-07-28 stateless) alone.
const ONLY = opt('--only', '');
const CALLGRIND_OUT = opt('--callgrind-out', '');
// --no-2026: a binary from before MCP 2026-07-28 never answers the 2.x client's pinned
// handshake, so comparing instruction rows with such a baseline skips those rows.
const WITH_2026 = !args.includes('--no-2026');

const log = (...a) => console.error('[bench]', ...a);
let section = 'server'; // the harness the next table rows belong to
const tmp = mkdtempSync(join(os.tmpdir(), 'opentabs-bench-'));

// ---------------------------------------------------------------- process measurements

function rssKiB(pid) {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
}
/** CPU time of every thread of `pid`, in µs (schedstat: ns on CPU). */
function cpuMicros(pid) {
  let ns = 0;
  for (const t of readdirSync(`/proc/${pid}/task`)) ns += Number(readFileSync(`/proc/${pid}/task/${t}/schedstat`, 'utf8').split(' ')[0]);
  return ns / 1000;
}
function selfCpuMicros() {
  const u = process.cpuUsage();
  return u.user + u.system;
}
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const median = (xs) => pct([...xs].sort((a, b) => a - b), 50);
const fmtMs = (ms) => (ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(ms < 10 ? 2 : 1)} ms`);
const fmtMiB = (kib) => `${(kib / 1024).toFixed(1)} MiB`;

async function freePort() {
  const srv = net.createServer();
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address();
  await new Promise((r) => srv.close(r));
  return port;
}

// ---------------------------------------------------------------- raw HTTP client

/** One keep-alive connection; request() resolves with {status, body} when the response is complete. */
class RawConnection {
  constructor(port) {
    this.port = port;
    this.buf = Buffer.alloc(0);
    this.waiting = null;
  }
  open() {
    return new Promise((res, rej) => {
      this.sock = net.connect(this.port, '127.0.0.1', res);
      this.sock.setNoDelay(true);
      this.sock.once('error', rej);
      this.sock.on('data', (d) => {
        this.buf = this.buf.length ? Buffer.concat([this.buf, d]) : d;
        this.#tryComplete();
      });
    });
  }
  request(bytes) {
    return new Promise((res, rej) => {
      this.waiting = { res, rej };
      this.sock.write(bytes);
    });
  }
  #tryComplete() {
    if (!this.waiting) return;
    const headEnd = this.buf.indexOf('\r\n\r\n');
    if (headEnd < 0) return;
    const head = this.buf.toString('latin1', 0, headEnd);
    let end;
    const cl = /\r\ncontent-length: *(\d+)/i.exec(head);
    if (cl) {
      end = headEnd + 4 + Number(cl[1]);
      if (this.buf.length < end) return;
    } else if (/\r\ntransfer-encoding: *chunked/i.test(head)) {
      const term = this.buf.indexOf('\r\n0\r\n\r\n', headEnd);
      if (term < 0) return;
      end = term + 7;
    } else {
      return;
    }
    const status = Number(head.slice(9, 12));
    const body = this.buf.subarray(headEnd + 4, end);
    this.buf = this.buf.subarray(end);
    const w = this.waiting;
    this.waiting = null;
    w.res({ status, body, head });
  }
  close() {
    this.sock.destroy();
  }
}

// ---------------------------------------------------------------- the server under test

async function startServer({ configDir, env = {}, wrap = [] }) {
  const port = await freePort();
  const t0 = performance.now();
  // `wrap`: a command the server runs under (valgrind for the instruction count).
  const child = spawn(wrap.length ? wrap[0] : BIN, [...wrap.slice(1), ...(wrap.length ? [BIN] : []), 'start'], {
    env: {
      ...process.env,
      OPENTABS_CONFIG_DIR: configDir,
      PORT: String(port),
      OPENTABS_PORT: String(port),
      OPENTABS_SKIP_NPM_DISCOVERY: '1',
      OPENTABS_TELEMETRY_DISABLED: '1',
      OPENTABS_MCP_MAX_NEW_SESSIONS_PER_MINUTE: '10000',
      // A reply the server drops (over its per-connection inbound limit) then fails its call
      // after 5 s, counted as an error, instead of stalling the run for 30 s.
      OPENTABS_DISPATCH_TIMEOUT_MS: '5000',
      NO_COLOR: '1',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  const exited = new Promise((r) => child.on('exit', r));
  // Poll /health on fresh sockets as fast as the loop turns, from the spawn on.
  const request = 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
  for (;;) {
    const c = new RawConnection(port);
    try {
      await c.open();
      const r = await c.request(request);
      c.close();
      if (r.status === 200) break;
    } catch {
      c.close();
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
      await new Promise((r) => setImmediate(r));
    }
  }
  const healthMs = performance.now() - t0;
  const secret = JSON.parse(readFileSync(join(configDir, 'extension', 'auth.json'), 'utf8')).secret;
  return {
    child,
    pid: child.pid,
    port,
    secret,
    configDir,
    healthMs,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

function restRequest(s, plugin, tool, args) {
  const body = JSON.stringify({ arguments: args });
  return Buffer.from(
    `POST /tools/${plugin}_${tool}/call HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${s.secret}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

async function mcpSession(s, conn) {
  const post = (body, sid) => {
    const text = JSON.stringify(body);
    return conn.request(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${s.secret}\r\nContent-Type: application/json\r\n` +
        `Accept: application/json, text/event-stream\r\n${sid ? `Mcp-Session-Id: ${sid}\r\nMCP-Protocol-Version: 2025-11-25\r\n` : ''}` +
        `Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
    );
  };
  const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '0' } } });
  const sid = /\r\nmcp-session-id: *([^\r]+)/i.exec(init.head)[1];
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, sid);
  return sid;
}

function mcpRequest(s, sid, id, method, params, extraHeaders = '') {
  const body = JSON.stringify({ jsonrpc: '2.0', id, method, params });
  return Buffer.from(
    `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${s.secret}\r\nContent-Type: application/json\r\n${extraHeaders}` +
      `Accept: application/json, text/event-stream\r\nMcp-Session-Id: ${sid}\r\nMCP-Protocol-Version: 2025-11-25\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

// ---------------------------------------------------------------- load runs

/**
 * `concurrency` connections, each sending its next request when the last one completed,
 * until `calls` calls are done.  Requests are pre-built (one per plugin/tool pair) so the
 * generator does no JSON work per call.  Returns throughput, latency percentiles, and CPU
 * per call of the server, of this process and of the extension process.
 */
async function runLoad(s, ext, { transport, concurrency, calls, names }) {
  const conns = [];
  for (let i = 0; i < concurrency; i++) {
    const c = new RawConnection(s.port);
    await c.open();
    const sid = transport === 'mcp' ? await mcpSession(s, c) : null;
    // 25 concurrent dispatches per plugin at most (tool_pipeline.cpp): each connection keeps
    // to its own plugins, so no call is refused for that.
    const mine = names.filter((_, j) => j % concurrency === i % names.length || concurrency === 1);
    const pool = (mine.length ? mine : names).map(([p, t]) =>
      transport === 'mcp' ? mcpRequest(s, sid, 2, 'tools/call', { name: `${p}_${t}`, arguments: { query: 'hello', limit: 5 } }) : restRequest(s, p, t, { query: 'hello', limit: 5 }),
    );
    conns.push({ c, pool });
  }
  const lat = new Float64Array(calls);
  let issued = 0;
  let errors = 0;
  const serverCpu0 = cpuMicros(s.pid);
  const extCpu0 = cpuMicros(ext.pid);
  const selfCpu0 = selfCpuMicros();
  const t0 = performance.now();
  await Promise.all(
    conns.map(async ({ c, pool }) => {
      let k = 0;
      while (issued < calls) {
        const n = issued++;
        const start = performance.now();
        const r = await c.request(pool[k++ % pool.length]);
        lat[n] = performance.now() - start;
        if (r.status !== 200 || r.body.includes('"isError":true')) errors++;
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const result = {
    calls,
    errors,
    perSecond: calls / seconds,
    serverCpuPerCall: (cpuMicros(s.pid) - serverCpu0) / calls,
    genCpuPerCall: (selfCpuMicros() - selfCpu0) / calls,
    extCpuPerCall: (cpuMicros(ext.pid) - extCpu0) / calls,
  };
  const sorted = Array.from(lat).sort((a, b) => a - b);
  result.p50 = pct(sorted, 50);
  result.p99 = pct(sorted, 99);
  result.max = sorted[sorted.length - 1];
  for (const { c } of conns) c.close();
  if (errors) log(`${transport} c=${concurrency}: ${errors} failed calls`);
  return result;
}

/** The generator against a null HTTP target: the most it can drive, and its latency floor. */
async function nullFloor(concurrency, calls) {
  const child = fork(join(HERE, 'null_target.mjs'), [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const port = await new Promise((r) => child.once('message', (m) => r(m.port)));
  const fake = { port, pid: child.pid, secret: 'x' };
  const r = await runLoad(fake, { pid: child.pid }, { transport: 'rest', concurrency, calls, names: [['null', 'call']] });
  child.kill();
  return r;
}

/** perf record on the server (call graphs), stopped by finishPerf which writes a flat report. */
function startPerf(pid) {
  if (ATTACH) return { child: spawn('sh', ['-c', `exec ${ATTACH.replaceAll('{pid}', String(pid))}`], { stdio: 'inherit' }), data: null };
  const data = join(dirname(OUT), `perf-${Date.now()}.data`);
  mkdirSync(dirname(OUT), { recursive: true });
  const child = spawn('perf', ['record', '-F', '999', '--call-graph', 'dwarf,16384', '-p', String(pid), '-o', data], { stdio: 'ignore' });
  return { child, data };
}
async function finishPerf({ child, data }, out) {
  child.kill('SIGINT');
  await new Promise((r) => child.on('exit', r));
  if (!data) return;
  const flat = execFileSync('perf', ['report', '-i', data, '--stdio', '--no-children', '--percent-limit', '0.7', '-g', 'none', '--sort', 'dso,symbol'], { maxBuffer: 64 << 20 }).toString();
  const tree = execFileSync('perf', ['report', '-i', data, '--stdio', '--children', '--percent-limit', '3', '-g', 'none', '--sort', 'symbol'], { maxBuffer: 64 << 20 }).toString();
  mkdirSync(dirname(out), { recursive: true });
  const tidy = (text) => text.split('\n').map((l) => l.replace(/ +- +- +$/, '').trimEnd()).join('\n');
  writeFileSync(out, `# self time (perf data: ${data})\n${tidy(flat)}\n\n# including callees\n${tidy(tree)}`);
  log(`profile written to ${out}`);
}

// ---------------------------------------------------------------- the run

function machine() {
  const cpu = os.cpus();
  let kernel = os.release();
  let compiler = '';
  try {
    compiler = execFileSync('g++', ['--version']).toString().split('\n')[0];
  } catch {}
  return {
    cpu: `${cpu[0].model} × ${cpu.length} (${os.availableParallelism()} usable)`,
    memory: `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    os: `${os.type()} ${kernel}`,
    node: process.version,
    compiler,
  };
}

async function main() {
  const rows = [];
  // met: whether the figure is within its target (undefined: no target).
  const row = (what, value, target = '', note = '', met = undefined) => {
    rows.push({ what, value, target, note, met, harness: section });
    log(`${what}: ${value}${note ? ` (${note})` : ''}`);
  };
  const m = machine();
  log('machine', JSON.stringify(m), 'load', os.loadavg().map((x) => x.toFixed(2)).join(' '));
  const loadBefore = os.loadavg();

  // Start → /health with a new config folder (the extension is installed first) and warm
  // (a second start on the same folder), median of 10 each.
  if (ONLY === 'list' || ONLY === 'bridge' || ONLY === 'instructions' || ONLY === 'eras' || ONLY === 'rebuild') {
    await narrowRun(row);
    return writeTable(rows, m, loadBefore);
  }
  const cold = [];
  const warm = [];
  for (let i = 0; i < 10; i++) {
    const dir = join(tmp, `start-${i}`);
    const a = await startServer({ configDir: dir });
    cold.push(a.healthMs);
    await a.stop();
    const b = await startServer({ configDir: dir });
    warm.push(b.healthMs);
    await b.stop();
  }
  const spawnFloor = [];
  for (let i = 0; i < 10; i++) {
    const t0 = performance.now();
    await new Promise((r) => spawn('/bin/true').on('exit', r));
    spawnFloor.push(performance.now() - t0);
  }
  row('start → first `/health` answer, new config folder (median of 10)', fmtMs(median(cold)), '≤ 20 ms', `second start on the same folder ${fmtMs(median(warm))}; spawn+exit of /bin/true from this generator ${fmtMs(median(spawnFloor))}`, median(cold) <= 20);

  // Idle RSS (no plugins), after a moment to settle.
  const idleDir = join(tmp, 'idle');
  const idle = await startServer({ configDir: idleDir });
  await new Promise((r) => setTimeout(r, 300));
  const idleRss = rssKiB(idle.pid);
  row('idle RSS (no plugins)', fmtMiB(idleRss), '≤ 8 MiB', '', idleRss <= 8 * 1024);
  await idle.stop();

  // 120 plugins × 30 tools.
  const pluginRoot = join(tmp, 'plugins');
  mkdirSync(pluginRoot);
  const gen = writeBenchPlugins(pluginRoot, PLUGINS, TOOLS);
  const names = [];
  for (let t = 0; t < TOOLS; t++) for (const p of gen.names) names.push([p, `tool_${String(t).padStart(2, '0')}`]);
  // Five starts, each on a new config folder holding only that config.json; the last
  // server stays up for the raw harness.
  const bigConfig = JSON.stringify({ version: 3, ...gen.config }, null, 2);
  const bigStarts = [];
  let s;
  for (let i = 0; i < 5; i++) {
    const dir = join(tmp, `big-${i}`);
    mkdirSync(dir);
    writeFileSync(join(dir, 'config.json'), bigConfig);
    const b = await startServer({ configDir: dir });
    bigStarts.push(b.healthMs);
    if (i < 4) await b.stop();
    else s = b;
  }
  row(`start → first \`/health\` answer with ${PLUGINS} plugins × ${TOOLS} tools, new config folder (median of 5)`, fmtMs(median(bigStarts)), '≤ 150 ms', '', median(bigStarts) <= 150);
  await new Promise((r) => setTimeout(r, 300));
  const loadedRss = rssKiB(s.pid);
  row(`RSS with ${PLUGINS} plugins × ${TOOLS} tools loaded`, fmtMiB(loadedRss));

  if (ONLY !== 'sdk' && ONLY !== 'start') await rawHarness(s, gen, names, row);
  await s.stop();
  if (ONLY !== 'sdk' && ONLY !== 'start') await rebuildRows(row);
  if (ONLY !== 'raw' && ONLY !== 'start') await sdkHarness(row);
  writeTable(rows, m, loadBefore);
}

/**
 * A plugin author's rebuilt adapter, its embedded __adapterHash unchanged (issue 41): from the
 * renamed file to the extension's plugin.update, in dev mode, at the watcher's default poll
 * interval and at 100 ms.  The e2e test plugin_rebuild shows the tab then runs the new code.
 */
async function rebuildRows(row) {
  section = 'server';
  const WebSocket = createRequire(new URL('../test/package.json', import.meta.url))('ws');
  for (const poll of [0, 100]) {
    const dir = join(tmp, `rebuild-${poll}`);
    const pluginDir = join(dir, 'devplug');
    mkdirSync(dir);
    writePlugin(pluginDir, { name: 'devplug', tools: [{ name: 'first', input_schema: { type: 'object', properties: {} } }] });
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ version: 3, localPlugins: [pluginDir], additionalAllowedDirectories: [dir] }));
    const s = await startServer({ configDir: dir, env: { OPENTABS_DEV: '1', ...(poll ? { OPENTABS_MTIME_POLL_MS: String(poll) } : {}) } });
    const ws = new WebSocket(`ws://127.0.0.1:${s.port}/ws`, ['opentabs', s.secret, 'bench-rebuild'], { perMessageDeflate: false });
    let arrived = null;
    ws.on('message', (data) => {
      if (arrived && data.toString().includes('"method":"plugin.update"')) arrived(performance.now());
    });
    await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject); });
    const iife = join(pluginDir, 'dist', 'adapter.iife.js');
    const built = readFileSync(iife, 'utf8');
    const times = [];
    for (let i = 0; i < (QUICK ? 3 : 10); i++) {
      const update = new Promise((resolve, reject) => {
        arrived = resolve;
        setTimeout(() => reject(new Error('no plugin.update within 30 s of a rebuilt adapter')), 30_000).unref();
      });
      const t0 = performance.now();
      writeFileSync(`${iife}.tmp`, `${built}/* rebuild ${i} */\n`);
      renameSync(`${iife}.tmp`, iife);
      times.push((await update) - t0);
      arrived = null;
    }
    ws.close();
    await s.stop();
    row(`rebuilt adapter (same \`__adapterHash\`) → \`plugin.update\` at the extension, --dev, ${poll ? `poll ${poll} ms` : 'default poll (250 ms in --dev)'} (median of ${times.length})`,
      fmtMs(median(times)), '', `max ${fmtMs(Math.max(...times))}; each write follows the previous update, so it waits about one poll interval (a write at a random moment: half), plus the reload`);
  }
}

/** --only list / bridge / instructions / rebuild: one row group, without the start-up rows. */
async function narrowRun(row) {
  if (ONLY === 'bridge' || ONLY === 'eras') return sdkHarness(row);
  if (ONLY === 'rebuild') return rebuildRows(row);
  if (ONLY === 'instructions') {
    section = 'SDK';
    return instructionsRow(row);
  }
  section = 'raw';
  const pluginRoot = join(tmp, 'plugins');
  mkdirSync(pluginRoot);
  const gen = writeBenchPlugins(pluginRoot, PLUGINS, TOOLS);
  const dir = join(tmp, 'big');
  mkdirSync(dir);
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ version: 3, ...gen.config }, null, 2));
  const s = await startServer({ configDir: dir });
  const ext = fork(join(HERE, 'extension.mjs'), [String(s.port), s.secret, String(EXT_CONNECTIONS), JSON.stringify(gen.names)], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  await new Promise((r) => ext.once('message', r));
  await new Promise((r) => setTimeout(r, 200)); // let the tab.syncAll messages land
  await toolsListRow(s, row, 200);
  ext.send('exit');
  await s.stop();
}

function writeTable(rows, m, loadBefore) {
  const loadAfter = os.loadavg();
  const lines = [];
  lines.push(`# opentabs benchmark`, '');
  lines.push(`Run ${new Date().toISOString()} by bench/bench.mjs (what \`bench/run.sh\` runs) on: ${m.cpu}, ${m.memory} RAM, ${m.os}; server built with ${m.compiler} (RelWithDebInfo); load generator Node ${m.node} on the same machine.`, '');
  lines.push(`Load average (1/5/15 min) before the run ${loadBefore.map((x) => x.toFixed(2)).join(' / ')}, after ${loadAfter.map((x) => x.toFixed(2)).join(' / ')}.`, '');
  lines.push(
    `Harnesses: **raw** — ${PLUGINS} generated plugins × ${TOOLS} tools (bench/plugins.mjs), calls over raw keep-alive HTTP/1.1 sockets; ` +
      `**SDK** — the official MCP SDK client (bench/sdk.mjs) on /mcp (Streamable HTTP) or through the stdio bridge, one real plugin (test/fixtures/plugins/notes, tool \`echo\`). ` +
      `In both the extension is played by bench/extension.mjs (${EXT_CONNECTIONS} WebSocket connection${EXT_CONNECTIONS === 1 ? '' : 's'}, answering dispatches at once).`,
    '',
  );
  lines.push('| harness | measure | result | target | met | notes |', '| --- | --- | --- | --- | --- | --- |');
  for (const r of rows) lines.push(`| ${r.harness} | ${r.what} | ${r.value} | ${r.target} | ${r.met === undefined ? '' : r.met ? 'yes' : '**no**'} | ${r.note} |`);
  lines.push('');
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, lines.join('\n'));
  console.log(lines.join('\n'));
  log(`written to ${OUT}`);
}

/**
 * tools/list at 3,600 plugin tools (+ browser and platform tools): server CPU per request
 * over `N`, uncompressed (a client that sends no Accept-Encoding) and gzip (what Node fetch,
 * so the SDK client, and Python httpx ask for by default).
 */
async function toolsListRow(s, row, N) {
  const c = new RawConnection(s.port);
  await c.open();
  const sid = await mcpSession(s, c);
  for (const gzip of [false, true]) {
    const req = mcpRequest(s, sid, 3, 'tools/list', {}, gzip ? 'Accept-Encoding: gzip, deflate\r\n' : '');
    let size = 0;
    let wire = 0;
    let count = 0;
    for (let i = 0; i < 5; i++) {
      const r = await c.request(req);
      const encoded = /\r\ncontent-encoding: *gzip/i.test(r.head);
      if (encoded !== gzip) throw new Error(`tools/list answered ${encoded ? 'gzip' : 'uncompressed'} to ${gzip ? 'a gzip' : 'an identity'} request`);
      const body = encoded ? gunzipSync(r.body) : r.body;
      wire = r.body.length;
      size = body.length;
      if (i === 0) count = JSON.parse(body.toString()).result.tools.length;
    }
    const times = [];
    const cpu0 = cpuMicros(s.pid);
    for (let i = 0; i < N; i++) {
      const t0 = performance.now();
      await c.request(req);
      times.push(performance.now() - t0);
    }
    const cpu = (cpuMicros(s.pid) - cpu0) / N;
    if (PROFILE) {
      const perf = startPerf(s.pid);
      await new Promise((r) => setTimeout(r, 300)); // perf attaches
      for (let i = 0; i < 300; i++) await c.request(req);
      await finishPerf(perf, join(dirname(OUT), `profile-tools-list${gzip ? '-gzip' : ''}.txt`));
    }
    row(
      `\`tools/list\` of ${count} tools (${(size / 2 ** 20).toFixed(2)} MiB), server CPU per request${gzip ? ', client accepts gzip' : ''}`,
      fmtMs(cpu / 1000),
      '≤ 1 ms',
      `${gzip ? `${(wire / 1024).toFixed(0)} KiB gzip on the wire (Accept-Encoding: gzip, deflate, as Node fetch and httpx send); ` : 'no Accept-Encoding; '}client-observed time to last byte, median ${fmtMs(median(times))}`,
      cpu <= 1000,
    );
  }
  c.close();
}

async function rawHarness(s, gen, names, row) {
  section = 'raw';
  const ext = fork(join(HERE, 'extension.mjs'), [String(s.port), s.secret, String(EXT_CONNECTIONS), JSON.stringify(gen.names)], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  await new Promise((r) => ext.once('message', r));
  await new Promise((r) => setTimeout(r, 200)); // let the tab.syncAll messages land

  await toolsListRow(s, row, 50);

  // Sequential latency.  REST tool calls are limited to 30 a minute for all callers together
  // (spec: POST /tools/<name>/call "bearer, 30/min"; server/app/routes.hpp), so REST gets 25
  // calls and no throughput runs: beyond 30/min it answers 429 by design.
  const seqCalls = QUICK ? 2000 : 5000;
  {
    const r = await runLoad(s, ext, { transport: 'rest', concurrency: 1, calls: REST_CALLS, names });
    row(`\`tools/call\` latency, sequential, REST (p50 / max)`, `${fmtMs(r.p50)} / ${fmtMs(r.max)}`, '', `${REST_CALLS} calls (REST allows 30/min by spec, so no REST throughput runs)${r.errors ? `; ${r.errors} errors` : ''}`);
    await runLoad(s, ext, { transport: 'mcp', concurrency: 1, calls: 500, names }); // warm-up
    const m = await runLoad(s, ext, { transport: 'mcp', concurrency: 1, calls: seqCalls, names });
    row(`\`tools/call\` latency, sequential, /mcp (p50 / p99)`, `${fmtMs(m.p50)} / ${fmtMs(m.p99)}`, '', `${seqCalls} calls, each relayed to the extension and back${m.errors ? `; ${m.errors} errors` : ''}`);
  }

  // Throughput.
  const thr = [];
  for (const concurrency of [1, 16, 64]) {
    for (const transport of ['mcp']) {
      const calls = concurrency === 1 ? seqCalls : QUICK ? 10_000 : 30_000;
      const perf = PROFILE && concurrency === 64 ? startPerf(s.pid) : null;
      if (perf) await new Promise((r) => setTimeout(r, 300)); // perf attaches
      const r = await runLoad(s, ext, { transport, concurrency, calls, names });
      if (perf) await finishPerf(perf, join(dirname(OUT), `profile-${transport}.txt`));
      thr.push({ concurrency, transport, ...r });
      row(
        `throughput, ${concurrency} concurrent, ${transport === 'mcp' ? '/mcp' : 'REST'}`,
        `${Math.round(r.perSecond).toLocaleString('en-US')} calls/s`,
        concurrency === 64 ? '≥ 20,000/s' : '',
        `p50 ${fmtMs(r.p50)}, p99 ${fmtMs(r.p99)}; server CPU ${r.serverCpuPerCall.toFixed(1)} µs/call; generator ${r.genCpuPerCall.toFixed(1)} + extension ${r.extCpuPerCall.toFixed(1)} µs/call${r.errors ? `; ${r.errors} errors` : ''}`,
        concurrency === 64 ? r.perSecond >= 20_000 : undefined,
      );
    }
  }
  const best = thr.find((t) => t.concurrency === 64);
  row('server CPU per relayed call (/mcp, 64 concurrent)', `${best.serverCpuPerCall.toFixed(1)} µs`, '< 30 µs', `issue 9's target; includes the tool.invocationStart/End notices to the ${EXT_CONNECTIONS} extension connection(s)`, best.serverCpuPerCall < 30);

  // Memory over 100,000 calls.
  const before = rssKiB(s.pid);
  const half = await runLoad(s, ext, { transport: 'mcp', concurrency: 64, calls: MEMORY_CALLS / 2, names });
  const mid = rssKiB(s.pid);
  const rest = await runLoad(s, ext, { transport: 'mcp', concurrency: 16, calls: MEMORY_CALLS / 2, names });
  const after = rssKiB(s.pid);
  row(`RSS before → after ${(MEMORY_CALLS / 2).toLocaleString("en-US")} → after ${MEMORY_CALLS.toLocaleString("en-US")} /mcp calls`, `${fmtMiB(before)} → ${fmtMiB(mid)} → ${fmtMiB(after)}`, 'flat', `growth ${((after - before) / 1024).toFixed(1)} MiB (after the runs above); ${half.errors + rest.errors} errors`, after - before < 1024);

  // The generator's own floor.
  const floor = await nullFloor(64, QUICK ? 10_000 : 30_000);
  row('load generator floor: same client, 64 concurrent, null HTTP target', `${Math.round(floor.perSecond).toLocaleString('en-US')} req/s`, '', `generator ${floor.genCpuPerCall.toFixed(1)} µs/request; null target ${floor.extCpuPerCall.toFixed(1)} µs/request; p50 ${fmtMs(floor.p50)}`);

  ext.send('exit');
}

/**
 * The SDK harness: a server with one real plugin, the official SDK client on /mcp and
 * through the stdio bridge, sequential and 16 concurrent.
 */
async function sdkHarness(row) {
  section = 'SDK';
  const dir = join(tmp, 'sdk');
  mkdirSync(dir);
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ version: 3, localPlugins: [NOTES_DIR], additionalAllowedDirectories: [NOTES_DIR], permissions: { [NOTES_PLUGIN]: { permission: 'auto' } } }, null, 2));
  const s = await startServer({ configDir: dir });
  const ext = fork(join(HERE, 'extension.mjs'), [String(s.port), s.secret, '1', JSON.stringify([NOTES_PLUGIN])], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  await new Promise((r) => ext.once('message', r));
  await new Promise((r) => setTimeout(r, 200)); // let tab.syncAll land

  const seqCalls = QUICK ? 2000 : 5000;
  const concCalls = QUICK ? 6000 : 20_000;
  const fmtRun = (r) =>
    `p50 ${fmtMs(r.p50)}, p99 ${fmtMs(r.p99)}; ${Math.round(r.perSecond).toLocaleString('en-US')} calls/s; client ${r.genCpuPerCall.toFixed(0)} + extension ${r.extCpuPerCall.toFixed(1)} µs/call${r.errors ? `; **${r.errors} errors**` : ''}`;
  const direct = {};
  if (ONLY !== 'bridge') {
    const conn = await connectHttp(s);
    await conn.client.listTools(); // as hosts do; caches the tools' output schemas
    await checkCall(conn);
    await sdkLoad(conn, s, ext, { concurrency: 16, calls: 1000 }); // warm-up
    for (const concurrency of [1, 16]) {
      const perf = PROFILE ? startPerf(s.pid) : null;
      if (perf) await new Promise((r) => setTimeout(r, 300));
      const r = await sdkLoad(conn, s, ext, { concurrency, calls: concurrency === 1 ? seqCalls : concCalls });
      if (perf) await finishPerf(perf, join(dirname(OUT), `profile-sdk-http-c${concurrency}.txt`));
      direct[concurrency] = r;
      const target = concurrency === 1 ? 80 : 40;
      row(`server CPU per relayed call, SDK client on /mcp, ${concurrency === 1 ? 'sequential' : `${concurrency} concurrent`}`, `${r.serverCpuPerCall.toFixed(1)} µs`, `≤ ${target} µs`, fmtRun(r), r.serverCpuPerCall <= target);
    }
    await conn.close();
    // The same calls from the 2.x client in MCP 2026-07-28 mode (no session; each request
    // carries its _meta and headers, which the server checks every time): they must cost
    // the server no more than the 2025-11-25 session calls just measured.
    if (WITH_2026) {
      const modern = await connectHttp2026(s);
      await modern.client.listTools();
      await checkCall(modern);
      await sdkLoad(modern, s, ext, { concurrency: 16, calls: 1000 }); // warm-up
      for (const concurrency of [1, 16]) {
        const r = await sdkLoad(modern, s, ext, { concurrency, calls: concurrency === 1 ? seqCalls : concCalls });
        const session = direct[concurrency].serverCpuPerCall;
        row(
          `server CPU per relayed call, SDK 2.x client on /mcp in MCP 2026-07-28 mode, ${concurrency === 1 ? 'sequential' : `${concurrency} concurrent`}`,
          `${r.serverCpuPerCall.toFixed(1)} µs`,
          `≤ ${session.toFixed(1)} µs (the 2025-11-25 session row)`,
          fmtRun(r),
          r.serverCpuPerCall <= session,
        );
      }
      await modern.close();
    }
    if (ONLY === 'eras') {
      ext.send('exit');
      return s.stop();
    }
  }
  {
    const conn = await connectStdio(s, BIN);
    await conn.client.listTools();
    await checkCall(conn);
    await sdkLoad(conn, s, ext, { concurrency: 16, calls: 1000 }); // warm-up
    for (const concurrency of [1, 16]) {
      const perf = PROFILE ? startPerf(conn.bridgePid) : null;
      if (perf) await new Promise((r) => setTimeout(r, 300));
      const r = await sdkLoad(conn, s, ext, { concurrency, calls: concurrency === 1 ? seqCalls : concCalls });
      if (perf) await finishPerf(perf, join(dirname(OUT), `profile-sdk-bridge-c${concurrency}.txt`));
      // The bridge's own process is what it adds: the server answers one POST per call either
      // way (through the bridge it is often cheaper per call, as the bridge's faster stdio
      // client keeps more calls in flight and the server batches their writes).
      row(
        `CPU the stdio bridge adds per call (its own process), ${concurrency === 1 ? 'sequential' : `${concurrency} concurrent`}`,
        `${r.bridgeCpuPerCall.toFixed(1)} µs`,
        '≤ 30 µs',
        `server ${r.serverCpuPerCall.toFixed(1)} µs/call behind the bridge${direct[concurrency] ? ` (direct: ${direct[concurrency].serverCpuPerCall.toFixed(1)} µs)` : ''}; ${fmtRun(r)}`,
        r.bridgeCpuPerCall <= 30,
      );
    }
    await conn.close();
  }
  if (ONLY !== 'bridge' && (!QUICK || args.includes('--memory'))) {
    const conn = await connectHttp(s);
    await checkCall(conn);
    const before = rssKiB(s.pid);
    const a = await sdkLoad(conn, s, ext, { concurrency: 16, calls: MEMORY_CALLS / 2 });
    const mid = rssKiB(s.pid);
    const b = await sdkLoad(conn, s, ext, { concurrency: 16, calls: MEMORY_CALLS / 2 });
    const after = rssKiB(s.pid);
    row(
      `RSS before → after ${(MEMORY_CALLS / 2).toLocaleString('en-US')} → after ${MEMORY_CALLS.toLocaleString('en-US')} SDK calls on /mcp (16 concurrent)`,
      `${fmtMiB(before)} → ${fmtMiB(mid)} → ${fmtMiB(after)}`,
      'flat',
      `growth ${((after - before) / 1024).toFixed(2)} MiB; ${a.errors + b.errors} errors; server CPU ${((a.serverCpuPerCall + b.serverCpuPerCall) / 2).toFixed(1)} µs/call`,
      after - before < 1024,
    );
    await conn.close();
  }
  ext.send('exit');
  await s.stop();
  if (ONLY !== 'bridge') loopbackFloorRow(row);
  if (ONLY !== 'bridge' && hasCommand('valgrind')) await instructionsRow(row);
}

/**
 * What the kernel alone costs per request/answer here (bench/loopback_floor.cpp): the echo
 * side of a loopback TCP ping-pong that blocks in epoll_wait as the server does.  A relayed
 * call is two such round trips for the server, so this is the floor under the CPU rows.
 */
function loopbackFloorRow(row) {
  if (!hasCommand('c++')) return;
  const bin = join(tmp, 'loopback_floor');
  execFileSync('c++', ['-O2', '-o', bin, join(HERE, 'loopback_floor.cpp')]);
  const runs = [1, 2, 3].map(() => JSON.parse(execFileSync(bin, [QUICK ? '5000' : '20000']).toString()));
  runs.sort((a, b) => a.user_us + a.sys_us - (b.user_us + b.sys_us));
  const r = runs[1];
  row(
    'kernel floor: one loopback TCP round trip through epoll, echo side (no server code; bench/loopback_floor.cpp)',
    `${(r.user_us + r.sys_us).toFixed(1)} µs`,
    '',
    `median of 3 runs of ${r.rounds.toLocaleString('en-US')}; user ${r.user_us.toFixed(1)} + sys ${r.sys_us.toFixed(1)} µs; a relayed call is two of these for the server, plus the invocation notice and the audit line`,
  );
}

function hasCommand(name) {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * The one figure here that does not move with the machine's load: user-space instructions
 * the server executes per sequential SDK call, counted by callgrind over 300 calls (kernel
 * time, which is most of a sequential call, is not in it).  Instrumentation is switched on
 * only around the measured calls.
 */
async function instructionsRow(row) {
  const dir = join(tmp, 'sdk-instructions');
  mkdirSync(dir);
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ version: 3, localPlugins: [NOTES_DIR], additionalAllowedDirectories: [NOTES_DIR], permissions: { [NOTES_PLUGIN]: { permission: 'auto' } } }, null, 2));
  const out = join(tmp, 'callgrind.out');
  const s = await startServer({ configDir: dir, wrap: ['valgrind', '--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${out}`], env: { OPENTABS_DISPATCH_TIMEOUT_MS: '30000' } });
  const ext = fork(join(HERE, 'extension.mjs'), [String(s.port), s.secret, '1', JSON.stringify([NOTES_PLUGIN])], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  await new Promise((r) => ext.once('message', r));
  await new Promise((r) => setTimeout(r, 500));
  const conn = await connectHttp(s);
  await conn.client.listTools();
  await checkCall(conn);
  await sdkLoad(conn, s, ext, { concurrency: 1, calls: 50 }); // warm-up
  const calls = 300;
  execFileSync('callgrind_control', ['-i', 'on', String(s.pid)], { stdio: 'ignore' });
  await sdkLoad(conn, s, ext, { concurrency: 1, calls });
  execFileSync('callgrind_control', ['-i', 'off', String(s.pid)], { stdio: 'ignore' });
  execFileSync('callgrind_control', ['-d', String(s.pid)], { stdio: 'ignore' });
  await conn.close();
  const serverTotal = largestCallgrindDump('callgrind.out', CALLGRIND_OUT);
  row('server user-space instructions per relayed call, SDK client on /mcp, sequential (callgrind)', `${Math.round(serverTotal / calls).toLocaleString('en-US')}`, '', `${calls} calls; load-independent, unlike the CPU rows; kernel time is not counted`);

  // The same calls from the 2.x client in MCP 2026-07-28 mode, counted in a dump of their own.
  if (WITH_2026) await modernInstructionsRow(row, s, ext, calls, serverTotal);
  await bridgeInstructionsRow(row, s, ext, calls);
}

async function modernInstructionsRow(row, s, ext, calls, serverTotal) {
  const earlier = new Set(readdirSync(tmp));
  const modern = await connectHttp2026(s);
  await modern.client.listTools();
  await checkCall(modern);
  await sdkLoad(modern, s, ext, { concurrency: 1, calls: 50 }); // warm-up
  execFileSync('callgrind_control', ['-i', 'on', String(s.pid)], { stdio: 'ignore' });
  await sdkLoad(modern, s, ext, { concurrency: 1, calls });
  execFileSync('callgrind_control', ['-i', 'off', String(s.pid)], { stdio: 'ignore' });
  execFileSync('callgrind_control', ['-d', String(s.pid)], { stdio: 'ignore' });
  await modern.close();
  const modernTotal = largestCallgrindDump('callgrind.out', CALLGRIND_OUT ? `${CALLGRIND_OUT}.modern` : '', earlier);
  row(
    'server user-space instructions per relayed call, SDK 2.x client on /mcp in MCP 2026-07-28 mode, sequential (callgrind)',
    `${Math.round(modernTotal / calls).toLocaleString('en-US')}`,
    `≤ ${Math.round(serverTotal / calls).toLocaleString('en-US')} (the 2025-11-25 session row)`,
    `${calls} calls; no session, every request's _meta and headers checked`,
    modernTotal <= serverTotal,
  );
}

/** The same count for the stdio bridge's own process, the server running uninstrumented. */
async function bridgeInstructionsRow(row, s, ext, calls) {
  execFileSync('callgrind_control', ['-i', 'off', String(s.pid)], { stdio: 'ignore' });
  const bridgeOut = join(tmp, 'bridge-callgrind.out');
  const stdio = await connectStdio(s, BIN, ['valgrind', '--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${bridgeOut}`]);
  await stdio.client.listTools();
  await checkCall(stdio);
  await sdkLoad(stdio, s, ext, { concurrency: 1, calls: 50 }); // warm-up
  execFileSync('callgrind_control', ['-i', 'on', String(stdio.bridgePid)], { stdio: 'ignore' });
  await sdkLoad(stdio, s, ext, { concurrency: 1, calls });
  execFileSync('callgrind_control', ['-i', 'off', String(stdio.bridgePid)], { stdio: 'ignore' });
  execFileSync('callgrind_control', ['-d', String(stdio.bridgePid)], { stdio: 'ignore' });
  await stdio.close();
  ext.send('exit');
  await s.stop();
  const bridgeTotal = largestCallgrindDump('bridge-callgrind.out', CALLGRIND_OUT ? `${CALLGRIND_OUT}.bridge` : '');
  row('stdio bridge user-space instructions per relayed call, SDK client, sequential (callgrind)', `${Math.round(bridgeTotal / calls).toLocaleString('en-US')}`, '', `${calls} calls; the bridge's own process`);
}

/** The instruction total of the largest dump whose name starts with `prefix` (the dump on
 * request; the one at exit holds the little after it), copied to `keep` when given; files in
 * `skip` (names) are not considered. */
function largestCallgrindDump(prefix, keep, skip = new Set()) {
  let total = 0;
  let largest = '';
  for (const f of readdirSync(tmp).filter((n) => n.startsWith(prefix) && !skip.has(n)).map((n) => join(tmp, n))) {
    for (const m of readFileSync(f, 'utf8').matchAll(/^(?:summary|totals): (\d+)/gm)) {
      if (Number(m[1]) > total) [total, largest] = [Number(m[1]), f];
    }
  }
  if (keep && largest) copyFileSync(largest, resolve(keep));
  return total;
}

try {
  await main();
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
