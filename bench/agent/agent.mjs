// Agent-level benchmark (issue 23): tasks of the kinds agents fail on (waits across a redirect,
// hover menus that open on a trusted mouseenter, keyup autocompletes, canvas clicks, HTML5
// drags, modifier clicks, a file dropped from outside the page, and the pages written after
// the code: the second half of tasks.mjs and all of tasks_unseen.mjs), each driven as an agent would through the MCP SDK client against
// opentabs (the real binary, its extension in headless Chromium) and, when bench/agent/setup.sh
// has installed them, Playwright MCP and Chrome DevTools MCP (each on the system Chromium,
// headless), one server after another.  Every task is checked from the page afterwards.
// Reports per task and server: success, tool calls, response bytes, wall time; and each
// server's tools/list size.  It is a benchmark, not a test: nothing is asserted.
//
// Usage: node bench/agent/agent.mjs [--bin build/opentabs] [--only opentabs,playwright,devtools]
//        [--set tasks,unseen,beside] [--task substring]
// Needs test/node_modules (cd test && npm ci): the MCP SDK client and the e2e harness.
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { option } from './command_line.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

const { startSites } = await import('./sites.mjs');
const { opentabsServer, playwrightServer, devtoolsServer, makeWorkDir } = await import('./sessions.mjs');
const { TASKS, Unsupported } = await import('./tasks.mjs');
const { UNSEEN_TASKS } = await import('./tasks_unseen.mjs');
const { BESIDE_TASKS } = await import('./tasks_beside.mjs');

const PEERS_INSTALLED = fs.existsSync(path.join(HERE, 'node_modules/@playwright/mcp')) && fs.existsSync(path.join(HERE, 'node_modules/chrome-devtools-mcp'));
const SERVERS = [
  { key: 'opentabs', start: opentabsServer },
  ...(PEERS_INSTALLED ? [{ key: 'playwright', start: playwrightServer }, { key: 'devtools', start: devtoolsServer }] : []),
].filter((s) => !option('--only') || option('--only').split(',').includes(s.key));
const SETS = { tasks: TASKS, unseen: UNSEEN_TASKS, beside: BESIDE_TASKS };
const chosenSets = (option('--set') ?? 'tasks,unseen,beside').split(',').map((name) => SETS[name] ?? []);
const tasks = chosenSets.flat().filter((t) => !option('--task') || t.name.includes(option('--task')));

// One task on one server: the agent's calls are counted from opening the page to the last
// step; the check and the closing are the benchmark's and are not.
async function runTask(server, script, task, env) {
  const a = server.session();
  const started = performance.now();
  let page = null;
  let outcome = '';
  try {
    page = await a.open(`${env.url}/${typeof task.page === 'function' ? task.page(env) : task.page}`);
    await script(a, page, env);
  } catch (err) {
    outcome = err instanceof Unsupported ? `no tool: ${err.message}` : `failed: ${String(err.message ?? err).slice(0, 200)}`;
  }
  const ms = performance.now() - started;
  const ok = !outcome && await server.check(page, task.check).catch(() => false);
  if (!outcome && !ok) outcome = 'failed: the page does not show the result';
  await server.close(page).catch(() => {});
  return { ok, outcome: ok ? 'done' : outcome, calls: a.stats.calls, bytes: a.stats.bytes, ms: Math.round(ms) };
}

// A task two agents do at the same time (task.agents: two tasks), the first through `server`,
// the second through its partner; calls and bytes are both agents', the time is until both
// are done.
async function runTogether(server, partner, key, task, env) {
  const started = performance.now();
  const runs = await Promise.all(task.agents.map((t, i) => runTask(i ? partner : server, t[key], t, env)));
  const ms = performance.now() - started;
  const failed = runs.find((r) => !r.ok);
  return {
    ok: !failed, outcome: failed ? failed.outcome : 'done', ms: Math.round(ms),
    calls: runs.reduce((n, r) => n + r.calls, 0), bytes: runs.reduce((n, r) => n + r.bytes, 0),
  };
}

async function runServer(spec, env) {
  const server = await spec.start(env.workDir);
  // The second agent's server is started before the tasks, outside their times, as the first is.
  const partner = tasks.some((t) => t.agents) ? await server.partner() : null;
  try {
    const rows = [];
    for (const task of tasks) rows.push(task.agents ? await runTogether(server, partner, spec.key, task, env) : await runTask(server, task[spec.key], task, env));
    return { name: server.name, listing: server.listing, rows };
  } finally {
    await partner?.stop();
    await server.stop();
  }
}

function report(results) {
  for (const r of results) console.log(`${r.name} tools/list: ${r.listing.count} tools, ${r.listing.bytes} bytes (JSON of the tools array)`);
  const head = results.map((r) => `${r.name}: result / calls / bytes / s`);
  console.log(`| task | ${head.join(' | ')} |`);
  console.log(`| --- |${results.map(() => ' --- |').join('')}`);
  tasks.forEach((task, i) => {
    const cells = results.map((r) => { const x = r.rows[i]; return `${x.outcome} / ${x.calls} / ${x.bytes} / ${(x.ms / 1000).toFixed(2)}`; });
    console.log(`| ${task.name} | ${cells.join(' | ')} |`);
  });
  for (const r of results) console.log(`${r.name} completed ${r.rows.filter((x) => x.ok).length}/${r.rows.length}`);
  if (!PEERS_INSTALLED) console.log('Playwright MCP and DevTools MCP are not installed: run bench/agent/setup.sh to compare with them.');
}

const sites = await startSites();
const env = { url: sites.url, otherUrl: sites.otherUrl, workDir: makeWorkDir() };
try {
  const results = [];
  for (const spec of SERVERS) results.push(await runServer(spec, env));
  report(results);
} finally {
  sites.close();
  fs.rmSync(env.workDir, { recursive: true, force: true });
}
