// Unit tests of the page agent's parts that need no DOM (extension/src/page-agent/): the
// injection list and the shared-scope loading of its classic scripts, the dispatcher's
// outcomes, and the pure text helpers.  What needs a page (finding elements, the snapshot,
// the interactions) is covered by the Chromium e2e files (browser_snapshot, browser_actions,
// browser_commands, security_refs).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';

import { SOURCE_DIR, importExtension } from '../support.mjs';

const { PAGE_AGENT_FILES } = await importExtension('browser-commands/page-agent.js');

// Runs the files as Chrome injects them: classic scripts, in order, in one global scope.
function injectAgent() {
  for (const file of PAGE_AGENT_FILES) {
    const source = fs.readFileSync(path.join(SOURCE_DIR, 'extension', file), 'utf8');
    vm.runInThisContext(source, { filename: file });
  }
  return globalThis.__opentabsAgentParts;
}

const parts = injectAgent();

describe('page agent files', () => {
  it('the injection list names every file of src/page-agent once, agent.js last', () => {
    const onDisk = fs.readdirSync(path.join(SOURCE_DIR, 'extension/src/page-agent')).filter((f) => f.endsWith('.js'));
    const listed = PAGE_AGENT_FILES.map((f) => path.basename(f));
    assert.deepEqual([...listed].sort(), [...onDisk].sort());
    assert.equal(new Set(listed).size, listed.length);
    assert.equal(listed.at(-1), 'agent.js');
    for (const f of PAGE_AGENT_FILES) assert.match(f, /^src\/page-agent\/[a-z-]+\.js$/);
  });

  it('declare nothing at the top level, so a second injection into the same world works', () => {
    const { AgentError, RefError } = parts;
    const entry = globalThis.__opentabsPageAgent;
    assert.equal(typeof entry, 'function');
    assert.doesNotThrow(() => injectAgent());
    // An operation still running from the first injection throws errors the new dispatcher knows.
    assert.equal(globalThis.__opentabsAgentParts.AgentError, AgentError);
    assert.equal(globalThis.__opentabsAgentParts.RefError, RefError);
    assert.ok(new RefError('x') instanceof AgentError);
  });

  it('has an operation for every one the background runs', () => {
    const dir = path.join(SOURCE_DIR, 'extension/src/browser-commands');
    const named = new Set();
    for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.js'))) {
      const text = fs.readFileSync(path.join(dir, file), 'utf8');
      for (const m of text.matchAll(/\b(?:runPageOp|runPageOpIn|pollTab)\([^';]*?,\s*'(\w+)'/g)) named.add(m[1]);
    }
    assert.ok(named.size >= 20, `found only ${[...named]}`);
    for (const op of named) assert.equal(typeof parts.ops[op], 'function', `no page operation ${op}`);
  });
});

describe('dispatch', () => {
  const { dispatch, fail, failRef } = parts;
  const ops = Object.assign(Object.create(null), {
    echo: (a) => a,
    refuse: () => fail('No element matches selector \'#x\''),
    refuseRef: () => failRef('Unknown ref \'e1@abcd\''),
    crash: (a) => a.missing.field,
    later: async (a) => a.n + 1,
    laterRefuse: async () => fail('Element #b is not visible'),
  });

  it('returns the value of a known operation, with empty args when none are given', () => {
    assert.deepEqual(dispatch(ops, 'echo', { n: 1 }), { value: { n: 1 } });
    assert.deepEqual(dispatch(ops, 'echo', undefined), { value: {} });
  });

  it('refuses unknown operations, inherited names included', () => {
    assert.deepEqual(dispatch(ops, 'nope', {}), { __error: 'unknown page operation nope' });
    assert.deepEqual(dispatch({ echo: ops.echo }, 'toString', {}), { __error: 'unknown page operation toString' });
  });

  it('marks refusals as expected and faults as not', () => {
    assert.deepEqual(dispatch(ops, 'refuse', {}), { __error: 'No element matches selector \'#x\'', __expected: true });
    assert.deepEqual(dispatch(ops, 'refuseRef', {}), { __error: 'Unknown ref \'e1@abcd\'', __expected: true });
    const crash = dispatch(ops, 'crash', {});
    assert.equal(crash.__expected, false);
    assert.match(crash.__error, /^TypeError: Cannot read properties of undefined/);
  });

  it('settles asynchronous operations into the same outcomes', async () => {
    assert.deepEqual(await dispatch(ops, 'later', { n: 2 }), { value: 3 });
    assert.deepEqual(await dispatch(ops, 'laterRefuse', {}), { __error: 'Element #b is not visible', __expected: true });
  });

  it('describes thrown non-errors', () => {
    assert.deepEqual(parts.errorOutcome('boom'), { __error: 'Error: boom', __expected: false });
  });
});

describe('text helpers', () => {
  it('squash collapses whitespace and cuts with an ellipsis', () => {
    assert.equal(parts.squash('  a \n\t b  '), 'a b');
    assert.equal(parts.squash(null), '');
    assert.equal(parts.squash('abcdef', 4), 'abc…');
    assert.equal(parts.squash('abcd', 4), 'abcd');
  });

  it('cut keeps short text and marks what it drops', () => {
    assert.deepEqual(parts.cut('abc', 3), { text: 'abc', truncated: false });
    assert.deepEqual(parts.cut('abcdef', 2), { text: 'ab\n[... truncated: 2 of 6 characters shown]', truncated: true });
  });

  it('reads the document tag of a ref', () => {
    assert.equal(parts.tagOfRef('e12@k3f9'), 'k3f9');
    assert.equal(parts.tagOfRef('e12'), undefined);
    assert.equal(parts.tagOfRef('x12@k3f9'), undefined);
    assert.equal(parts.tagOfRef('e1@K3F9'), undefined);
  });
});

describe('hover targets from style sheets', () => {
  it('takes the compound the :hover is on, skipping parts after a combinator', () => {
    assert.deepEqual(parts.hoveredSelectors('.menu:hover > .panel, a, li.item:hover:focus, .x >:hover'), ['.menu', 'li.item']);
    assert.deepEqual(parts.hoveredSelectors(':hover'), []);
  });

  it('reads nested rules and skips sheets that cannot be read', () => {
    const rule = (selectorText, cssRules) => ({ selectorText, cssRules });
    const crossOrigin = { get cssRules() { throw new Error('SecurityError'); } };
    const sheets = [
      { cssRules: [rule('.a:hover'), rule(undefined, [rule('.b:hover .c'), rule('.d')])] },
      crossOrigin,
      { cssRules: [rule('.e:hover, .f:hover')] },
    ];
    assert.deepEqual(parts.hoverSelectorsOf(sheets), ['.a', '.b', '.e', '.f']);
    assert.deepEqual(parts.hoverSelectorsOf(undefined), []);
  });

  it('stops reading after a bounded number of rules', () => {
    const many = Array.from({ length: 6000 }, (_, i) => ({ selectorText: `.r${i}:hover` }));
    const found = parts.hoverSelectorsOf([{ cssRules: many }]);
    assert.equal(found.length, 5000);
    assert.equal(found.at(-1), '.r4999');
  });
});
