// The Claude Code plugin: Claude Code's own `claude plugin validate` accepts the repository's
// marketplace, the plugin, and the marketplace archive of the release; the plugin's MCP
// server entry runs `opentabs start --stdio` from the npm package.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO, VERSION, artifact } from './support.mjs';

const CLAUDE = join(REPO, 'test', 'node_modules', '.bin', 'claude');
const PLUGIN = join(REPO, 'packaging', 'claude-code', 'opentabs');

function validate(path) {
  // HOME of its own: the check must not depend on (or write to) a person's Claude settings.
  const home = mkdtempSync(join(tmpdir(), 'opentabs-claude-home-'));
  try {
    const r = spawnSync(CLAUDE, ['plugin', 'validate', '--strict', path], { env: { PATH: process.env.PATH, HOME: home }, encoding: 'utf8' });
    assert.equal(r.status, 0, `claude plugin validate ${path}:\n${r.stdout}${r.stderr}`);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

describe('Claude Code plugin', { skip: existsSync(CLAUDE) ? false : `needs ${CLAUDE} (test/package.json)` }, () => {
  let dir;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'opentabs-plugin-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test("the repository's marketplace and the plugin pass Claude Code's validation", () => {
    validate(REPO);
    validate(PLUGIN);
  });

  test("the release's marketplace archive passes it too, with the release's version", () => {
    execFileSync('tar', ['-xzf', artifact(new RegExp(`^opentabs-claude-code-plugin-${VERSION.replaceAll('.', '\\.')}\\.tar\\.gz$`)), '-C', dir]);
    const root = join(dir, `opentabs-claude-code-plugin-${VERSION}`);
    validate(root);
    const plugin = JSON.parse(readFileSync(join(root, 'opentabs', '.claude-plugin', 'plugin.json'), 'utf8'));
    assert.equal(plugin.version, VERSION);
  });

  test('its MCP server is `opentabs start --stdio` from the npm package, and it has the browser skill', () => {
    const servers = JSON.parse(readFileSync(join(PLUGIN, '.mcp.json'), 'utf8')).mcpServers;
    assert.deepEqual(servers.opentabs, { command: 'npx', args: ['-y', '@opentabs-cpp/opentabs', 'start', '--stdio'] });
    // The repository's copy names the version in CMakeLists.txt (the release writes it too).
    assert.equal(JSON.parse(readFileSync(join(PLUGIN, '.claude-plugin', 'plugin.json'), 'utf8')).version, VERSION);
    const skill = readFileSync(join(PLUGIN, 'skills', 'opentabs-browser', 'SKILL.md'), 'utf8');
    assert.match(skill, /^---\nname: opentabs-browser\ndescription: .+\n---\n/);
  });
});
