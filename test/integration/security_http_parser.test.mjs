// The HTTP request parser and the connection writer from an attacker's side (issue 18's
// rewrite of the request path: our code takes the body by Content-Length, header lookups
// run on our own lowercased storage, the router trusts the server's one head screen, and
// the writer hands the socket gathered batches), over raw sockets against the real binary:
//  - request smuggling shapes: repeated, signed, padded, zero-led and oversized
//    Content-Length, Transfer-Encoding with or without it and in odd case, whitespace
//    before a colon and obs-fold (RFC 9112 §5.1–5.2: 400); a refused head ends the
//    connection, so nothing after it is read as a request;
//  - pipelined requests whose bytes are split at every boundary of a short body, and a body
//    that arrives byte by byte: answers in order, each body exactly its bytes;
//  - heads at and past the size limit; NUL, bare CR, obs-fold, non-ASCII and non-token
//    bytes in header lines;
//  - header names in any case still reach the Host/Origin/bearer screens and the session
//    lookup, a repeated Authorization does not authenticate, and a WebSocket upgrade with
//    odd-case headers works while a bad one fails;
//  - a client that stops reading a large answer does not stall the server, and the write
//    deadline (OPENTABS_HTTP_WRITE_TIMEOUT_MS) closes that connection; a client that
//    closes mid-answer is forgotten.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from './support/server.mjs';
import { until } from './support/until.mjs';
import { writeBenchPlugins } from '../../bench/plugins.mjs';

const ACCEPT = 'application/json, text/event-stream';

/** A raw TCP socket to the server, connected, Nagle off (each write is its own segment). */
function rawSocket(port) {
  return new Promise((resolve, reject) => {
    const sock = connect(port, '127.0.0.1');
    sock.setNoDelay(true);
    sock.once('connect', () => resolve(sock));
    sock.once('error', reject);
  });
}

/**
 * Parses complete HTTP/1.1 responses off the front of `buf` (interim 1xx answers are
 * skipped; a 101 ends at its head).  Bodies by Content-Length or chunked; a response with
 * neither ends at close (`atClose`).  Returns {responses, rest}.
 */
function parseResponses(buf, atClose = false) {
  const responses = [];
  for (;;) {
    const headEnd = buf.indexOf('\r\n\r\n');
    if (headEnd < 0) break;
    const lines = buf.subarray(0, headEnd).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0])?.[1]);
    assert.ok(status, `not a status line: ${JSON.stringify(lines[0])}`);
    const headers = {};
    for (const l of lines.slice(1)) {
      const c = l.indexOf(':');
      headers[l.slice(0, c).toLowerCase()] = l.slice(c + 1).trim();
    }
    let at = headEnd + 4;
    let body;
    if (status < 200 && status !== 101) {
      buf = buf.subarray(at);
      continue;
    }
    if (status === 101) {
      // Switching Protocols has no body (RFC 9110 §15.2.2): it ends at its head, and what
      // follows is the new protocol's.  Waiting for the close here waited out the server's
      // idle WebSocket instead (40 s).
      body = Buffer.alloc(0);
    } else if (headers['content-length'] !== undefined) {
      const n = Number(headers['content-length']);
      if (buf.length < at + n) break;
      body = buf.subarray(at, at + n);
      at += n;
    } else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
      const parts = [];
      let complete = false;
      for (;;) {
        const lineEnd = buf.indexOf('\r\n', at);
        if (lineEnd < 0) break;
        const size = parseInt(buf.subarray(at, lineEnd).toString('latin1'), 16);
        if (buf.length < lineEnd + 2 + size + 2) break;
        parts.push(buf.subarray(lineEnd + 2, lineEnd + 2 + size));
        at = lineEnd + 2 + size + 2;
        if (size === 0) {
          complete = true;
          break;
        }
      }
      if (!complete) break;
      body = Buffer.concat(parts);
    } else {
      if (!atClose) break;
      body = buf.subarray(at);
      at = buf.length;
    }
    responses.push({ status, headers, body: body.toString('utf8') });
    buf = buf.subarray(at);
  }
  return { responses, rest: buf };
}

/**
 * Collects the responses arriving on `sock` until `count` have come (count omitted: until
 * the server closes).  Resolves with {responses, closed, extra} where `extra` is whatever
 * unparsed bytes were left.
 */
