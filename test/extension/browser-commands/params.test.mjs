// Unit tests of the browser commands' own parameter checks (extension/src/browser-commands/
// params.js): the extension refuses bad parameters by itself, whatever server sent them, and
// names what was wrong.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { importExtension } from '../support.mjs';

const { int, num, str, bool, intArray, httpUrl, target } = await importExtension('browser-commands/params.js');
const { ERR_INVALID_PARAMS } = await importExtension('shared/constants.js');

const refused = (pattern) => (e) => e.code === ERR_INVALID_PARAMS && pattern.test(e.message);

describe('scalar parameters', () => {
  it('integers: missing, fallback, bounds', () => {
    assert.equal(int({ tabId: 4 }, 'tabId'), 4);
    assert.equal(int({}, 'depth', { required: false, fallback: 3 }), 3);
    assert.throws(() => int({}, 'tabId'), refused(/^Missing tabId parameter$/));
    assert.throws(() => int({ tabId: 0 }, 'tabId', { min: 1 }), refused(/expected an integer >= 1/));
    assert.throws(() => int({ tabId: 1.5 }, 'tabId'), refused(/Invalid tabId/));
  });

  it('numbers, strings and booleans', () => {
    assert.equal(num({ x: -2.5 }, 'x'), -2.5);
    assert.throws(() => num({ x: Infinity }, 'x'), refused(/expected a number/));
    assert.throws(() => num({ x: '3' }, 'x'), refused(/expected a number/));
    assert.equal(str({ text: '' }, 'text'), '');
    assert.throws(() => str({ text: 'abcdef' }, 'text', { max: 5 }), refused(/longer than 5 characters/));
    assert.throws(() => str({ text: 5 }, 'text'), refused(/expected a string/));
    assert.equal(bool({}, 'exact', false), false);
    assert.throws(() => bool({ exact: 'true' }, 'exact'), refused(/expected true or false/));
    assert.deepEqual(intArray({ ids: [1, 2] }, 'ids'), [1, 2]);
    assert.throws(() => intArray({ ids: [] }, 'ids'), refused(/non-empty array of integers/));
  });

  it('URLs are http or https only', () => {
    assert.equal(httpUrl({ url: 'https://example.com/a' }), 'https://example.com/a');
    assert.throws(() => httpUrl({ url: 'javascript:alert(1)' }), refused(/only http and https/));
    assert.throws(() => httpUrl({ url: 'file:///etc/passwd' }), refused(/only http and https/));
    assert.throws(() => httpUrl({ url: 'not a url' }), refused(/not a URL/));
    assert.equal(httpUrl({}, 'url', { required: false }), undefined);
  });
});

describe('element targets', () => {
  it('a selector or a whole snapshot ref', () => {
    assert.deepEqual(target({ selector: '#go' }), { selector: '#go', ref: undefined });
    assert.deepEqual(target({ ref: 'e12@k3f9' }), { selector: undefined, ref: 'e12@k3f9' });
    assert.deepEqual(target({}, { required: false }), { selector: undefined, ref: undefined });
  });

  it('a ref without its document tag says to copy the whole ref; nothing at all says what to give', () => {
    assert.throws(() => target({ ref: 'e12' }), refused(/lacks the document tag.*copy the whole ref/));
    assert.throws(() => target({ ref: 'button' }), refused(/refs look like e12@k3f9 \(from browser_snapshot\)/));
    assert.throws(() => target({}), refused(/^Give either selector or ref$/));
  });
});
