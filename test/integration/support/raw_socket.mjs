// A plain TCP socket to the server, for tests that write HTTP by hand (malformed, slow or
// idle requests) and read what came back byte for byte.
import { connect } from 'node:net';

/**
 * A raw TCP socket to the server on `port`, connected.  A reset once connected (the server
 * shedding an idle socket) is seen through 'close'; unheard, it would end the test process.
 */
export function rawSocket(port) {
  return new Promise((resolve, reject) => {
    const sock = connect(port, '127.0.0.1');
    sock.once('connect', () => {
      sock.off('error', reject);
      sock.on('error', () => {});
      resolve(sock);
    });
    sock.once('error', reject);
  });
}

/**
 * Reads from `sock` until what arrived holds `until` (a string it includes or a RegExp it
 * matches; null reads to the end) or the peer closes or resets it; resolves with everything
 * read and whether the socket was closed.
 */
export function readUntil(sock, until) {
  const arrived = typeof until === 'string' ? (got) => got.includes(until) : until ? (got) => until.test(got) : () => false;
  return new Promise((resolve) => {
    let got = '';
    const finish = (closed) => {
      sock.off('data', onData);
      sock.off('close', onClose);
      sock.off('error', onClose);
      resolve({ got, closed });
    };
    const onData = (d) => {
      got += d.toString('latin1');
      if (arrived(got)) finish(false);
    };
    const onClose = () => finish(true);
    sock.on('data', onData);
    sock.on('close', onClose);
    sock.on('error', onClose);
  });
}
