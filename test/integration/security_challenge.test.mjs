// Issue 38 "lock-out without the secret": /auth/challenge used to share one 600-a-minute
// budget among all callers, so 650 requests from anyone (or a web page's <img> tags, which
// send no Origin header) made the CLI, the stdio bridge and the native host call the real
// server an impostor.  Now only a caller showing the challenge tag (an HMAC of its nonce
// under the secret) is answered: the flood is refused without spending anything, the CLI
// still proves the server, and a tag replayed many times keeps one challenge per nonce, so
// another client's challenge is still there to answer.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { startServer } from './support/server.mjs';
import { cli } from './support/cli.mjs';

const hmac = (secret, message) => createHmac('sha256', secret).update(message).digest('hex');

describe('security: /auth/challenge cannot be spent by someone without the secret', () => {
  let s;
  before(async () => {
    s = await startServer();
  });
  after(async () => {
    await s.stop();
  });

  const challenge = (nonce, headers = {}) =>
    fetch(`${s.base}/auth/challenge?clientNonce=${nonce}`, { headers });

  test('700 challenges without the tag (as <img> or curl send them) are refused; the CLI still proves the server', { timeout: 120_000 }, async () => {
    // A client that asked before the flood, to answer after it.
    const early = randomBytes(32).toString('hex');
    const earlyAnswer = await challenge(early, { 'X-OpenTabs-Challenge-Tag': hmac(s.secret, `opentabs-proof-1 challenge ${early}`) });
    assert.equal(earlyAnswer.status, 200);
    const { serverNonce } = await earlyAnswer.json();

    const statuses = new Map();
    for (let batch = 0; batch < 7; batch++) {
      const answers = await Promise.all(Array.from({ length: 100 }, () => challenge(randomBytes(32).toString('hex'))));
      for (const r of answers) {
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        await r.arrayBuffer();
      }
    }
    assert.deepEqual([...statuses], [[401, 700]], 'every challenge without the tag is refused, none rate limited');
    // A wrong tag (another secret) is refused too; a page's origin is refused before that.
    const nonce = randomBytes(32).toString('hex');
    assert.equal((await challenge(nonce, { 'X-OpenTabs-Challenge-Tag': hmac('x'.repeat(64), `opentabs-proof-1 challenge ${nonce}`) })).status, 401);
    assert.equal((await challenge(nonce, { Origin: 'https://evil.example' })).status, 403);

    const r = await cli(['status'], { OPENTABS_CONFIG_DIR: s.configDir, OPENTABS_PORT: String(s.port) });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.doesNotMatch(r.stdout + r.stderr, /is not this opentabs server/);

    // A tag a squatter captured, replayed 300 times: one challenge per nonce, so the early
    // client's challenge is still there, and its credential is accepted.
    const captured = randomBytes(32).toString('hex');
    const tag = hmac(s.secret, `opentabs-proof-1 challenge ${captured}`);
    for (let batch = 0; batch < 3; batch++) {
      const answers = await Promise.all(Array.from({ length: 100 }, () => challenge(captured, { 'X-OpenTabs-Challenge-Tag': tag })));
      for (const a of answers) {
        assert.equal(a.status, 200);
        await a.arrayBuffer();
      }
    }
    const proof = hmac(s.secret, `opentabs-proof-1 client ${early} ${serverNonce}`);
    const tools = await fetch(`${s.base}/tools`, { headers: { Authorization: `OpenTabs-Proof ${serverNonce}.${proof}` } });
    assert.equal(tools.status, 200, 'the early client proves itself after the floods');
  });
});
