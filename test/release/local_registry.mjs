// A minimal npm registry on loopback serving the release's npm tarballs, for installing
// them with the real npm and npx as a user would from the public registry (which cannot be
// reached for packages that are not published, and must not be published by a test).  It
// answers the two requests npm makes: GET /<name> (the package document: versions, with
// each version's package.json and dist.tarball/integrity) and GET the tarball.  Any other
// name is 404, as the public registry answers a package that does not exist.
import { createServer } from 'node:http';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { basename, join } from 'node:path';

export async function startRegistry(tarballs) {
  const packages = new Map();  // name -> { versions: {v: manifest}, files: {file: bytes} }
  for (const file of tarballs) {
    const bytes = readFileSync(file);
    const manifest = JSON.parse(execFileSync('tar', ['-xzOf', file, 'package/package.json'], { encoding: 'utf8' }));
    const entry = packages.get(manifest.name) ?? { versions: {}, files: {} };
    entry.versions[manifest.version] = { manifest, file: basename(file) };
    entry.files[basename(file)] = bytes;
    packages.set(manifest.name, entry);
  }
  const requested = [];
  const server = createServer((req, res) => {
    const path = decodeURIComponent(req.url.split('?')[0]).slice(1);
    requested.push(path);
    const tarball = /^(.+)\/-\/([^/]+\.tgz)$/.exec(path);
    if (tarball && packages.get(tarball[1])?.files[tarball[2]]) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(packages.get(tarball[1]).files[tarball[2]]);
      return;
    }
    const entry = packages.get(path);
    if (!entry) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'Not found' }));
      return;
    }
    const base = `http://127.0.0.1:${server.address().port}`;
    const versions = {};
    for (const [v, { manifest, file }] of Object.entries(entry.versions)) {
      const bytes = entry.files[file];
      versions[v] = {
        ...manifest,
        _id: `${manifest.name}@${v}`,
        dist: {
          tarball: `${base}/${manifest.name}/-/${file}`,
          shasum: createHash('sha1').update(bytes).digest('hex'),
          integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`,
        },
      };
    }
    const latest = Object.keys(versions).sort().at(-1);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ name: path, 'dist-tags': { latest }, versions }));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    requested,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/**
 * A new user's environment for npm under `work`: a HOME of its own, npm's cache and registry,
 * and a PATH of `prefix`/bin and a folder holding only `tools` (default node, npm, npx, sh:
 * no compiler).
 */
export function npmUserEnv(work, registryUrl, prefix, tools = ['node', 'npm', 'npx', 'sh']) {
  const bin = join(work, 'tools');
  mkdirSync(bin);
  for (const name of tools) symlinkSync(execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim(), join(bin, name));
  mkdirSync(join(work, 'home'));
  return {
    PATH: `${join(prefix, 'bin')}:${bin}`,
    HOME: join(work, 'home'),
    TMPDIR: work,
    npm_config_registry: registryUrl,
    npm_config_cache: join(work, 'npm-cache'),
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    OPENTABS_SKIP_NPM_DISCOVERY: '1',
    NO_COLOR: '1',
  };
}
