import { JuteReader } from '../protocol/jute-reader.js';
import { JuteWriter } from '../protocol/jute-writer.js';
import type { Handshake, HandshakeRequest } from './server-connection.js';

// The server's half of the connect handshake, for both frame servers (`SimulatedLink` and the dev
// server's `FrameSession`): the `ConnectRequest` it reads, what it asks the ensemble for it, and
// the `ConnectResponse` it writes back. Layouts are `zookeeper.jute`'s.

/** `ConnectRequest` as the server reads it. */
export interface ConnectRequestRecord {
  readonly lastZxidSeen: bigint;
  readonly timeoutMs: number;
  readonly sessionId: bigint;
  readonly password: Buffer;
}

export function readConnectRequest(frame: Buffer): ConnectRequestRecord {
  const r = new JuteReader(frame, 'connect request');
  r.int(); // protocolVersion
  const lastZxidSeen = r.long();
  const timeoutMs = r.int();
  // Jute longs are signed; the ensemble keeps session ids unsigned (a server id of 255 sets the top bit).
  const sessionId = BigInt.asUintN(64, r.long());
  const password = r.buffer();
  if (r.remaining > 0) r.bool(); // readOnly: the simulated servers are never read-only
  r.end();
  return { lastZxidSeen, timeoutMs, sessionId, password };
}

/** `ConnectResponse`; a timeout of 0 tells the client that the session it resumed is gone. */
export function writeConnectResponse(timeoutMs: number, sessionId: bigint, password: Buffer): Buffer {
  return new JuteWriter(64).int(0).int(timeoutMs).long(sessionId).buffer(password).bool(false).frame();
}

/** What the ensemble is asked for a connect request: its session (0: a new one), password, timeout and last zxid; identities come after, as auth packets. */
export function handshakeRequestOf(request: ConnectRequestRecord): HandshakeRequest {
  return { session: request.sessionId, password: request.password.toString('hex'), timeoutMs: request.timeoutMs, lastZxidSeen: request.lastZxidSeen, ids: [] };
}

/**
 * The connect response for the ensemble's answer: the session granted, or, refused, the server's
 * last words (`ZooKeeperServer.finishSessionInit`): timeout 0, the session is gone; the server
 * then closes the connection.
 */
export function connectResponseOf(result: Handshake): Buffer {
  return result.ok ? writeConnectResponse(result.timeoutMs, result.session, Buffer.from(result.password, 'hex')) : writeConnectResponse(0, 0n, Buffer.alloc(16));
}
