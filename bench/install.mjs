// A new user's first minute: seconds from the install command to the first tools/list an
// MCP client gets, for each way to install, on this machine (issue 36):
//   npm          npm install -g @opentabs-cpp/opentabs (the release's tarballs from a local
//                registry, fresh prefix and cache, no compiler on PATH), then the SDK client's
//                stdio session `opentabs start --stdio`, which starts the server itself
//   npx          the MCP client config `npx -y @opentabs-cpp/opentabs start --stdio` alone
//   install.sh   sh install.sh --prefix <fresh> from a local HTTP server, then the same session
//   from source  (--from-source) a fresh clone's scripts/start.sh --no-start, then the session;
//                minutes, so only when asked
// Each row also says when the stdio bridge answered the client's first message (initialize)
// and when tools/list came back.  Needs dist/ (scripts/release.sh).
// Usage: node bench/install.mjs [--dist dist] [--runs 3] [--from-source] [--out bench/results/install.md]
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { tmpdir, cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client } from '../test/node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js';
import { StdioClientTransport } from '../test/node_modules/@modelcontextprotocol/sdk/dist/esm/client/stdio.js';
import { npmUserEnv, startRegistry } from '../test/release/local_registry.mjs';
import { run } from '../test/release/support.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const DIST = resolve(opt('--dist', join(ROOT, 'dist')));
const RUNS = Number(opt('--runs', '3'));
const OUT = resolve(opt('--out', join(ROOT, 'bench/results/install.md')));
const VERSION = /project\(opentabs VERSION ([0-9.]+)/.exec(readFileSync(join(ROOT, 'CMakeLists.txt'), 'utf8'))[1];
const platform = `${process.platform}-${process.arch}`;

// The SDK client's stdio session; returns when the first answer and tools/list came back.
async function firstToolsList(command, cmdArgs, env, t0) {
  const transport = new StdioClientTransport({ command, args: cmdArgs, env, stderr: 'ignore' });
  const client = new Client({ name: 'first-minute', version: VERSION });
  await client.connect(transport);
  const initialized = performance.now() - t0;
  const { tools } = await client.listTools();
  const listed = performance.now() - t0;
  await client.close();
  if (!tools.some((t) => t.name === 'browser_list_tabs')) throw new Error('tools/list has no browser tools');
  return { initialized, listed };
}

async function serveDist() {
  const server = createServer((req, res) => {
    try {
      const body = readFileSync(join(DIST, decodeURIComponent(req.url).replace(/^\/+/, '')));
      res.writeHead(200, { 'content-length': body.length });
      res.end(body);
    } catch {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}

async function once(kind, registry, served) {
  const work = mkdtempSync(join(tmpdir(), `opentabs-first-${kind}-`));
  const prefix = join(work, 'prefix');
  // The tools install.sh uses besides node and npm; no compiler.
  const tools = ['node', 'npm', 'npx', 'sh', 'tar', 'gzip', 'curl', 'sha256sum', 'uname', 'mktemp', 'cp', 'mv', 'rm', 'mkdir', 'chmod', 'grep', 'head', 'cut', 'sed', 'dirname', 'cat'];
  const env = { ...npmUserEnv(work, registry.url, prefix, tools), OPENTABS_BASE_URL: served.url };
  const port = String(20000 + Math.floor(Math.random() * 20000));
  const t0 = performance.now();
  let installed = 0;
  try {
    let r;
    if (kind === 'npm') {
      // Not spawnSync: the registry and the file server run in this process.
      await run('npm', ['install', '-g', '--prefix', prefix, '@opentabs-cpp/opentabs'], { env });
      installed = performance.now() - t0;
      r = await firstToolsList('opentabs', ['start', '--stdio', '--port', port], env, t0);
    } else if (kind === 'npx') {
      r = await firstToolsList('npx', ['-y', '@opentabs-cpp/opentabs', 'start', '--stdio', '--port', port], env, t0);
    } else if (kind === 'install.sh') {
      await run('sh', [join(DIST, 'install.sh'), '--prefix', prefix], { env });
      installed = performance.now() - t0;
      r = await firstToolsList(join(prefix, 'bin', 'opentabs'), ['start', '--stdio', '--port', port], env, t0);
    } else {
      const clone = join(work, 'clone');
      execFileSync('git', ['clone', '-q', ROOT, clone]);
      await run(join(clone, 'scripts', 'start.sh'), ['--prefix', prefix, '--no-start'], { env: { ...process.env, HOME: env.HOME } });
      installed = performance.now() - t0;
      r = await firstToolsList(join(prefix, 'bin', 'opentabs'), ['start', '--stdio', '--port', port], { ...env, PATH: process.env.PATH }, t0);
    }
    return { installed, ...r };
  } finally {
    // The bridge started a server in the background: stop it.
    spawnSync('sh', ['-c', `opentabs stop || "${join(prefix, 'bin', 'opentabs')}" stop`], { env, stdio: 'ignore' });
    rmSync(work, { recursive: true, force: true });
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const secs = (ms) => (ms / 1000).toFixed(1);

const tarballs = readdirSync(DIST)
  .filter((n) => n === `opentabs-cpp-opentabs-${VERSION}.tgz` || n === `opentabs-cpp-opentabs-${platform}-${VERSION}.tgz`)
  .map((n) => join(DIST, n));
const registry = await startRegistry(tarballs);
const served = await serveDist();
const kinds = ['npm', 'npx', 'install.sh', ...(args.includes('--from-source') ? ['from source'] : [])];
const rows = [];
for (const kind of kinds) {
  const runs = [];
  for (let i = 0; i < (kind === 'from source' ? 1 : RUNS); i++) runs.push(await once(kind, registry, served));
  rows.push({ kind, runs });
  console.error(`${kind}: ${runs.map((r) => secs(r.listed)).join(' s, ')} s to the first tools/list`);
}
await registry.close();
await served.close();
const lines = [
  `| install path (${cpus().length} cores, load ${loadavg()[0].toFixed(1)}) | installed | first answer (initialize) | first tools/list | runs |`,
  '| --- | ---: | ---: | ---: | ---: |',
  ...rows.map(({ kind, runs }) =>
    `| ${kind} | ${kind === 'npx' ? '—' : secs(median(runs.map((r) => r.installed))) + ' s'} | ${secs(median(runs.map((r) => r.initialized)))} s | ${secs(median(runs.map((r) => r.listed)))} s | ${runs.length} |`),
];
mkdirSync(dirname(OUT), { recursive: true });
writeFileSync(OUT, lines.join('\n') + '\n');
console.log(lines.join('\n'));
