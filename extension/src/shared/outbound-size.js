// The size cap on what the extension sends the server in one WebSocket message.  The server
// closes the whole socket on a message over 20 MiB (net/limits.hpp max_ws_message_bytes, close
// 1009), which would fail every call in flight; so an oversized reply is replaced here by an
// error reply for that call alone, and any other oversized message is not sent.  Plain logic,
// used by the offscreen document's `ws:send` and unit-tested in Node.

export const MAX_OUTBOUND_BYTES = 20 * 1024 * 1024;

// UTF-8 bytes of `text`, computed only when the character count does not settle it.
function utf8Bytes(text, limit) {
  if (text.length * 3 <= limit) return text.length;  // cannot be over, whatever it holds
  return new TextEncoder().encode(text).byteLength;
}

// The text to send for `message` ({text} within the cap), an error reply for an oversized
// reply ({text, replaced: true}), or {text: null, reason} when nothing can be sent.
export function outboundText(message, limit = MAX_OUTBOUND_BYTES) {
  let text;
  try { text = JSON.stringify(message); } catch (err) { return { text: null, reason: `not JSON: ${err?.message ?? err}` }; }
  if (typeof text !== 'string') return { text: null, reason: 'nothing to send' };
  const bytes = utf8Bytes(text, limit);
  if (bytes <= limit) return { text };
  const isReply = message && typeof message === 'object' && 'id' in message && ('result' in message || 'error' in message);
  if (!isReply) return { text: null, reason: `a message of ${bytes} bytes is over the ${limit} the server accepts` };
  const mib = (n) => `${(n / (1024 * 1024)).toFixed(1)} MiB`;
  return {
    replaced: true,
    text: JSON.stringify({
      jsonrpc: '2.0',
      id: message.id,
      error: { code: -32603, message: `The result was ${mib(bytes)}, more than the ${mib(limit)} one message to the server may carry; only this call failed` },
    }),
  };
}
