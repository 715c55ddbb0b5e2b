// A small npm registry on 127.0.0.1 for plugin-management tests: the real `npm` client
// installs, updates, views, searches and uninstalls against it exactly as against
// registry.npmjs.org.  It exists because the registry reachable from this sandbox serves no
// @opentabs-dev packages and no search endpoint; the tests that need the public registry
// probe it and run when it can serve them.
//
// Speaks the parts of the registry protocol npm uses: GET /<name> (packument; scoped names
// arrive as @scope%2fname), GET /<name>/-/<file>.tgz (tarball), GET /-/v1/search.  Packages
// are made with the real `npm pack` from a directory (optionally with another version).
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export async function startNpmRegistry() {
  const work = mkdtempSync(join(tmpdir(), 'opentabs-registry-'));
  /** @type {Map<string, {latest: string, versions: Map<string, {manifest: object, tarball: Buffer, file: string, integrity: string, shasum: string, time: string}>}>} */
  const packages = new Map();
  const requests = [];
  let base = '';
  // The public registry answers some searches that match nothing with 404 (npm: E404).
  let searchStatus = 200;

  const send = (res, status, body, type = 'application/json') => {
    const data = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
    res.writeHead(status, { 'Content-Type': type, 'Content-Length': data.length });
    res.end(data);
  };

  const packument = (name, pkg) => {
    const versions = {};
    const time = { created: '2026-01-01T00:00:00.000Z', modified: new Date().toISOString() };
    for (const [v, entry] of pkg.versions) {
      versions[v] = {
        ...entry.manifest,
        _id: `${name}@${v}`,
        dist: { tarball: `${base}/${name}/-/${entry.file}`, shasum: entry.shasum, integrity: entry.integrity },
      };
      time[v] = entry.time;
    }
    return { _id: name, name, 'dist-tags': { latest: pkg.latest }, versions, time };
  };

  const search = (url) => {
    const text = url.searchParams.get('text') ?? '';
    const size = Math.min(Number(url.searchParams.get('size') ?? 20) || 20, 250);
    const words = text.split(/\s+/).filter(Boolean);
    const keywords = words.filter((w) => w.startsWith('keywords:')).map((w) => w.slice('keywords:'.length));
    const terms = words.filter((w) => !w.startsWith('keywords:')).map((w) => w.toLowerCase());
    const objects = [];
    for (const [name, pkg] of packages) {
      const m = pkg.versions.get(pkg.latest).manifest;
      const kw = m.keywords ?? [];
      if (!keywords.every((k) => kw.includes(k))) continue;
      const hay = `${name} ${m.description ?? ''} ${kw.join(' ')}`.toLowerCase();
      if (!terms.every((t) => hay.includes(t))) continue;
      objects.push({
        package: {
          name,
          version: pkg.latest,
          description: m.description ?? '',
          keywords: kw,
          date: pkg.versions.get(pkg.latest).time,
          links: {},
          publisher: { username: 'fixture-publisher', email: 'fixture@example.invalid' },
          maintainers: [{ username: 'fixture-publisher', email: 'fixture@example.invalid' }],
        },
        score: { final: 1, detail: { quality: 1, popularity: 1, maintenance: 1 } },
        searchScore: 1,
        flags: {},
      });
    }
    return { objects: objects.slice(0, size), total: objects.length, time: new Date().toUTCString() };
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url, 'http://registry.invalid');
    requests.push({ method: req.method, path: decodeURIComponent(url.pathname), search: url.search });
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, { error: 'method not allowed' });
    if (url.pathname === '/-/v1/search') return searchStatus === 200 ? send(res, 200, search(url)) : send(res, searchStatus, { error: 'Not found' });
    const path = decodeURIComponent(url.pathname).slice(1);
    const tgz = path.indexOf('/-/');
    if (tgz >= 0) {
      const pkg = packages.get(path.slice(0, tgz));
      const file = path.slice(tgz + 3);
      for (const entry of pkg?.versions.values() ?? []) {
        if (entry.file === file) return send(res, 200, entry.tarball, 'application/octet-stream');
      }
      return send(res, 404, { error: 'Not found' });
    }
    const pkg = packages.get(path);
    if (!pkg) return send(res, 404, { error: 'Not found' });
    return send(res, 200, packument(path, pkg));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${server.address().port}`;

  return {
    url: `${base}/`,
    requests,
    /** The HTTP status searches get from now on (200: the results). */
    setSearchStatus(status) {
      searchStatus = status;
    },
    /**
     * Packs `dir` with the real `npm pack` and serves it; `version` overrides package.json's,
     * `edit(pkgJson)` may change the manifest, `remove` lists files to leave out.
     */
    async publish(dir, { version, edit, remove = [] } = {}) {
      const copy = mkdtempSync(join(work, 'src-'));
      cpSync(dir, copy, { recursive: true });
      const pj = JSON.parse(readFileSync(join(copy, 'package.json'), 'utf8'));
      if (version) pj.version = version;
      if (edit) edit(pj);
      writeFileSync(join(copy, 'package.json'), JSON.stringify(pj, null, 2));
      for (const f of remove) rmSync(join(copy, f), { recursive: true, force: true });
      const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], {
        cwd: copy,
        env: { ...process.env, npm_config_update_notifier: 'false' },
      });
      const [info] = JSON.parse(stdout);
      const tarball = readFileSync(join(work, info.filename));
      const file = info.filename.replace(/^.*\//, '');
      const entry = { manifest: pj, tarball, file, integrity: info.integrity, shasum: info.shasum, time: new Date().toISOString() };
      const pkg = packages.get(pj.name) ?? { latest: pj.version, versions: new Map() };
      pkg.versions.set(pj.version, entry);
      pkg.latest = pj.version;
      packages.set(pj.name, pkg);
      return { name: pj.name, version: pj.version };
    },
    async close() {
      await new Promise((resolve) => server.close(resolve));
      server.closeAllConnections?.();
      rmSync(work, { recursive: true, force: true });
    },
  };
}
