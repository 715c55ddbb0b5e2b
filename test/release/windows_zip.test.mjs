// The Windows zip where it runs: unpacked (bin/opentabs.exe, share/opentabs/extension,
// register-native-host.cmd) and started under Wine in a fresh Wine prefix, its server must
// answer /health and tools/list.  Wine stands in for Windows, which cannot run here.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VERSION, artifact, waitForHealth, listToolsOverHttp } from './support.mjs';
import { freePort } from '../integration/support/server.mjs';

const WINE = '/usr/lib/wine/wine64';

describe('Windows zip under Wine', { skip: existsSync(WINE) ? false : `needs ${WINE} (wine64)` }, () => {
  let dir, top, env;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'opentabs-zip-'));
    const zip = artifact(new RegExp(`^opentabs-${VERSION.replaceAll('.', '\\.')}-windows-x64\\.zip$`));
    execFileSync('python3', ['-c', 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])', zip, dir]);
    top = join(dir, `opentabs-${VERSION}-windows-x64`);
    // USERPROFILE is where the Windows build keeps .opentabs; Wine's own is inside its prefix.
    env = { PATH: process.env.PATH, HOME: dir, WINEPREFIX: join(dir, 'wine'), WINEDEBUG: '-all', OPENTABS_SKIP_NPM_DISCOVERY: '1' };
  });
  after(() => {
    try {
      execFileSync('/usr/lib/wine/wineserver', ['-k'], { env });
    } catch {}
    rmSync(dir, { recursive: true, force: true });
  });

  test('holds the binary, the extension and the registration command', () => {
    for (const f of ['bin/opentabs.exe', 'share/opentabs/extension/manifest.json', 'register-native-host.cmd'])
      assert.ok(existsSync(join(top, f)), `${f} is not in the zip`);
  });

  test('opentabs.exe answers --version and serves /health and tools/list', { timeout: 300_000 }, async () => {
    const exe = join(top, 'bin', 'opentabs.exe');
    assert.equal(execFileSync(WINE, [exe, '--version'], { env, encoding: 'utf8' }).trim(), VERSION);
    const port = await freePort();
    const server = spawn(WINE, [exe, 'start', '--port', String(port)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise((resolve) => server.on('exit', resolve));
    let output = '';
    server.stdout.on('data', (d) => (output += d));
    try {
      const health = await waitForHealth(port, { attempts: 1200, what: 'opentabs.exe under Wine' });
      assert.equal(health.version, VERSION);
      const profile = execFileSync(WINE, ['cmd', '/c', 'echo %USERPROFILE%'], { env, encoding: 'utf8' }).trim();
      const unixProfile = execFileSync(WINE, ['winepath', '-u', profile], { env, encoding: 'utf8' }).trim();
      const secret = JSON.parse(readFileSync(join(unixProfile, '.opentabs', 'extension', 'auth.json'), 'utf8')).secret;
      const tools = await listToolsOverHttp(port, secret);
      assert.ok(tools.some((t) => t.name === 'browser_list_tabs'), `no browser tools:\n${output}`);
    } finally {
      server.kill('SIGTERM');
      await exited;
    }
  });
});
