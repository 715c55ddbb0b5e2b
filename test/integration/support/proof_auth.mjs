// The OpenTabs-Proof Authorization header a client earns by answering its own challenge (as
// the CLI and the stdio bridge do), for tests that need two callers told apart by credential
// while sharing one client name.
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';

/** The header of a fresh client of server `s`: the server nonce in it was issued to this client alone. */
export async function proofHeader(s) {
  const hmac = (message) => createHmac('sha256', s.secret).update(message).digest('hex');
  const nonce = randomBytes(32).toString('hex');
  const r = await fetch(`${s.base}/auth/challenge?clientNonce=${nonce}`, { headers: { 'X-OpenTabs-Challenge-Tag': hmac(`opentabs-proof-1 challenge ${nonce}`) } });
  assert.equal(r.status, 200);
  const { serverNonce } = await r.json();
  return { Authorization: `OpenTabs-Proof ${serverNonce}.${hmac(`opentabs-proof-1 client ${nonce} ${serverNonce}`)}` };
}
