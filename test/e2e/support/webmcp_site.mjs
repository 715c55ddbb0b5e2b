// A tiny static server for the WebMCP e2e pages (test/fixtures/site/pages/webmcp/) and the
// @mcp-b/global polyfill from test/node_modules, on an ephemeral loopback port.  Pages are
// reachable as http://127.0.0.1:<port>/webmcp/<page> and http://localhost:<port>/webmcp/<page>
// (two origins, so frames can be cross-site).
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { SOURCE_DIR } from './harness.mjs';

const PAGES = path.join(SOURCE_DIR, 'test/fixtures/site/pages/webmcp');
const POLYFILL = path.join(SOURCE_DIR, 'test/node_modules/@mcp-b/global/dist/index.iife.js');

export async function startWebmcpSite() {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    let file = null;
    if (url.pathname === '/vendor/mcp-b-global.iife.js') file = POLYFILL;
    else if (/^\/webmcp\/[a-z-]+\.html$/.test(url.pathname)) file = path.join(PAGES, path.basename(url.pathname));
    if (!file || !fs.existsSync(file)) { res.writeHead(404).end('not found'); return; }
    res.writeHead(200, {
      'Content-Type': file.endsWith('.js') ? 'text/javascript' : 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
    });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    port,
    url: (page, host = '127.0.0.1') => `http://${host}:${port}/webmcp/${page}`,
    // The MCP name prefix of a site served here: webmcp_<slug>_
    prefix: (host = '127.0.0.1') => `webmcp_${host.replace(/[.:]/g, '_')}_${port}_`,
    key: (host = '127.0.0.1') => `webmcp:${host.replace(/[.:]/g, '_')}_${port}`,
    close: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(resolve); }),
  };
}
