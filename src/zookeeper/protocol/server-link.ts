import net from 'node:net';
import tls from 'node:tls';
import type { ServerAddress } from '../connect-string.js';

/** One server of the connect string (parsed by `parseConnectString`). */
export type { ServerAddress };

/** What a link tells the client: it is open (TLS handshake done), bytes came, it closed. */
export interface ServerLinkEvents {
  opened(): void;
  data(chunk: Buffer): void;
  /** Once, for any end: refused, reset, TLS refused, or our own `close()`. */
  closed(error?: Error): void;
}

/** A byte stream to one server. */
export interface ServerLink {
  send(frame: Buffer): void;
  /** Ends the stream at once (`closed` still fires); a promise, when given, says when its socket is released. */
  close(): void | Promise<void>;
}

/**
 * Opens links. The client dials through this so that the simulated ensemble can hand it
 * simulated sockets and the client's own state machine runs in seeded simulations.
 */
export type Dialer = (address: ServerAddress, events: ServerLinkEvents) => ServerLink;

/** TLS options of `node:tls` (`ca`, `cert`, `key`, `servername`, `rejectUnauthorized`, ...). */
export type ZkTlsOptions = Omit<tls.ConnectionOptions, 'host' | 'port' | 'socket' | 'path'>;

/** Dials over TCP, or over TLS when `tlsOptions` is given. */
export function socketDialer(tlsOptions?: ZkTlsOptions): Dialer {
  return (address, events) => {
    const socket = tlsOptions
      ? tls.connect({ ...tlsOptions, host: address.host, port: address.port, servername: tlsOptions.servername ?? tlsServername(address.host) })
      : net.connect({ host: address.host, port: address.port });
    socket.setNoDelay(true);
    let ended = false;
    const released = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    const end = (error?: Error) => {
      if (ended) return;
      ended = true;
      events.closed(error);
    };
    socket.once(tlsOptions ? 'secureConnect' : 'connect', () => events.opened());
    socket.on('data', (chunk: Buffer) => events.data(chunk));
    socket.once('error', (error) => end(error));
    socket.once('close', () => end());
    // Frames sent in one tick leave in one write (writev): a lock's pipelined requests, or many
    // callers' at once, cost one system call instead of one each.
    let corked = false;
    const uncork = () => {
      corked = false;
      socket.uncork();
    };
    return {
      send: (frame) => {
        if (!corked) {
          corked = true;
          socket.cork();
          process.nextTick(uncork);
        }
        socket.write(frame);
      },
      close: () => {
        socket.destroy();
        end();
        return released;
      },
    };
  };
}

/** SNI carries host names only: an IP address gives none (RFC 6066), and Node warns about it. */
function tlsServername(host: string): string | undefined {
  return net.isIP(host) ? undefined : host;
}
