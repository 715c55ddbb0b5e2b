// The pages the agent benchmark's tasks run on, served from bench/agent/pages on two loopback
// origins (a second port is a second origin, for the cross-origin frame task), with the
// server-side steps some tasks need: the login, portal and archive redirects, each answering late so a
// wait has to span a navigation that is still under way.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PAGES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'pages');

const plain = (s) => String(s ?? '').replace(/[<>&"']/g, '');

// Answers html after delayMs, unless the client went away first.
function later(res, delayMs, html) {
  const timer = setTimeout(() => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(html);
  }, delayMs);
  res.on('close', () => clearTimeout(timer));
}

const ROUTES = {
  '/portal-home': (url, res) => {
    res.writeHead(302, { Location: `/portal-welcome?badge=${encodeURIComponent(url.searchParams.get('badge') ?? '')}` });
    res.end();
  },
  '/portal-welcome': (url, res) => later(res, 700,
    `<!doctype html><title>Portal</title><h1>Welcome, badge ${url.searchParams.get('badge')?.replace(/[^0-9]/g, '') ?? ''}</h1>`),
  '/after-login': (url, res) => later(res, 600,
    `<!doctype html><title>Dashboard</title><h1>Hello again, ${plain(url.searchParams.get('email'))}</h1>`),
  '/archive-go': (url, res) => {
    res.writeHead(303, { Location: `/archive?year=${encodeURIComponent(url.searchParams.get('year') ?? '')}` });
    res.end();
  },
  '/archive': (url, res) => later(res, 800,
    `<!doctype html><title>Archive</title><h1>Archive of ${url.searchParams.get('year')?.replace(/[^0-9]/g, '') ?? ''}</h1><p>12 reports filed.</p>`),
};

function handle(req, res) {
  const url = new URL(req.url, 'http://127.0.0.1');
  const route = ROUTES[url.pathname];
  if (route) return route(url, res);
  const file = path.join(PAGES, path.basename(url.pathname));
  if (!file.endsWith('.html') || !fs.existsSync(file)) { res.writeHead(404); res.end(); return; }
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
  res.end(fs.readFileSync(file));
}

function listen() {
  const server = http.createServer(handle);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

// { url, otherUrl, close }: otherUrl serves the same pages from another origin.
export async function startSites() {
  const [main, other] = [await listen(), await listen()];
  return {
    url: `http://127.0.0.1:${main.address().port}`,
    otherUrl: `http://127.0.0.1:${other.address().port}`,
    close: () => { main.close(); other.close(); },
  };
}
