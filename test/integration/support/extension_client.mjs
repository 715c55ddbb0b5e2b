// A scripted stand-in for the Chrome extension, speaking the real /ws protocol (spec §3):
// connects with subprotocols ['opentabs', secret, connectionId], records every message,
// answers server requests (tool.dispatch, browser.*) through handlers the test installs,
// and can send any extension→server message.  It replaces the browser only where a test
// is about the server; the Chromium e2e suite runs the real extension.
import WebSocket from 'ws';
import { DISPATCH_METHODS } from '../../../extension/src/shared/allowed-methods.js';

export class ExtensionClient {
  /**
   * @param {{port:number, secret:string}} server
   * @param {{connectionId?: string|null, protocols?: string[], origin?: string, capabilities?: boolean|string[]}} [opts]
   *   capabilities: announce request methods as our extension does (extension.capabilities) —
   *   `true` for our extension's own list, or an explicit list; default: announce nothing, as
   *   the original OpenTabs extension does.
   */
  constructor(server, opts = {}) {
    this.server = server;
    this.connectionId = opts.connectionId === undefined ? `test-${Math.random().toString(16).slice(2)}` : opts.connectionId;
    this.protocols = opts.protocols ?? ['opentabs', server.secret, ...(this.connectionId ? [this.connectionId] : [])];
    this.origin = opts.origin;
    this.capabilities = opts.capabilities === true ? DISPATCH_METHODS : opts.capabilities;
    this.messages = [];
    this.handlers = new Map(); // method → async (params, msg) => result | throws {code,message,data}
    this.waiters = [];
    this.nextId = 1;
    this.pending = new Map();
  }

  async connect() {
    this.ws = new WebSocket(`ws://127.0.0.1:${this.server.port}/ws`, this.protocols, {
      headers: this.origin ? { Origin: this.origin } : {},
    });
    this.closed = new Promise((resolve) => this.ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    this.ws.on('message', (data) => this.#onMessage(data.toString()));
    await new Promise((resolve, reject) => {
      this.ws.once('open', resolve);
      this.ws.once('unexpected-response', (_req, res) => reject(Object.assign(new Error(`HTTP ${res.statusCode}`), { status: res.statusCode })));
      this.ws.once('error', reject);
    });
    if (this.capabilities) {
      // As a request, so the server has recorded it before the test goes on.
      const reply = await this.request('extension.capabilities', { methods: this.capabilities, extensionVersion: 'test' });
      if (reply.error) throw new Error(`extension.capabilities: ${reply.error.message}`);
    }
    return this;
  }

  /** Handle server requests of `method`; the function returns the result or throws {code, message, data}. */
  on(method, fn) {
    this.handlers.set(method, fn);
    return this;
  }

  #onMessage(text) {
    const msg = JSON.parse(text);
    this.messages.push(msg);
    if (msg.id !== undefined && msg.method === undefined) {
      const p = this.pending.get(msg.id);
      if (p) {
        this.pending.delete(msg.id);
        p(msg);
      }
    }
    for (const w of [...this.waiters]) {
      if (w.pred(msg)) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve(msg);
      }
    }
    if (msg.method && msg.id !== undefined) {
      const h = this.handlers.get(msg.method);
      if (!h) return;
      Promise.resolve()
        .then(() => h(msg.params, msg))
        .then(
          (result) => result !== undefined && this.send({ jsonrpc: '2.0', id: msg.id, result }),
          (err) => this.send({ jsonrpc: '2.0', id: msg.id, error: { code: err.code ?? -32603, message: err.message, ...(err.data ? { data: err.data } : {}) } }),
        );
    }
  }

  /** The first recorded or future message matching pred (default timeout 5 s). */
  waitFor(pred, timeoutMs = 5000) {
    const seen = this.messages.find(pred);
    if (seen) return Promise.resolve(seen);
    return this.next(pred, timeoutMs);
  }

  /** The next future message matching pred. */
  next(pred, timeoutMs = 5000) {
    return new Promise((resolve, reject) => {
      const w = { pred, resolve };
      this.waiters.push(w);
      setTimeout(() => {
        const i = this.waiters.indexOf(w);
        if (i >= 0) {
          this.waiters.splice(i, 1);
          reject(new Error(`no matching message within ${timeoutMs} ms`));
        }
      }, timeoutMs).unref();
    });
  }

  send(obj) {
    this.ws.send(typeof obj === 'string' ? obj : JSON.stringify(obj));
  }

  notify(method, params) {
    this.send({ jsonrpc: '2.0', method, ...(params !== undefined ? { params } : {}) });
  }

  /**
   * Sends a request and resolves with the server's reply message; rejects after `timeoutMs`
   * (a config change is answered only once it is in config.json, which may wait for the lock).
   */
  request(method, params, { timeoutMs = 5000 } = {}) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, resolve);
      this.send({ jsonrpc: '2.0', id, method, ...(params !== undefined ? { params } : {}) });
      setTimeout(() => this.pending.has(id) && (this.pending.delete(id), reject(new Error(`${method}: no reply`))), timeoutMs).unref();
    });
  }

  close(code = 1000) {
    this.ws.close(code);
    return this.closed;
  }

  terminate() {
    this.ws.terminate();
  }
}