function collect(sock, count) {
  return new Promise((resolve) => {
    let buf = Buffer.alloc(0);
    const responses = [];
    const finish = (closed) => {
      sock.off('data', onData);
      sock.off('close', onClose);
      if (closed) {
        const tail = parseResponses(buf, true);
        responses.push(...tail.responses);
        buf = tail.rest;
      }
      resolve({ responses, closed, extra: buf.toString('latin1') });
    };
    const onData = (d) => {
      buf = Buffer.concat([buf, d]);
      const got = parseResponses(buf);
      responses.push(...got.responses);
      buf = got.rest;
      if (count !== undefined && responses.length >= count) finish(false);
    };
    const onClose = () => finish(true);
    sock.on('data', onData);
    sock.on('close', onClose);
    sock.on('error', () => {});
  });
}

const tick = () => new Promise((r) => setTimeout(r, 2));

/**
 * Sends `pieces` (strings are latin1, so any byte can be written) on a new connection, one
 * write each with a short pause between, and collects `count` responses (or all until
 * close).  The connection is destroyed afterwards.
 */
async function exchange(port, pieces, count) {
  const sock = await rawSocket(port);
  const answers = collect(sock, count);
  for (const p of Array.isArray(pieces) ? pieces : [pieces]) {
    if (sock.destroyed) break;
    sock.write(typeof p === 'string' ? Buffer.from(p, 'latin1') : p);
    await tick();
  }
  const out = await answers;
  sock.destroy();
  return out;
}

/** The statuses of every answer until the server closes the connection. */
async function statusesUntilClose(port, pieces) {
  const r = await exchange(port, pieces);
  assert.equal(r.closed, true);
  return r.responses.map((x) => x.status);
}

/** The server's open socket inodes (from /proc/<pid>/fd). */
function socketInodes(pid) {
  const out = new Set();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) out.add(m[1]);
    } catch {
      // closed meanwhile
    }
  }
  return out;
}

/** The inode of the server's end of the connection whose client port is `clientPort`. */
function serverSideInode(serverPort, clientPort) {
  const hex = (n) => n.toString(16).toUpperCase().padStart(4, '0');
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f.length < 10) continue;
    if (f[1].endsWith(':' + hex(serverPort)) && f[2].endsWith(':' + hex(clientPort))) return f[9];
  }
  return null;
}

