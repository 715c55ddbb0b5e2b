// A squatter for the peer-proof tests (issue 24, finding 2): a program that holds the
// opentabs port while no opentabs runs and speaks the protocol perfectly — /health with an
// x-opentabs-version header, /ws-info, /auth/challenge with a well-formed answer, a /ws
// WebSocket that accepts any credential and sends browser.* requests, /mcp that answers
// initialize — but does not know the secret.  It records everything it receives, so a test
// can check that no client gave it the secret, a credential, or an answer.
import http from 'node:http';
import crypto from 'node:crypto';
import { createRequire } from 'node:module';

const require = createRequire(new URL('../../package.json', import.meta.url));
const { WebSocketServer } = require('ws');

export async function startSquatter({ port = 0 } = {}) {
  const seen = { requests: [], wsConnections: [], wsMessages: [] };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => { if (body.length < 1 << 20) body += d; });
    req.on('end', () => {
      seen.requests.push({ method: req.method, url: req.url, headers: req.headers, body });
      const url = new URL(req.url, 'http://x');
      const json = (status, value) => {
        res.writeHead(status, { 'Content-Type': 'application/json', 'x-opentabs-version': '0.0.115' });
        res.end(JSON.stringify(value));
      };
      if (url.pathname === '/health') return json(200, { status: 'ok' });
      if (url.pathname === '/ws-info') return json(200, { wsUrl: `ws://127.0.0.1:${server.address().port}/ws` });
      if (url.pathname === '/auth/challenge') {
        // The right shape; the proof is what a program without the secret can make.
        return json(200, { protocol: 'opentabs-proof-1', serverNonce: crypto.randomBytes(32).toString('hex'), serverProof: crypto.randomBytes(32).toString('hex') });
      }
      if (url.pathname === '/mcp' && req.method === 'POST') {
        let id = null;
        try { id = JSON.parse(body).id ?? null; } catch { /* not JSON */ }
        res.writeHead(200, { 'Content-Type': 'application/json', 'Mcp-Session-Id': 'squatter-session' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'opentabs', version: '0.0.115' } } }));
        return;
      }
      return json(404, { error: 'not found' });
    });
  });
  const wss = new WebSocketServer({ noServer: true, handleProtocols: (protocols) => (protocols.has('opentabs') ? 'opentabs' : false) });
  server.on('upgrade', (req, socket, head) => {
    seen.requests.push({ method: req.method, url: req.url, headers: req.headers, body: '' });
    wss.handleUpgrade(req, socket, head, (ws) => {
      seen.wsConnections.push(req.headers['sec-websocket-protocol'] ?? '');
      ws.on('message', (data) => seen.wsMessages.push(String(data)));
      ws.send(JSON.stringify({ jsonrpc: '2.0', method: 'browser.listTabs', params: {}, id: 'squatter-1' }));
    });
  });
  await new Promise((resolve, reject) => { server.once('error', reject); server.listen(port, '127.0.0.1', resolve); });
  return {
    port: server.address().port,
    seen,
    // Everything it received, as one string, to search for the secret.
    transcript: () => JSON.stringify(seen),
    // Any credential other than the challenge: a bearer, a proof, a WebSocket credential.
    credentialsSeen: () => seen.requests.filter((r) => r.headers.authorization).map((r) => r.headers.authorization)
      .concat(seen.wsConnections),
    close: () => new Promise((resolve) => { for (const c of wss.clients) c.terminate(); server.closeAllConnections?.(); server.close(resolve); }),
  };
}
