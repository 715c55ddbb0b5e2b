// Starts the real opentabs binary for a test: a fresh temporary config directory, an
// ephemeral port (PORT=0, read back from the "listening on" line), npm discovery off, and
// any extra environment (test knobs that shorten timeouts; calls do not wait for an
// extension).  stop() sends SIGTERM and waits for the exit code.  Used by every Node test that needs a live server.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createNetServer } from 'node:net';

export const OPENTABS_BIN = process.env.OPENTABS_BIN ?? new URL('../../../build/opentabs', import.meta.url).pathname;
/** Whether OPENTABS_BIN is the Windows build under Wine (ctest integration_wine). */
export const UNDER_WINE = process.env.OPENTABS_UNDER_WINE === '1';
/** A host path as the server prints it: under Wine a Windows program sees / as drive Z:. */
export const serverPath = (p) => (UNDER_WINE ? `Z:${p.replaceAll('/', '\\')}` : p);

/**
 * @param {object} [opts]
 * @param {string} [opts.configDir]  reuse a config dir (e.g. to test persistence across restarts)
 * @param {object} [opts.config]     config.json content to write before starting
 * @param {Record<string,string>} [opts.env]
 * @param {string[]} [opts.args]     extra arguments after `start`
 * @param {number} [opts.fileLimit]  run under `ulimit -n <fileLimit>` (same pid: sh execs the binary)
 */
export async function startServer(opts = {}) {
  const configDir = opts.configDir ?? mkdtempSync(join(tmpdir(), 'opentabs-test-'));
  if (opts.config) {
    mkdirSync(configDir, { recursive: true });
    writeFileSync(join(configDir, 'config.json'), JSON.stringify(opts.config, null, 2));
  }
  const env = {
    ...process.env,
    OPENTABS_CONFIG_DIR: configDir,
    OPENTABS_PORT: String(opts.port ?? 0),
    PORT: String(opts.port ?? 0),
    OPENTABS_SKIP_NPM_DISCOVERY: '1',
    OPENTABS_TELEMETRY_DISABLED: '1',
    NO_COLOR: '1',
    // Tests that connect no extension expect a call that needs one to fail at once; the
    // tests of the wait for an extension coming back set their own value.
    OPENTABS_EXTENSION_WAIT_MS: '0',
    ...opts.env,
  };
  const argv = [OPENTABS_BIN, 'start', ...(opts.args ?? [])];
  const [cmd, ...rest] = opts.fileLimit ? ['sh', '-c', `ulimit -n ${opts.fileLimit}; exec "$0" "$@"`, ...argv] : argv;
  const child = spawn(cmd, rest, {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start within 10 s\n${stderr}`)), 10_000);
    child.stdout.on('data', (d) => {
      stdout += d;
      const m = /listening on http:\/\/[^:]+:(\d+)\r?\n/.exec(stdout);  // the whole line: a pipe may carry it in pieces
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening\n${stderr}`));
    });
  });
  const secret = JSON.parse(readFileSync(join(configDir, 'extension', 'auth.json'), 'utf8')).secret;
  const base = `http://127.0.0.1:${port}`;
  return {
    child,
    port,
    base,
    secret,
    configDir,
    get stderr() {
      return stderr;
    },
    get stdout() {
      return stdout;
    },
    /**
     * Resolves with stderr+stdout once `pattern` matches them (the two pipes are read
     * independently, so a line written to stderr before the "listening" line on stdout may
     * arrive after it), or rejects after `timeoutMs` with what arrived.
     */
    async output(pattern, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(stderr + stdout)) {
        if (Date.now() > deadline) throw new Error(`no output matching ${pattern} within ${timeoutMs} ms:\n${stderr}${stdout}`);
        await new Promise((r) => setTimeout(r, 25));
      }
      return stderr + stdout;
    },
    /** fetch with the bearer token unless headers override it */
    fetch(path, init = {}) {
      return fetch(base + path, {
        ...init,
        headers: { Authorization: `Bearer ${secret}`, ...(init.headers ?? {}) },
      });
    },
    async callTool(name, args = {}) {
      const res = await this.fetch(`/tools/${encodeURIComponent(name)}/call`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ arguments: args }),
      });
      return { status: res.status, body: await res.json() };
    },
    /** SIGTERM and wait; returns {code, signal} */
    async stop({ keepConfig = false } = {}) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const r = await exited;
      if (!keepConfig && !opts.configDir) rmSync(configDir, { recursive: true, force: true });
      return r;
    },
    exited,
  };
}

/** A 127.0.0.1 port nothing listens on at the moment of asking (for tests that need a fixed port). */
export async function freePort() {
  const srv = createNetServer();
  await new Promise((resolve, reject) => {
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', resolve);
  });
  const { port } = srv.address();
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

