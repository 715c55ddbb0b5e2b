// WebMCP relay, ISOLATED world, document_start, every frame (manifest content script).
//
// Pairs with page-main.js in the same frame: at document_start — before any page script can
// exist — the two exchange a detached DOM node through one synchronous event on `window`, and
// this side hands over a fresh random secret on that node.  From then on every message travels
// as an event on the node, which page scripts cannot reach, and carries the secret.  Whatever a
// page dispatches on `window` afterwards is ignored.
//
// Towards the extension: tool lists go to the background (`webmcp:tools`), which uses the
// sender's own tab/frame/document/URL as Chrome reports them (never what the page claims);
// calls arrive from the background (`webmcp:call`) and are answered with the tool's result.
(() => {
  'use strict';

  const HELLO_FROM_MAIN = 'opentabs-webmcp-main-hello';
  const HELLO_FROM_RELAY = 'opentabs-webmcp-relay-hello';
  const TO_MAIN = 'opentabs-webmcp-to-main';
  const TO_RELAY = 'opentabs-webmcp-to-relay';
  const MAX_REPORT_CHARS = 2 * 1024 * 1024;
  const MAX_PENDING_CALLS = 32;
  const CALL_SLOT_MS = 30_000;

  const secret = crypto.randomUUID();
  let channel = null;
  let lastReportedCount = 0;   // so an empty list is only sent when it retracts something
  let nextCallId = 1;
  const pendingCalls = new Map(); // id -> sendResponse

  function sendToMain(message) {
    if (!channel) return;
    channel.dispatchEvent(new CustomEvent(TO_MAIN, { detail: JSON.stringify({ ...message, secret }) }));
  }

  function toBackground(message) {
    return chrome.runtime.sendMessage({ target: 'background', ...message }).catch(() => null);
  }

  // What the page publishes reaches the service worker at most every SEND_GAP_MS, only when it
  // changed, and never larger than the worker accepts, however fast the page churns: the
  // worker serves every tab and the server, and a page must not be able to keep it busy.
  const SEND_GAP_MS = 500;
  const MAX_SEND_CHARS = 512 * 1024;
  let lastSentText = '[]';
  let lastSentAt = 0;
  let queuedTools = null;
  let sendTimer = 0;

  // One list at a time per frame, and a non-empty one only after the worker granted it
  // (webmcp:offer): the worker paces grants over all tabs, so however many frames a page has,
  // their lists reach it no faster than it lets them.  A refused offer is not sent at all.
  let sending = false;

  async function sendTools(tools, text) {
    lastSentText = text;
    lastSentAt = Date.now();
    lastReportedCount = tools.length;
    sending = true;
    try {
      if (tools.length > 0) {
        const grant = await toBackground({ type: 'webmcp:offer', chars: text.length });
        if (typeof grant?.error === 'string') {
          sendToMain({ kind: 'warn', text: grant.error });
          // Refused for lack of room: ask again (with whatever is current) only after a while.
          const retry = Number(grant.retryAfterMs);
          if (retry > 0) { lastSentAt = Date.now() + Math.min(retry, 60_000) - SEND_GAP_MS; lastSentText = null; queuedTools = queuedTools ?? tools; }
          return;
        }
        if (!grant?.grant) return;
      }
      const reply = await toBackground({ type: 'webmcp:tools', tools });
      // The server refuses tools it cannot accept; the page author learns why on the console.
      for (const r of Array.isArray(reply?.rejected) ? reply.rejected.slice(0, 20) : []) {
        sendToMain({ kind: 'warn', text: `tool ${String(r.tool)} was not forwarded: ${String(r.reason)}` });
      }
      if (typeof reply?.error === 'string') sendToMain({ kind: 'warn', text: reply.error });
    } finally {
      sending = false;
      // What the page published meanwhile goes next.
      if (queuedTools && !sendTimer) sendTimer = setTimeout(flushTools, Math.max(0, lastSentAt + SEND_GAP_MS - Date.now()));
    }
  }

  function flushTools() {
    sendTimer = 0;
    if (sending) return;
    const tools = queuedTools;
    queuedTools = null;
    if (!tools) return;
    const text = JSON.stringify(tools);
    if (text === lastSentText) return;
    if (text.length > MAX_SEND_CHARS) {
      sendToMain({ kind: 'warn', text: `this frame's WebMCP tools take ${text.length} characters, more than the ${MAX_SEND_CHARS} OpenTabs forwards; none were forwarded` });
      return;
    }
    sendTools(tools, text);
  }

  function reportTools(tools) {
    if (tools.length === 0 && lastReportedCount === 0 && !queuedTools) return;
    queuedTools = tools;
    if (!sendTimer && !sending) sendTimer = setTimeout(flushTools, Math.max(0, lastSentAt + SEND_GAP_MS - Date.now()));
  }

  function onFromMain(event) {
    const text = event.detail;
    if (typeof text !== 'string' || text.length > MAX_REPORT_CHARS) return;
    let message;
    try { message = JSON.parse(text); } catch { return; }
    if (!message || message.secret !== secret) return;
    if (message.kind === 'tools' && Array.isArray(message.tools)) {
      reportTools(message.tools);
    } else if (message.kind === 'result') {
      const respond = pendingCalls.get(message.id);
      if (!respond) return;
      pendingCalls.delete(message.id);
      respond(typeof message.error === 'string' ? { error: message.error } : { result: message.result });
    }
  }

  function adopt(node) {
    if (channel || !(node instanceof Node)) return;
    channel = node;
    window.removeEventListener(HELLO_FROM_MAIN, onMainHello, true);
    channel.addEventListener(TO_RELAY, onFromMain);
    channel.dispatchEvent(new CustomEvent(TO_MAIN, { detail: JSON.stringify({ kind: 'ready', secret }) }));
  }
  function onMainHello(event) { adopt(event.relatedTarget); }

  window.addEventListener(HELLO_FROM_MAIN, onMainHello, true);
  // If page-main.js ran first it is waiting for this and answers synchronously.
  window.dispatchEvent(new Event(HELLO_FROM_RELAY));

  chrome.runtime.onMessage.addListener((msg, sender, sendResponse) => {
    if (msg?.target !== 'webmcp-frame' || sender.id !== chrome.runtime.id || sender.tab) return false;
    if (msg.type === 'webmcp:call') {
      if (!channel) { sendResponse({ error: 'The WebMCP relay of this page is not ready' }); return false; }
      if (pendingCalls.size >= MAX_PENDING_CALLS) { sendResponse({ error: 'Too many WebMCP calls in flight on this page' }); return false; }
      const id = nextCallId++;
      // A page that never settles its promise must not hold a slot for ever (the background
      // gives up after 28 s).
      const timer = setTimeout(() => {
        if (pendingCalls.delete(id)) sendResponse({ error: `The page did not answer the call of "${String(msg.tool)}"` });
      }, CALL_SLOT_MS);
      pendingCalls.set(id, (reply) => { clearTimeout(timer); sendResponse(reply); });
      sendToMain({ kind: 'call', id, tool: String(msg.tool), args: msg.args ?? {} });
      return true;
    }
    if (msg.type === 'webmcp:ping') { sendResponse({ ok: true, tools: lastReportedCount }); return false; }
    if (msg.type === 'webmcp:resend') { lastReportedCount = Math.max(lastReportedCount, 1); lastSentText = null; sendToMain({ kind: 'resend' }); sendResponse({ ok: true }); return false; }
    return false;
  });

  // Leaving the page (or entering the back/forward cache) retracts its tools; a restored page
  // re-publishes them (page-main.js listens for pageshow).
  window.addEventListener('pagehide', () => {
    clearTimeout(sendTimer);
    sendTimer = 0;
    queuedTools = null;
    if (lastReportedCount === 0) return;
    sendTools([], '[]');
  }, true);
})();
