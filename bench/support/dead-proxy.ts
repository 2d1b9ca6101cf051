/**
 * A loopback listener posing as the HTTP proxy of a server under benchmark: every connection is counted and closed
 * at once. A server that tried to reach the network through its configured proxy shows up here, so the report can
 * state that no request left the machine (and that the comparison used local schemas only).
 */
import { createServer } from 'node:net';
import type { Server } from 'node:net';

/** A listening dead proxy. */
export interface DeadProxy {
  /** The proxy URL to give the server (`http://127.0.0.1:<port>`). */
  readonly url: string;
  /** Connections attempted so far. */
  readonly connections: () => number;
  /** Stops listening. */
  readonly close: () => Promise<void>;
}

/** Starts a dead proxy on a free loopback port. */
export function startDeadProxy(): Promise<DeadProxy> {
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        reject(new Error('the dead proxy has no port'));
        return;
      }
      resolve({
        url: `http://127.0.0.1:${address.port}`,
        connections: () => connections,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}
