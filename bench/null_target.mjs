// The benchmark's null HTTP target: answers every request on a keep-alive connection with a
// fixed small JSON response, doing no other work, so running bench.mjs's load generator
// against it measures the generator's own ceiling and latency floor on this machine.
import net from 'node:net';

const BODY = '{"content":[{"type":"text","text":"{\\"ok\\":true}"}]}';
const RESPONSE = Buffer.from(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(BODY)}\r\n\r\n${BODY}`);

const server = net.createServer((sock) => {
  sock.setNoDelay(true);
  let buf = Buffer.alloc(0);
  sock.on('data', (d) => {
    buf = buf.length ? Buffer.concat([buf, d]) : d;
    for (;;) {
      const headEnd = buf.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const m = /content-length: *(\d+)/i.exec(buf.toString('latin1', 0, headEnd));
      const end = headEnd + 4 + (m ? Number(m[1]) : 0);
      if (buf.length < end) return;
      buf = buf.subarray(end);
      sock.write(RESPONSE);
    }
  });
  sock.on('error', () => {});
});
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
