// Unit tests of extension/src/shared/outbound-size.js: what the offscreen document sends the
// server for a message over the 20 MiB a WebSocket message may carry (issue 38: an oversized
// reply fails only its own call; before, the server closed the extension's socket and every
// call in flight failed with it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importExtension } from './support.mjs';

const { outboundText, MAX_OUTBOUND_BYTES } = await importExtension('shared/outbound-size.js');

test('the cap is the server\'s 20 MiB (net/limits.hpp max_ws_message_bytes)', () => {
  assert.equal(MAX_OUTBOUND_BYTES, 20 * 1024 * 1024);
});

test('a reply within the cap is sent as it is', () => {
  const message = { jsonrpc: '2.0', id: 'd-1', result: { output: 'x'.repeat(1000) } };
  assert.deepEqual(outboundText(message), { text: JSON.stringify(message) });
});

test('a 21 MiB reply becomes an error reply for that id alone', () => {
  const message = { jsonrpc: '2.0', id: 'd-2', result: { output: 'x'.repeat(21 * 1024 * 1024) } };
  const out = outboundText(message);
  assert.equal(out.replaced, true);
  const sent = JSON.parse(out.text);
  assert.equal(sent.id, 'd-2');
  assert.equal(sent.result, undefined);
  assert.match(sent.error.message, /^The result was 21\.0 MiB, more than the 20\.0 MiB one message to the server may carry; only this call failed$/);
  assert.ok(out.text.length < 1000);
});

test('UTF-8 bytes count, not characters: 8 Mi three-byte characters are over the cap', () => {
  const message = { jsonrpc: '2.0', id: 7, result: { text: '€'.repeat(8 * 1024 * 1024) } };
  assert.equal(outboundText(message).replaced, true);
  const small = { jsonrpc: '2.0', id: 8, result: { text: '€'.repeat(6 * 1024 * 1024) } };
  assert.equal(outboundText(small).replaced, undefined);
});

test('an oversized notification is not sent; the reason says why', () => {
  const out = outboundText({ jsonrpc: '2.0', method: 'webmcp.syncAll', params: { blob: 'y'.repeat(MAX_OUTBOUND_BYTES) } });
  assert.equal(out.text, null);
  assert.match(out.reason, /over the 20971520 the server accepts/);
});