describe('HTTP request parser and writer under attack', () => {
  let s;
  let host;
  let sid;
  let pluginRoot;
  const ping = (id) => JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' });
  /** An authenticated MCP POST head (lines in `extra` go in as they are). */
  const mcpHead = (extra = '', { contentLength, session = sid } = {}) =>
    `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${s.secret}\r\nContent-Type: application/json\r\n` +
    `Accept: ${ACCEPT}\r\n` +
    (session ? `Mcp-Session-Id: ${session}\r\n` : '') +
    (contentLength !== undefined ? `Content-Length: ${contentLength}\r\n` : '') +
    extra +
    '\r\n';
  const mcpPing = (id, extra = '') => mcpHead(extra, { contentLength: Buffer.byteLength(ping(id)) }) + ping(id);
  const health = (extra = '') => `GET /health HTTP/1.1\r\nHost: ${host}\r\n${extra}\r\n`;
  /** The id of a JSON-RPC answer (plain JSON or one SSE event). */
  const answerId = (r) => {
    const text = r.body.startsWith('{') ? r.body : r.body.split('\n').find((l) => l.startsWith('data: ')).slice(6);
    return JSON.parse(text).id;
  };

  before(async () => {
    // 60 plugins × 30 tools: GET /tools answers ~1.5 MB, several of which overflow the
    // socket buffers of a client that stops reading.
    pluginRoot = mkdtempSync(join(tmpdir(), 'opentabs-parser-plugins-'));
    const gen = writeBenchPlugins(pluginRoot, 60, 30);
    s = await startServer({
      config: { version: 3, ...gen.config },
      env: { OPENTABS_HTTP_WRITE_TIMEOUT_MS: '1500', OPENTABS_HTTP_BODY_TIMEOUT_MS: '5000' },
    });
    host = `127.0.0.1:${s.port}`;
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'parser-attack', version: '0' } },
    });
    const init = await exchange(s.port, mcpHead('', { contentLength: Buffer.byteLength(body), session: null }) + body, 1);
    assert.equal(init.responses[0].status, 200, init.responses[0].body);
    sid = init.responses[0].headers['mcp-session-id'];
    assert.ok(sid, 'initialize answered a session id');
    const note = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const ack = await exchange(s.port, mcpHead('', { contentLength: Buffer.byteLength(note) }) + note, 1);
    assert.equal(ack.responses[0].status, 202);
  });
  after(async () => {
    await s?.stop();
    rmSync(pluginRoot, { recursive: true, force: true });
  });

  test('baseline: an authenticated ping on the session answers its id', async () => {
    const r = await exchange(s.port, mcpPing(7), 1);
    assert.equal(r.responses[0].status, 200, r.responses[0].body);
    assert.equal(answerId(r.responses[0]), 7);
  });

  describe('request smuggling shapes: a bad frame is refused and ends the connection', () => {
    const smuggled = () => health(); // must never be answered after a refused head
    const withLength = (lengthLines, body = ping(1)) => mcpHead(lengthLines) + body + smuggled();

    test('two Content-Length headers, equal: 400, nothing after it read', async () => {
      assert.deepEqual(await statusesUntilClose(s.port, withLength(`Content-Length: ${ping(1).length}\r\nContent-Length: ${ping(1).length}\r\n`)), [400]);
    });
    test('two Content-Length headers, different (either one would frame a request): 400', async () => {
      const n = ping(1).length;
      assert.deepEqual(await statusesUntilClose(s.port, withLength(`Content-Length: ${n}\r\nContent-Length: ${n - 10}\r\n`)), [400]);
      assert.deepEqual(await statusesUntilClose(s.port, withLength(`Content-Length: ${n - 10}\r\ncontent-length: ${n}\r\n`)), [400]);
    });
    test('one Content-Length holding a list: 400', async () => {
      const n = ping(1).length;
      assert.deepEqual(await statusesUntilClose(s.port, withLength(`Content-Length: ${n}, ${n}\r\n`)), [400]);
    });
    for (const [what, value] of [
      ['a plus sign', (n) => `+${n}`],
      ['a minus sign', (n) => `-${n}`],
      ['a hex prefix', (n) => `0x${n.toString(16)}`],
      ['a decimal point', (n) => `${n}.0`],
      ['a space inside', (n) => `${String(n)[0]} ${String(n).slice(1)}`],
      ['a NUL after the digits', (n) => `${n}\0`],
      ['a minus sign and a huge number', () => '-18446744073709551616'],
      ['a list of one empty and one real length', (n) => `, ${n}`],
    ]) {
      test(`Content-Length with ${what}: 400 (invalid framing, RFC 9112 §6.3), nothing after it read`, async () => {
        assert.deepEqual(await statusesUntilClose(s.port, withLength(`Content-Length: ${value(ping(1).length)}\r\n`)), [400]);
      });
    }
    test('an empty Content-Length is invalid, not "no body": 400, the body is not read as a request', async () => {
      // (Before: no body, so the body bytes were read as the next request.)
      const embedded = health();
      assert.deepEqual(await statusesUntilClose(s.port, mcpHead('Content-Length:\r\n') + embedded), [400]);
      assert.deepEqual(await statusesUntilClose(s.port, mcpHead('Content-Length: \r\n') + embedded), [400]);
    });
    test('whitespace between a field name and its colon (RFC 9112 §5.1): 400, not a length another parser would miss', async () => {
      // (Before: "Content-Length : n" framed the body, "Transfer-Encoding : chunked" was 411.)
      const n = ping(1).length;
      for (const line of [`Content-Length : ${n}`, `Content-Length\t: ${n}`, 'Transfer-Encoding : chunked', `Host : ${host}`])
        assert.deepEqual(await statusesUntilClose(s.port, mcpHead(`${line}\r\n`) + ping(1) + smuggled()), [400], line);
    });
    test('obs-fold (a header line starting with whitespace, RFC 9112 §5.2): 400, not a field of its own', async () => {
      // (Before: "\tAuthorization: Bearer …" after another field was read as an Authorization field.)
      const body = ping(1);
      for (const fold of [` X-Injected: 1`, `\tX-Injected: 1`, `\tAuthorization: Bearer ${s.secret}`, ' continued'])
        assert.deepEqual(
          await statusesUntilClose(
            s.port,
            `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nX-First: a\r\n${fold}\r\nContent-Type: application/json\r\nAccept: ${ACCEPT}\r\n` +
              `Mcp-Session-Id: ${sid}\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
          ),
          [400],
          JSON.stringify(fold),
        );
    });
    test('Content-Length with optional whitespace around it and leading zeros: the body is exactly its bytes', async () => {
      const n = ping(3).length;
      for (const value of [` ${n}`, `${n} `, `\t${n}\t`, `000${n}`, `${'0'.repeat(200)}${n}`]) {
        const r = await exchange(s.port, mcpHead(`Content-Length:${value}\r\n`) + ping(3) + health(), 2);
        assert.deepEqual(r.responses.map((x) => x.status), [200, 200], JSON.stringify(value));
        assert.equal(answerId(r.responses[0]), 3);
        assert.deepEqual(JSON.parse(r.responses[1].body), { status: 'ok' });
      }
    });
    for (const [what, value] of [
      ['2^32', '4294967296'],
      ['2^32 + the real length', String(2 ** 32 + 44)],
      ['2^64 - 1', '18446744073709551615'],
      ['2^64', '18446744073709551616'],
      ['2^64 + the real length', '18446744073709551660'],
      ['100 digits', '9'.repeat(100)],
    ]) {
      test(`Content-Length of ${what}: 413 on the head, nothing after it read`, async () => {
        assert.deepEqual(await statusesUntilClose(s.port, withLength(`Content-Length: ${value}\r\n`)), [413]);
      });
    }
    test('Content-Length and Transfer-Encoding together: 411, the chunked body is not read as requests', async () => {
      const chunked = `${ping(1).length.toString(16)}\r\n${ping(1)}\r\n0\r\n\r\n`;
      assert.deepEqual(
        await statusesUntilClose(s.port, mcpHead(`Content-Length: 4\r\nTransfer-Encoding: chunked\r\n`) + chunked + smuggled()),
        [411],
      );
      assert.deepEqual(
        await statusesUntilClose(s.port, mcpHead(`Transfer-Encoding: chunked\r\nContent-Length: ${chunked.length}\r\n`) + chunked + smuggled()),
        [411],
      );
    });
    for (const te of ['Transfer-Encoding: chunked', 'transfer-encoding: chunked', 'TRANSFER-ENCODING: CHUNKED', 'tRaNsFeR-eNcOdInG: ChUnKeD', 'Transfer-Encoding: identity', 'Transfer-Encoding: gzip, chunked', 'Transfer-Encoding:\tchunked']) {
      test(`Transfer-Encoding alone (${JSON.stringify(te)}): 411`, async () => {
        const chunked = `${ping(1).length.toString(16)}\r\n${ping(1)}\r\n0\r\n\r\n`;
        assert.deepEqual(await statusesUntilClose(s.port, mcpHead(`${te}\r\n`) + chunked + smuggled()), [411]);
      });
    }
  });

  describe('pipelining and body framing', () => {
    test('two pipelined pings split at every byte boundary of the first body: answers in order, each body exactly its bytes', async () => {
      const first = mcpHead('', { contentLength: ping(101).length });
      const second = mcpPing(202);
      const body = ping(101);
      for (let cut = 0; cut <= body.length; cut++) {
        // The first write ends inside the first body; the second carries the rest of it
        // and the whole second request in the same segment.
        const r = await exchange(s.port, [first + body.slice(0, cut), body.slice(cut) + second], 2);
        assert.deepEqual(r.responses.map((x) => x.status), [200, 200], `cut at ${cut}: ${JSON.stringify(r.responses)}`);
        assert.deepEqual(r.responses.map(answerId), [101, 202], `cut at ${cut}`);
      }
    });

    test('the head of the second request split at every byte, behind the whole first request', async () => {
      const first = mcpPing(11);
      const second = mcpPing(12);
      for (let cut = 0; cut <= second.length; cut += 7) {
        const r = await exchange(s.port, [first + second.slice(0, cut), second.slice(cut)], 2);
        assert.deepEqual(r.responses.map(answerId), [11, 12], `cut at ${cut}`);
      }
    });

    test('twenty pipelined requests of mixed kinds in one write: answered in order', async () => {
      const pieces = [];
      const want = [];
      for (let i = 0; i < 20; i++) {
        if (i % 3 === 0) {
          pieces.push(health());
          want.push('health');
        } else {
          pieces.push(mcpPing(1000 + i));
          want.push(1000 + i);
        }
      }
      const r = await exchange(s.port, pieces.join(''), 20);
      assert.deepEqual(
        r.responses.map((x) => (x.body.includes('"status"') ? 'health' : answerId(x))),
        want,
      );
    });

    test('the body of a refused request is never read as a request, however its bytes are cut', async () => {
      // The body is itself a request (to a path answered 404); the request after it is a
      // /health.  Refused on its head (401), the first request's body is skipped when it is
      // already there, or the connection ends: never a 404.
      const embedded = `GET /not-a-route HTTP/1.1\r\nHost: ${host}\r\n\r\n`;
      const refused = `POST /tools/x/call HTTP/1.1\r\nHost: ${host}\r\nContent-Length: ${embedded.length}\r\n\r\n`;
      const whole = await exchange(s.port, refused + embedded + health(), 2);
      assert.deepEqual(whole.responses.map((x) => x.status), [401, 200]);
      for (let cut = 0; cut <= embedded.length; cut += 3) {
        const r = await exchange(s.port, [refused + embedded.slice(0, cut), embedded.slice(cut) + health('Connection: close\r\n')]);
        const statuses = r.responses.map((x) => x.status);
        assert.ok(
          JSON.stringify(statuses) === '[401]' || JSON.stringify(statuses) === '[401,200]',
          `cut at ${cut}: ${JSON.stringify(statuses)}`,
        );
      }
    });

    test('a body that arrives one byte per segment is read whole, and the next request after it', async () => {
      const body = ping(31);
      const pieces = [mcpHead('', { contentLength: body.length }), ...body.split(''), mcpPing(32)];
      const r = await exchange(s.port, pieces, 2);
      assert.deepEqual(r.responses.map(answerId), [31, 32]);
    });

    test('a head that arrives one byte per segment is read', async () => {
      const r = await exchange(s.port, [...mcpPing(41).split('')], 1);
      assert.equal(answerId(r.responses[0]), 41);
    });

    test('a body shorter than its Content-Length waits for the rest (no request is cut short)', async () => {
      const body = ping(51);
      const sock = await rawSocket(s.port);
      const answers = collect(sock, 1);
      sock.write(mcpHead('', { contentLength: body.length + 5 }) + body);
      await tick();
      sock.write('     '); // JSON allows trailing whitespace: the five bytes complete the body
      const r = await answers;
      sock.destroy();
      assert.equal(answerId(r.responses[0]), 51);
    });
  });

  describe('header lines: size limits and odd bytes', () => {
    /** A head carrying `count` distinct headers of `valueBytes` each. */
    const manyHeaders = (count, valueBytes = 1) => {
      let extra = '';
      for (let i = 0; i < count; i++) extra += `X-H${i}: ${'v'.repeat(valueBytes)}\r\n`;
      return extra;
    };
    test('1,000 small headers (~12 KB of head): answered', async () => {
      const r = await exchange(s.port, mcpPing(61, manyHeaders(1000)), 1);
      assert.equal(r.responses[0].status, 200);
      assert.equal(answerId(r.responses[0]), 61);
    });
    test('2,000 small headers (past the 16,000-byte head limit): 431', async () => {
      assert.deepEqual(await statusesUntilClose(s.port, mcpPing(62, manyHeaders(2000))), [431]);
    });
    test('one header value of 15,000 bytes: answered; of 17,000 bytes: 431', async () => {
      const ok = await exchange(s.port, mcpPing(63, `X-Big: ${'b'.repeat(15_000)}\r\n`), 1);
      assert.equal(ok.responses[0].status, 200);
      assert.deepEqual(await statusesUntilClose(s.port, mcpPing(64, `X-Big: ${'b'.repeat(17_000)}\r\n`)), [431]);
    });
    test('a request target of 17,000 bytes: 431', async () => {
      assert.deepEqual(await statusesUntilClose(s.port, `GET /health?x=${'a'.repeat(17_000)} HTTP/1.1\r\nHost: ${host}\r\n\r\n`), [431]);
    });
    test('a head of 1 MB that never ends: 431 before it is all read', async () => {
      const sock = await rawSocket(s.port);
      const answers = collect(sock);
      sock.on('error', () => {});
      sock.write(`GET /health HTTP/1.1\r\nHost: ${host}\r\n`);
      for (let i = 0; i < 64 && !sock.destroyed; i++) sock.write(`X-Fill-${i}: ${'f'.repeat(16_000)}\r\n`);
      const r = await answers;
      sock.destroy();
      assert.deepEqual(r.responses.map((x) => x.status), [431]);
    });
    for (const [what, line] of [
      ['a NUL in a name', 'X-N\0ul: 1'],
      ['a space in a name', 'X Space: 1'],
      ['a non-token char in a name', 'X(Paren): 1'],
      ['a non-token char in a name', 'X"Quote": 1'],
      ['a non-ASCII byte in a name', 'X-\xe9t\xe9: 1'],
      ['a line without a colon', 'NoColonHere'],
      ['an obs-fold continuation without a colon', 'X-Fold: a\r\n  continued'],
    ])
      test(`a header line with ${what}: 400`, async () => {
        assert.deepEqual(await statusesUntilClose(s.port, mcpPing(70, `${line}\r\n`)), [400]);
      });
    for (const [what, line] of [
      ['a NUL in a value', 'X-Value: a\0b'],
      ['a bare CR in a value', 'X-Value: a\rb'],
      ['non-ASCII bytes in a value', 'X-Value: caf\xc3\xa9 \xff\xfe'],
      ['a DEL in a value', 'X-Value: a\x7fb'],
    ])
      test(`a header value with ${what}: the request is served`, async () => {
        const r = await exchange(s.port, mcpPing(71, `${line}\r\n`), 1);
        assert.equal(r.responses[0].status, 200);
        assert.equal(answerId(r.responses[0]), 71);
      });
    test('request lines with another version, a lowercase version or no version are refused', async () => {
      for (const [line, want] of [
        ['GET /health HTTP/1.2', 505],
        ['GET /health HTTP/2.0', 505],
        ['GET /health http/1.1', 505],
        ['GET /health', 400],
        ['GET  /health HTTP/1.1', 505],
      ])
        assert.deepEqual(await statusesUntilClose(s.port, `${line}\r\nHost: ${host}\r\n\r\n`), [want], line);
      const old = await exchange(s.port, `GET /health HTTP/1.0\r\nHost: ${host}\r\n\r\n`);
      assert.deepEqual(old.responses.map((x) => x.status), [200]);
      assert.equal(old.closed, true, 'HTTP/1.0 without keep-alive closes');
    });
    test('a bare CR cannot hide a Content-Length inside another value', async () => {
      // "X-Value: a\rContent-Length: 5" is one field, X-Value: the request has no body, so
      // what follows is the next request, not a body.
      const r = await exchange(s.port, `GET /health HTTP/1.1\r\nHost: ${host}\r\nX-Value: a\rContent-Length: 5\r\n\r\n` + health(), 2);
      assert.deepEqual(r.responses.map((x) => x.status), [200, 200]);
    });
  });

  describe('header names in any case reach the screens', () => {
    const noAuthPing = (id, headers) =>
      `POST /mcp HTTP/1.1\r\n${headers}Content-Type: application/json\r\nAccept: ${ACCEPT}\r\nMcp-Session-Id: ${sid}\r\n` +
      `Content-Length: ${ping(id).length}\r\n\r\n${ping(id)}`;

    for (const name of ['host', 'HOST', 'hOsT'])
      test(`"${name}:" is the Host header: allowed for 127.0.0.1, refused for another name`, async () => {
        const good = await exchange(s.port, `GET /health HTTP/1.1\r\n${name}: ${host}\r\n\r\n`, 1);
        assert.equal(good.responses[0].status, 200);
        assert.deepEqual(await statusesUntilClose(s.port, `GET /health HTTP/1.1\r\n${name}: evil.example:${s.port}\r\nConnection: close\r\n\r\n`), [403]);
      });
    test('Host repeated (allowed, then another name) is refused; a missing Host is 400', async () => {
      assert.deepEqual(await statusesUntilClose(s.port, `GET /health HTTP/1.1\r\nHost: ${host}\r\nhost: evil.example\r\nConnection: close\r\n\r\n`), [403]);
      assert.deepEqual(await statusesUntilClose(s.port, `GET /health HTTP/1.1\r\nHost: evil.example\r\nHOST: ${host}\r\nConnection: close\r\n\r\n`), [403]);
      assert.deepEqual(await statusesUntilClose(s.port, `GET /health HTTP/1.1\r\nX-Host: ${host}\r\n\r\n`), [400]);
    });
    for (const name of ['origin', 'ORIGIN', 'oRiGiN'])
      test(`"${name}:" is the Origin header: a web origin is refused, the extension's allowed`, async () => {
        assert.deepEqual(
          await statusesUntilClose(s.port, `GET /health HTTP/1.1\r\nHost: ${host}\r\n${name}: https://evil.example\r\nConnection: close\r\n\r\n`),
          [403],
        );
        assert.deepEqual(await statusesUntilClose(s.port, `GET /health HTTP/1.1\r\nHost: ${host}\r\n${name}:\r\nConnection: close\r\n\r\n`), [403]);
        const ext = await exchange(s.port, `GET /health HTTP/1.1\r\nHost: ${host}\r\n${name}: chrome-extension://abcdefghijklmnop\r\n\r\n`, 1);
        assert.equal(ext.responses[0].status, 200);
      });
    test('Origin repeated (the extension, then a web page) is refused: the joined value is not one extension origin', async () => {
      for (const [first, second] of [['chrome-extension://abcdefghijklmnop', 'https://evil.example'], ['https://evil.example', 'chrome-extension://abcdefghijklmnop']])
        assert.deepEqual(
          await statusesUntilClose(s.port, `GET /health HTTP/1.1\r\nHost: ${host}\r\nOrigin: ${first}\r\nOrigin: ${second}\r\nConnection: close\r\n\r\n`),
          [403],
        );
    });
    for (const name of ['authorization', 'AUTHORIZATION', 'aUtHoRiZaTiOn'])
      test(`"${name}:" carries the bearer token; a wrong one is 401`, async () => {
        const good = await exchange(s.port, noAuthPing(81, `Host: ${host}\r\n${name}: Bearer ${s.secret}\r\n`), 1);
        assert.equal(good.responses[0].status, 200, good.responses[0].body);
        assert.equal(answerId(good.responses[0]), 81);
        const lower = await exchange(s.port, noAuthPing(82, `Host: ${host}\r\n${name}: bearer ${s.secret}\r\n`), 1);
        assert.equal(lower.responses[0].status, 200);
        const wrong = await exchange(s.port, noAuthPing(83, `Host: ${host}\r\n${name}: Bearer ${'0'.repeat(s.secret.length)}\r\n`), 1);
        assert.equal(wrong.responses[0].status, 401);
      });
    test('Authorization repeated (joined with ", ") does not authenticate, nor a near miss', async () => {
      for (const lines of [
        `Authorization: Bearer ${s.secret}\r\nAuthorization: Bearer ${s.secret}\r\n`,
        `Authorization: Bearer ${s.secret}\r\nauthorization: Bearer wrong\r\n`,
        `Authorization: Bearer wrong\r\nAUTHORIZATION: Bearer ${s.secret}\r\n`,
        `Authorization: Bearer ${s.secret}\r\nAuthorization: x\r\n`,
        `Authorization: Bearer ${s.secret.slice(0, -1)}\r\n`,
        `Authorization: Bearer ${s.secret}0\r\n`,
        `Authorization: Bearer ${s.secret}\0\r\n`,
        `Authorization: Basic ${s.secret}\r\n`,
        `Authorization: Bearer${s.secret}\r\n`,
        `X-Authorization: Bearer ${s.secret}\r\n`,
      ]) {
        const r = await exchange(s.port, noAuthPing(84, `Host: ${host}\r\n${lines}`), 1);
        assert.equal(r.responses[0].status, 401, JSON.stringify(lines));
      }
    });
    for (const name of ['mcp-session-id', 'MCP-SESSION-ID', 'mCp-SeSsIoN-iD'])
      test(`"${name}:" names the session`, async () => {
        const body = ping(91);
        const r = await exchange(
          s.port,
          `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${s.secret}\r\nContent-Type: application/json\r\n` +
            `Accept: ${ACCEPT}\r\n${name}: ${sid}\r\ncontent-LENGTH: ${body.length}\r\n\r\n${body}`,
          1,
        );
        assert.equal(r.responses[0].status, 200, r.responses[0].body);
        assert.equal(answerId(r.responses[0]), 91);
        const unknown = await exchange(s.port, mcpHead(`${name}: not-a-session\r\nContent-Length: ${body.length}\r\n`, { session: null }) + body, 1);
        assert.equal(unknown.responses[0].status, 404);
      });
    for (const name of ['content-length', 'CONTENT-LENGTH', 'CoNtEnT-lEnGtH'])
      test(`"${name}:" frames the body`, async () => {
        const body = ping(92);
        const r = await exchange(s.port, mcpHead(`${name}: ${body.length}\r\n`) + body + health(), 2);
        assert.deepEqual(r.responses.map((x) => x.status), [200, 200]);
        assert.equal(answerId(r.responses[0]), 92);
      });
  });

  describe('WebSocket upgrade', () => {
    const wsHead = (lines) => `GET /ws HTTP/1.1\r\n${lines}\r\n`;
    const key = randomBytes(16).toString('base64');
    const acceptFor = (k) => createHash('sha1').update(k + '258EAFA5-E914-47DA-95CA-C5AB0DC85B11').digest('base64');

    test('odd-case upgrade headers: 101 with the right Sec-WebSocket-Accept and the opentabs subprotocol', async () => {
      const r = await exchange(
        s.port,
        wsHead(
          `hOST: ${host}\r\nupgrade: WebSocket\r\nCONNECTION: Upgrade\r\nsec-websocket-key: ${key}\r\n` +
            `SEC-WEBSOCKET-VERSION: 13\r\nSec-Websocket-Protocol: opentabs, ${s.secret}, parser-attack\r\n`,
        ),
        1,
      );
      assert.equal(r.responses[0].status, 101);
      assert.equal(r.responses[0].headers['sec-websocket-accept'], acceptFor(key));
      assert.equal(r.responses[0].headers['sec-websocket-protocol'], 'opentabs');
    });
    const good = `Host: HOST\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: opentabs, SECRET\r\n`;
    for (const [what, lines, want] of [
      ['no Sec-WebSocket-Key', good, [400]],
      ['an empty Sec-WebSocket-Key', `${good}Sec-WebSocket-Key:\r\n`, [400]],
      ['a wrong secret', `${good.replace('SECRET', 'nope')}Sec-WebSocket-Key: ${key}\r\n`, [401]],
      ['the secret in Authorization only', `${good.replace(', SECRET', '')}Authorization: Bearer SECRET\r\nSec-WebSocket-Key: ${key}\r\n`, [401]],
      ['a web Origin', `${good}Origin: https://evil.example\r\nSec-WebSocket-Key: ${key}\r\n`, [403]],
      ['no Upgrade header', `${good.replace('Upgrade: websocket\r\n', '')}Sec-WebSocket-Key: ${key}\r\n`, [426]],
    ])
      test(`a WebSocket handshake with ${what} fails (${want})`, async () => {
        const statuses = await statusesUntilClose(s.port, wsHead(lines.replaceAll('SECRET', s.secret).replace('HOST', host) + 'Connection: close\r\n'));
        assert.deepEqual(statuses, want);
      });
  });

  describe('the writer against slow and vanishing readers', () => {
    test('a client that stops reading large answers: others are served, and the write deadline closes it', async () => {
      const pid = s.child.pid;
      const toolsGet = `GET /tools HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${s.secret}\r\n\r\n`;
      // Size of one answer, read whole by a normal client.
      const one = await exchange(s.port, toolsGet, 1);
      assert.equal(one.responses[0].status, 200);
      const answerBytes = Buffer.byteLength(one.responses[0].body);
      assert.ok(answerBytes > 1_000_000, `GET /tools is ${answerBytes} bytes`);

      const stuck = await rawSocket(s.port);
      stuck.on('error', () => {});
      let received = 0;
      let ended = false;
      let reading = true;
      stuck.on('data', (d) => {
        received += d.length;
        if (reading && received > 256 * 1024) stuck.pause(); // read a little, then stop reading
      });
      stuck.on('end', () => (ended = true));
      // Eight answers of ~1.5 MB each: far more than both sockets' buffers hold.
      stuck.write(toolsGet.repeat(8));
      await until(() => received > 256 * 1024, 'the stuck client read its first bytes');
      const inode = await (async () => {
        let found = null;
        await until(() => (found = serverSideInode(s.port, stuck.localPort)) !== null, "the server's end of the stuck connection");
        return found;
      })();
      assert.ok(socketInodes(pid).has(inode));

      // Meanwhile the server answers everyone else.
      for (let i = 0; i < 3; i++) {
        const r = await exchange(s.port, [health(), mcpPing(500 + i)], 2);
        assert.deepEqual(r.responses.map((x) => x.status), [200, 200]);
        assert.equal(answerId(r.responses[1]), 500 + i);
      }
      // The write deadline (1.5 s here) closes the stuck connection on the server's side.
      await until(() => !socketInodes(pid).has(inode), 'the server closed the stuck connection', 20_000);
      // Reading again, the client gets what the kernel still held, then the end: not all
      // eight answers.
      reading = false;
      stuck.resume();
      await until(() => ended || stuck.destroyed, 'the stuck client saw the end', 20_000);
      assert.ok(received < 8 * answerBytes, `received ${received} of ${8 * answerBytes}`);
      stuck.destroy();
      assert.equal((await exchange(s.port, health(), 1)).responses[0].status, 200);
    });

    test('a client that closes in the middle of an answer: the server forgets it and keeps serving', async () => {
      const pid = s.child.pid;
      const toolsGet = `GET /tools HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${s.secret}\r\n\r\n`;
      for (const how of ['end', 'destroy', 'reset']) {
        const sock = await rawSocket(s.port);
        sock.on('error', () => {});
        let received = 0;
        const enough = new Promise((resolve) =>
          sock.on('data', (d) => {
            received += d.length;
            if (received > 100_000) resolve();
          }),
        );
        sock.write(toolsGet.repeat(3));
        await enough;
        let inode = null;
        await until(() => (inode = serverSideInode(s.port, sock.localPort)) !== null || true, 'looked up');
        if (how === 'end') sock.end();
        else if (how === 'destroy') sock.destroy();
        else sock.resetAndDestroy();
        if (inode) await until(() => !socketInodes(pid).has(inode), `the server closed the connection the client ${how}ed`, 20_000);
        const r = await exchange(s.port, [health(), mcpPing(600)], 2);
        assert.deepEqual(r.responses.map((x) => x.status), [200, 200], how);
      }
    });
  });
});
