// The MCP bundle for Claude Desktop: the official mcpb CLI (packaging/node_modules, installed
// by scripts/release.sh) unpacks and validates it, and the command its manifest configures
// for this platform — with ${__dirname} and ${user_config.port} filled in as the host does —
// carries an SDK stdio session.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO, VERSION, artifact, listToolsOverStdio } from './support.mjs';
import { freePort } from '../integration/support/server.mjs';

const MCPB = join(REPO, 'packaging', 'node_modules', '.bin', 'mcpb');

describe('MCP bundle', { skip: existsSync(MCPB) ? false : `needs ${MCPB} (scripts/release.sh installs it)` }, () => {
  let dir, manifest;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'opentabs-mcpb-'));
    execFileSync(MCPB, ['unpack', artifact(new RegExp(`^opentabs-${VERSION.replaceAll('.', '\\.')}\\.mcpb$`)), join(dir, 'bundle')], { stdio: 'pipe' });
    manifest = JSON.parse(readFileSync(join(dir, 'bundle', 'manifest.json'), 'utf8'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('the official CLI validates its manifest', () => {
    const r = spawnSync(MCPB, ['validate', join(dir, 'bundle', 'manifest.json')], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.equal(manifest.version, VERSION);
    assert.equal(manifest.server.type, 'binary');
    assert.ok(manifest.user_config.port, 'the port is a user setting');
  });

  test('every configured command is a file in the bundle', () => {
    const fill = (s) => s.replaceAll('${__dirname}', join(dir, 'bundle'));
    const entry = join(dir, 'bundle', manifest.server.entry_point);
    assert.ok(statSync(entry).mode & 0o111, `${manifest.server.entry_point} is not executable`);
    for (const config of [manifest.server.mcp_config, ...Object.values(manifest.server.mcp_config.platform_overrides ?? {})])
      assert.ok(existsSync(fill(config.command)), `${config.command} is not in the bundle`);
  });

  test('the configured command serves an SDK stdio session', { timeout: 120_000 }, async () => {
    const port = await freePort();
    const config = { ...manifest.server.mcp_config, ...(manifest.server.mcp_config.platform_overrides?.[process.platform] ?? {}) };
    const fill = (s) => s.replaceAll('${__dirname}', join(dir, 'bundle')).replaceAll('${user_config.port}', String(port));
    const env = { PATH: process.env.PATH, HOME: join(dir, 'home'), OPENTABS_SKIP_NPM_DISCOVERY: '1' };
    try {
      const session = await listToolsOverStdio(fill(config.command), config.args.map(fill), env);
      assert.equal(session.server.name, 'opentabs');
      assert.ok(session.tools.some((t) => t.name === 'browser_list_tabs'));
    } finally {
      spawnSync(fill(config.command), ['stop'], { env: { ...env, OPENTABS_PORT: String(port) } });
    }
  });
});
