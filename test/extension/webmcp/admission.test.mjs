// Unit tests of extension/src/webmcp/admission.js: which frames' WebMCP tool lists the service
// worker keeps (caps per frame, origin, tab, site and in all, and who gives way) and the
// ReportPacer that grants pages their turn to send.  Runs in Node; the same file runs in the
// extension, and test/e2e/webmcp_flood.test.mjs drives the real one from a hostile page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importExtension } from '../support.mjs';

const { admit, CAPS, ReportPacer } = await importExtension('webmcp/admission.js');

let clock = 0;
const frame = (tabId, frameId, origin, site, chars = 100) => ({ tabId, frameId, origin, site, chars, at: (clock += 1) });
const store = (list) => new Map(list.map((f) => [`${f.tabId}:${f.frameId}`, f]));

test('one tab with 208 tiny iframes from 13 origins keeps only its share; another site still gets in', () => {
  const frames = new Map();
  let refused = 0;
  for (let i = 0; i < 208; i += 1) {
    const f = frame(1, i + 1, `http://o${i % 13}.localhost`, 'http://evil.test');
    const r = admit(frames, f);
    if (r.refused) { refused += 1; continue; }
    for (const d of r.drop) frames.delete(`${d.tabId}:${d.frameId}`);
    frames.set(`${f.tabId}:${f.frameId}`, f);
  }
  assert.equal(frames.size, CAPS.tabFrames, 'the tab holds its 32 frames');
  assert.equal(refused, 208 - CAPS.tabFrames);
  const other = admit(frames, frame(2, 0, 'http://good.test', 'http://good.test'));
  assert.equal(other.refused, null);
  assert.deepEqual(other.drop, []);
});

test('the refusal names the tab limit; the tab\'s own top frame takes its oldest subframe\'s place', () => {
  const frames = store(Array.from({ length: CAPS.tabFrames }, (_, i) => frame(1, i + 1, 'http://a.test', 'http://top.test', 10)));
  const sub = admit(frames, frame(1, 99, 'http://b.test', 'http://top.test'));
  assert.match(sub.refused, /this tab already publishes WebMCP tools from 32 frames/);
  const top = admit(frames, frame(1, 0, 'http://top.test', 'http://top.test'));
  assert.equal(top.refused, null);
  assert.equal(top.drop.length, 1);
  assert.equal(top.drop[0].frameId, 1, 'the oldest subframe gives way');
});

test('a site over many tabs is capped; other sites are not', () => {
  const list = [];
  for (let t = 0; t < 4; t += 1) for (let i = 0; i < 16; i += 1) list.push(frame(10 + t, i + 1, `http://o${i}.evil.test`, 'http://evil.test', 10));
  const frames = store(list);
  assert.match(admit(frames, frame(20, 1, 'http://o99.evil.test', 'http://evil.test')).refused, /the tabs of http:\/\/evil.test already publish/);
  assert.equal(admit(frames, frame(30, 0, 'http://good.test', 'http://good.test')).refused, null);
});

test('when everything is full, the site holding the most gives way, never a smaller one', () => {
  // Four sites of 50 frames each fill the 200-frame total.
  const list = [];
  for (let s = 0; s < 4; s += 1) for (let i = 0; i < 50; i += 1) list.push(frame(100 + s * 10 + Math.floor(i / 25), i + 1, `http://o${i % 16}.s${s}.test`, `http://s${s}.test`, 10));
  const frames = store(list);
  assert.equal(frames.size, CAPS.totalFrames);
  const small = admit(frames, frame(7, 0, 'http://good.test', 'http://good.test'));
  assert.equal(small.refused, null, 'a site with nothing gets in');
  assert.equal(small.drop.length, 1);
  assert.match(small.drop[0].site, /^http:\/\/s\d\.test$/);
  // A fifth frame of an already-biggest site finds no bigger site to take from.
  const more = admit(frames, frame(100, 99, 'http://o1.s0.test', 'http://s0.test'));
  assert.match(more.refused, /no site holds more than this one/);
});

