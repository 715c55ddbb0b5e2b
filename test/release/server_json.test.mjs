// server.json for the MCP registry, checked against the rules of the registry's published
// schema (static.modelcontextprotocol.io/schemas/2025-10-17/server.schema.json, which CI
// cannot download): required name/description/version, the reverse-DNS name pattern, the
// length limits, and each package's registryType/identifier/transport with an exact
// version (no ranges, not "latest"); and it must name what the release ships.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIST, VERSION } from './support.mjs';

test('server.json follows the registry schema and names the npm package of this release', () => {
  const s = JSON.parse(readFileSync(join(DIST, 'server.json'), 'utf8'));
  assert.match(s.$schema, /^https:\/\/static\.modelcontextprotocol\.io\/schemas\/\d{4}-\d{2}-\d{2}\/server\.schema\.json$/);
  assert.match(s.name, /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
  assert.ok(s.name.length >= 3 && s.name.length <= 200);
  assert.ok(s.description.length >= 1 && s.description.length <= 100, `description is ${s.description.length} characters (at most 100)`);
  assert.ok(!s.title || (s.title.length >= 1 && s.title.length <= 100));
  assert.equal(s.version, VERSION);
  assert.ok(Array.isArray(s.packages) && s.packages.length > 0);
  for (const p of s.packages) {
    for (const key of ['registryType', 'identifier', 'transport']) assert.ok(p[key], `a package has no ${key}`);
    assert.ok(['stdio', 'streamable-http', 'sse'].includes(p.transport.type));
    assert.ok(p.version && p.version !== 'latest' && !/[\^~<>=*x]|\s/.test(p.version), `package version ${p.version} is not exact`);
    for (const arg of p.packageArguments ?? []) {
      assert.ok(['positional', 'named'].includes(arg.type));
      if (arg.type === 'positional') assert.ok('value' in arg || 'valueHint' in arg);
      else assert.ok(arg.name);
    }
  }
  const npm = s.packages.find((p) => p.registryType === 'npm');
  assert.equal(npm.identifier, '@opentabs-cpp/opentabs');
  assert.equal(npm.version, VERSION);
  // The registry checks that the npm package claims this server name.
  const main = JSON.parse(readFileSync(new URL('../../packaging/npm/package.json', import.meta.url), 'utf8'));
  assert.equal(main.mcpName, s.name);
});
