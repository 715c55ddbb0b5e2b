// The release's packaging step (scripts/release.sh runs it after the builds): from the
// staged installs in build-dist/stage/<target>/ it makes
//   - one npm package per built platform (@opentabs-cpp/opentabs-<os>-<cpu>: bin/ and
//     share/opentabs/extension, selected by os/cpu) and the main package
//     @opentabs-cpp/opentabs (bin `opentabs`, the platform packages as optional
//     dependencies), each packed with `npm pack`;
//   - the MCP bundle for Claude Desktop (manifest from mcpb/manifest.json, one binary per
//     platform), checked and packed by the official mcpb CLI;
//   - the Claude Code marketplace (claude-code/) as an archive;
//   - server.json for the MCP registry (mcp-registry/server.json).
// Templates say @VERSION@ where the release's version goes.
// Usage: node pack.mjs --version V --stage DIR --work DIR --out DIR --targets "linux-x64 ..."
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const { values: opt } = parseArgs({
  options: { version: { type: 'string' }, stage: { type: 'string' }, work: { type: 'string' }, out: { type: 'string' }, targets: { type: 'string' } },
});
for (const k of ['version', 'stage', 'work', 'out', 'targets']) if (!opt[k]) throw new Error(`pack.mjs: --${k} is required`);
const version = opt.version;
const targets = opt.targets.split(/\s+/).filter(Boolean);

// Release targets and their npm/Node names (process.platform, process.arch).
const PLATFORMS = {
  'linux-x64': { os: 'linux', cpu: 'x64', exe: 'opentabs' },
  'linux-arm64': { os: 'linux', cpu: 'arm64', exe: 'opentabs' },
  'windows-x64': { os: 'win32', cpu: 'x64', exe: 'opentabs.exe' },
  'macos-arm64': { os: 'darwin', cpu: 'arm64', exe: 'opentabs' },
  'macos-x64': { os: 'darwin', cpu: 'x64', exe: 'opentabs' },
};
const npmPlatform = (t) => `${PLATFORMS[t].os}-${PLATFORMS[t].cpu}`;

const fill = (text, values) => text.replace(/@([A-Z_]+)@/g, (m, key) => (key in values ? values[key] : m));
const template = (file, values) => fill(readFileSync(join(here, file), 'utf8'), { VERSION: version, ...values });
const fresh = (dir) => {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
};
// The product as installed: bin/<exe> and share/opentabs/extension.
const copyProduct = (t, to) => {
  const stage = join(opt.stage, t);
  if (!existsSync(join(stage, 'bin', PLATFORMS[t].exe))) throw new Error(`pack.mjs: ${t} was not built (${stage})`);
  cpSync(join(stage, 'bin'), join(to, 'bin'), { recursive: true });
  cpSync(join(stage, 'share'), join(to, 'share'), { recursive: true });
};
const npmPack = (dir) => execFileSync('npm', ['pack', '--silent', '--pack-destination', opt.out], { cwd: dir, stdio: ['ignore', 'pipe', 'inherit'] });

// ---- npm --------------------------------------------------------------------------------

for (const t of targets) {
  const dir = fresh(join(opt.work, 'npm', npmPlatform(t)));
  const { os, cpu } = PLATFORMS[t];
  writeFileSync(join(dir, 'package.json'), template('npm/platform-package.json', { PLATFORM: npmPlatform(t), OS: os, CPU: cpu }));
  writeFileSync(join(dir, 'README.md'), `# @opentabs-cpp/opentabs-${npmPlatform(t)}\n\nThe opentabs binary for ${npmPlatform(t)}; ` +
    'install `@opentabs-cpp/opentabs`, which runs it.\n');
  copyProduct(t, dir);
  npmPack(dir);
}
{
  const dir = fresh(join(opt.work, 'npm', 'opentabs'));
  // Every platform the project ships, not only those built in this run: the main package is
  // published once for all of them (npm skips those whose os/cpu do not match).
  const platformPackages = Object.fromEntries(
    Object.keys(PLATFORMS).map((t) => [`@opentabs-cpp/opentabs-${npmPlatform(t)}`, version]),
  );
  const manifest = template('npm/package.json', {}).replace('"@PLATFORM_PACKAGES@"', JSON.stringify(platformPackages));
  writeFileSync(join(dir, 'package.json'), JSON.stringify(JSON.parse(manifest), null, 2) + '\n');
  cpSync(join(here, 'npm', 'opentabs.js'), join(dir, 'opentabs.js'));
  chmodSync(join(dir, 'opentabs.js'), 0o755);
  cpSync(join(here, 'npm', 'README.md'), join(dir, 'README.md'));
  npmPack(dir);
}

// ---- MCP bundle ---------------------------------------------------------------------------

{
  const dir = fresh(join(opt.work, 'mcpb'));
  for (const t of targets) copyProduct(t, join(dir, 'server', t));
  cpSync(join(here, 'mcpb', 'launch.sh'), join(dir, 'server', 'launch.sh'));
  chmodSync(join(dir, 'server', 'launch.sh'), 0o755);
  const manifest = JSON.parse(template('mcpb/manifest.json', {}));
  manifest.compatibility.platforms = [...new Set(targets.map((t) => PLATFORMS[t].os))].sort();
  if (!targets.includes('windows-x64')) delete manifest.server.mcp_config.platform_overrides.win32;
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  const mcpb = join(here, 'node_modules', '.bin', 'mcpb');
  execFileSync(mcpb, ['validate', join(dir, 'manifest.json')], { stdio: ['ignore', 'pipe', 'inherit'] });
  execFileSync(mcpb, ['pack', dir, join(opt.out, `opentabs-${version}.mcpb`)], { stdio: ['ignore', 'pipe', 'inherit'] });
}

// ---- Claude Code marketplace ------------------------------------------------------------

{
  const name = `opentabs-claude-code-plugin-${version}`;
  const parent = fresh(join(opt.work, 'claude-code'));
  const top = join(parent, name);
  cpSync(join(here, 'claude-code'), top, { recursive: true });
  // The repository's own marketplace (.claude-plugin/ at its root) names the plugin's folder
  // from the root; in the archive the plugin sits beside the marketplace file.
  const market = JSON.parse(readFileSync(join(here, '..', '.claude-plugin', 'marketplace.json'), 'utf8'));
  for (const p of market.plugins) p.source = `./${p.name}`;
  mkdirSync(join(top, '.claude-plugin'), { recursive: true });
  writeFileSync(join(top, '.claude-plugin', 'marketplace.json'), JSON.stringify(market, null, 2) + '\n');
  const pluginJson = join(top, 'opentabs', '.claude-plugin', 'plugin.json');
  const plugin = JSON.parse(readFileSync(pluginJson, 'utf8'));
  plugin.version = version;
  writeFileSync(pluginJson, JSON.stringify(plugin, null, 2) + '\n');
  execFileSync('python3', [join(here, 'archive.py'), 'tar.gz', join(opt.out, `${name}.tar.gz`), parent, name], { stdio: 'inherit' });
}

// ---- MCP registry -----------------------------------------------------------------------

writeFileSync(join(opt.out, 'server.json'), JSON.stringify(JSON.parse(template('mcp-registry/server.json', {})), null, 2) + '\n');