test('characters: the total 4 MiB is shared the same way', () => {
  const big = 400 * 1024;
  const list = [];
  // Two sites of 5 frames × 400 KiB (2 MB each, under the 3 MiB site cap) fill the 4 MiB total.
  for (let s = 0; s < 2; s += 1) for (let i = 0; i < 5; i += 1) list.push(frame(50 + s, i + 1, `http://o${i}.s${s}.test`, `http://s${s}.test`, big));
  const frames = store(list);
  const r = admit(frames, frame(9, 0, 'http://good.test', 'http://good.test', 300 * 1024));
  assert.equal(r.refused, null);
  assert.ok(r.drop.length >= 1 && r.drop.every((f) => f.site !== 'http://good.test'));
});

test('a frame over 512 KiB and an origin over its share behave as before', () => {
  assert.match(admit(new Map(), frame(1, 0, 'http://a.test', 'http://a.test', CAPS.frameChars + 1)).refused, /larger than/);
  const frames = store(Array.from({ length: 16 }, (_, i) => frame(i + 1, 0, 'http://a.test', 'http://a.test', 10)));
  const r = admit(frames, frame(40, 0, 'http://a.test', 'http://a.test', 10));
  assert.equal(r.refused, null);
  assert.equal(r.drop.length, 1, 'the origin\'s oldest frame gives way');
  assert.equal(r.drop[0].tabId, 1);
});

test('ReportPacer: tabs take turns and the rate holds over all tabs', async () => {
  let now = 0;
  const timers = [];
  const pacer = new ReportPacer({ rate: 1000, burst: 500, minCost: 1, now: () => now, setTimer: (fn, ms) => { timers.push({ fn, at: now + ms }); return timers.length; }, clearTimer: () => {} });
  const order = [];
  const flood = [];
  for (let i = 0; i < 5; i += 1) flood.push(pacer.request(1, `1:${i}`, 400).then((ok) => order.push(`flood${i}:${ok}`)));
  const quiet = pacer.request(2, '2:0', 10).then((ok) => order.push(`quiet:${ok}`));
  // The first flood frame went at once (burst); the quiet tab waits for one flood grant at
  // most (flood1 was first in line), not for the whole flood.
  const step = async () => {
    const t = timers.shift();
    now = t.at;
    t.fn();
    await new Promise((r) => setImmediate(r));
  };
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(order, ['flood0:true']);
  while (timers.length > 0) await step();
  await Promise.all([...flood, quiet]);
  assert.deepEqual(order, ['flood0:true', 'flood1:true', 'quiet:true', 'flood2:true', 'flood3:true', 'flood4:true']);
  // 5 × 400 + 10 characters at 1000/s with a 500 burst: the last grant comes after ≥ 1.5 s.
  assert.ok(now >= 1500, `all granted by ${now} ms`);
});

test('ReportPacer: a closed tab\'s waiting requests resolve false; a newer request replaces an older one', async () => {
  const pacer = new ReportPacer({ rate: 1, burst: 10, minCost: 1, setTimer: () => 1, clearTimer: () => {} });
  assert.equal(await pacer.request(1, '1:0', 10), true);
  const a = pacer.request(1, '1:1', 10);
  const b = pacer.request(1, '1:1', 10);
  assert.equal(await a, false);
  const c = pacer.request(2, '2:0', 10);
  pacer.cancelTab(1);
  pacer.cancelTab(2);
  assert.equal(await b, false);
  assert.equal(await c, false);
  assert.equal(pacer.waiting, 0);
});

test('ReportPacer: tiny lists still cost minCost, so a page of many small frames is paced too', async () => {
  let now = 0;
  const timers = [];
  const pacer = new ReportPacer({ rate: 1000, burst: 100, minCost: 100, now: () => now, setTimer: (fn, ms) => { timers.push({ fn, at: now + ms }); return 1; }, clearTimer: () => {} });
  let granted = 0;
  const all = Array.from({ length: 11 }, (_, i) => pacer.request(1, `1:${i}`, 1).then(() => { granted += 1; }));
  await new Promise((r) => setImmediate(r));
  assert.equal(granted, 1, 'one grant from the burst, the rest wait');
  while (timers.length > 0) { const t = timers.shift(); now = t.at; t.fn(); await new Promise((r) => setImmediate(r)); }
  await Promise.all(all);
  assert.equal(granted, 11);
  assert.ok(now >= 1000, `10 more grants of cost 100 at 1000/s take ≥ 1 s (took ${now} ms)`);
});
