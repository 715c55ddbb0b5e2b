// A plugin tool's input schema is compiled on the tool's first call (issue 18): what is cheap
// to find (an unsupported keyword) is still reported when the plugin loads; what only
// compiling finds (a lookahead pattern) makes that tool's calls fail with the compile error,
// logged once; and calls of a tool whose schema compiles are validated as before (a bad
// argument never reaches the extension).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from './support/server.mjs';
import { ExtensionClient } from './support/extension_client.mjs';
import { writePlugin } from '../../bench/plugins.mjs';

const PLUGIN = 'lazy-schemas';

describe('plugin tool schemas compiled on first use', () => {
  let root;
  let s;
  let ext;
  const dispatched = [];
  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'opentabs-lazy-schemas-'));
    const dir = join(root, PLUGIN);
    writePlugin(dir, {
      name: PLUGIN,
      tools: [
        { name: 'good', input_schema: { type: 'object', properties: { q: { type: 'string', maxLength: 5 } }, required: ['q'], additionalProperties: false } },
        { name: 'lookahead', input_schema: { type: 'object', properties: { q: { type: 'string', pattern: '^(?!x)a' } } } },
        { name: 'unevaluated', input_schema: { type: 'object', unevaluatedProperties: false } },
      ],
    });
    s = await startServer({ config: { localPlugins: [dir], additionalAllowedDirectories: [root], permissions: { [PLUGIN]: { permission: 'auto' } } } });
    ext = await new ExtensionClient(s, { connectionId: 'lazy-schemas' }).connect();
    await ext.waitFor((m) => m.method === 'sync.full');
    ext.on('tool.dispatch', (p) => {
      dispatched.push(p);
      return { output: { echoed: p.input } };
    });
  });
  after(async () => {
    await ext.close();
    await s.stop();
    rmSync(root, { recursive: true, force: true });
  });

  test('an unsupported keyword is reported at load; a lookahead is not found before the call', async () => {
    const out = await s.output(/tool "unevaluated": input_schema cannot be compiled/);
    assert.match(out, /tool "unevaluated": input_schema cannot be compiled, the tool cannot be called: schema \/unevaluatedProperties: keyword "unevaluatedProperties" is not supported/);
    // The tool's name is in the original's "Discovered plugin … tools: […]" line; nothing about
    // its schema is said before a call.
    assert.doesNotMatch(out, /lookahead assertions|tool "lookahead"|lazy-schemas_lookahead/);
  });

  test('a tool whose schema compiles validates every call', async () => {
    const ok = await s.callTool(`${PLUGIN}_good`, { q: 'abc' });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.notEqual(ok.body.isError, true, JSON.stringify(ok.body));
    const bad = await s.callTool(`${PLUGIN}_good`, { q: 'too long' });
    assert.equal(bad.body.isError, true);
    assert.match(bad.body.content[0].text, /Invalid arguments for tool "lazy-schemas_good":\n {2}- \/q: must NOT have more than 5 characters/);
    const extra = await s.callTool(`${PLUGIN}_good`, { q: 'a', other: 1 });
    assert.equal(extra.body.isError, true);
    assert.match(extra.body.content[0].text, /must NOT have additional properties \('other'\)/);
    assert.equal(dispatched.length, 1, 'only the valid call reached the extension');
  });

  test('a schema only compiling refuses makes each call fail with the reason, logged once', async () => {
    for (let i = 0; i < 2; i++) {
      const r = await s.callTool(`${PLUGIN}_lookahead`, { q: 'a' });
      assert.equal(r.body.isError, true);
      assert.match(r.body.content[0].text,
        /^Tool "lazy-schemas_lookahead" cannot be called: its input schema could not be compiled: schema \/properties\/q\/pattern: .*lookahead assertions/);
    }
    const un = await s.callTool(`${PLUGIN}_unevaluated`, {});
    assert.equal(un.body.isError, true);
    assert.match(un.body.content[0].text, /keyword "unevaluatedProperties" is not supported/);
    const out = await s.output(/tool lazy-schemas_lookahead: input_schema cannot be compiled/);
    assert.equal(out.split('tool lazy-schemas_lookahead: input_schema cannot be compiled').length - 1, 1, 'logged once');
    const audit = await (await s.fetch(`/audit?tool=${PLUGIN}_lookahead&limit=1`)).json();
    assert.equal(audit[0].success, false);
    assert.equal(audit[0].error.code, 'INVALID_SCHEMA');
    assert.equal(dispatched.length, 1, 'no refused call reached the extension');
  });
});
