import type { Socket } from 'node:net';
import { ZooKeeperProtocolError } from '../errors/zookeeper-protocol.error.js';
import { FrameDecoder } from '../zookeeper/protocol/frame-decoder.js';
import { fourLetterWordOf, fourLetterWordRefusal } from './four-letter-words.js';
import { readRequestFrame, writeAuthFailed, writeNotification, writeReply } from '../zookeeper/simulated/frame-codec.js';
import { connectResponseOf, handshakeRequestOf, readConnectRequest } from '../zookeeper/simulated/handshake-codec.js';
import type { ClientPacket, ConnectionClient, Member, ServerConnection } from '../zookeeper/simulated/server-connection.js';
import type { SimulatedEnsemble } from '../zookeeper/simulated/simulated-ensemble.js';
import type { Notification } from '../zookeeper/simulated/znode-tree.js';

/** What a frame session needs of the dev server: the ensemble and its one member. */
export interface FrameSessionHost {
  readonly ensemble: SimulatedEnsemble;
  readonly member: Member;
  /** `jute.maxbuffer`: a longer frame from a client closes its connection, as the server does. */
  readonly maxFrameBytes: number;
  /** A reply went out carrying `zxid`: the tree may have changed (the persistence's cue). */
  replied(zxid: bigint): void;
}

/**
 * One client's TCP connection to the dev server, as ZooKeeper's `ServerCnxn` handles it: the first
 * frame is the `ConnectRequest`, answered once the ensemble made or resumed the session (a resume
 * of a session that ended is answered with timeout 0, then the connection closes); every later
 * frame is a request, executed by the ensemble through the session's `ServerConnection` (in order,
 * one at a time), its reply and the session's watch events written back in order. The codec is
 * the simulator's (`frame-codec.ts`), the semantics the ensemble's: this class only moves bytes.
 *
 * A connection that opens with a four-letter word gets ZooKeeper's refusal of a word it does not
 * execute, then closes (`four-letter-words.ts`). The server closes the connection on unframeable
 * bytes or a garbled request, after an auth packet of a scheme it does not know (AUTHFAILED
 * first), and when the ensemble drops the connection (session expired or closed). The client closing its socket leaves the session to expire.
 */
export class FrameSession implements ConnectionClient {
  readonly actor: string;
  private phase: 'handshaking' | 'waiting' | 'open' | 'closed' = 'handshaking';
  private connection: ServerConnection | undefined;
  private session = 0n;
  private readonly decoder: FrameDecoder;
  /** Frames that came while the handshake was pending: the server reads nothing more until it answered (`NIOServerCnxn.disableRecv`). */
  private readonly early: Buffer[] = [];
  /** The connection's first bytes until there are four: a four-letter word or a frame's length. */
  private head: Buffer | undefined = Buffer.alloc(0);

  constructor(
    private readonly host: FrameSessionHost,
    private readonly socket: Socket,
  ) {
    this.actor = `tcp:${socket.remoteAddress}:${socket.remotePort}`;
    this.decoder = new FrameDecoder(host.maxFrameBytes);
    socket.setNoDelay(true);
    socket.on('data', (chunk) => this.received(chunk));
    socket.on('close', () => this.socketClosed());
    // A reset by the client is its way of leaving: the 'close' that follows ends the connection.
    socket.on('error', () => undefined);
  }

  describe(): string {
    return `${this.actor}/0x${this.session.toString(16)}`;
  }

  /** The ensemble closed the connection (session expired or closed): so does the socket. */
  connectionDropped(connection: ServerConnection): void {
    if (connection === this.connection) this.end();
  }

  notify(type: Notification['type'], path: string): void {
    this.write(writeNotification(type, path));
  }

  /** The server shuts down: the connection goes, the session stays until it expires (or the process ends). */
  close(): void {
    this.connection?.close('server shutting down', true);
    this.end();
  }

  private received(chunk: Buffer): void {
    if (this.phase === 'closed') return;
    if (this.head) {
      this.head = Buffer.concat([this.head, chunk]);
      if (this.head.length < 4) return;
      const word = fourLetterWordOf(this.head);
      if (word !== undefined) {
        this.write(fourLetterWordRefusal(word));
        return this.end();
      }
      chunk = this.head;
      this.head = undefined;
    }
    let frames: Buffer[];
    try {
      frames = this.decoder.push(chunk);
    } catch (error) {
      if (!(error instanceof ZooKeeperProtocolError)) throw error;
      return this.serverCloses(`unframeable bytes: ${error.message}`);
    }
    for (const frame of frames) {
      if (this.phase === 'handshaking') this.handshake(frame);
      else if (this.phase === 'open') this.request(frame);
      else if (this.phase === 'waiting') this.early.push(frame);
    }
  }

  private handshake(frame: Buffer): void {
    let request;
    try {
      request = readConnectRequest(frame);
    } catch (error) {
      if (!(error instanceof ZooKeeperProtocolError)) throw error;
      return this.end();
    }
    this.phase = 'waiting';
    this.session = request.sessionId;
    this.host.ensemble.handshake(
      this.host.member,
      this,
      handshakeRequestOf(request),
      (connection, result) => {
        if (this.phase !== 'waiting') return connection.close('client left during the handshake', true);
        if (!result.ok) {
          this.write(connectResponseOf(result));
          return this.end();
        }
        this.connection = connection;
        this.session = result.session;
        this.phase = 'open';
        this.write(connectResponseOf(result));
        for (const early of this.early.splice(0)) if (this.phase === 'open') this.request(early);
      },
      // The server is behind the client's last zxid (a restart on an older file): it closes without an answer.
      () => this.end(),
    );
  }

  private request(frame: Buffer): void {
    let request;
    try {
      request = readRequestFrame(frame);
    } catch (error) {
      if (!(error instanceof ZooKeeperProtocolError)) throw error;
      return this.serverCloses(`garbled request: ${error.message}`);
    }
    const packet: ClientPacket = {
      request: request.request,
      bytes: frame.length,
      answer: (rc, value, zxid) => {
        this.host.replied(zxid);
        if (!request.badAuth) {
          this.write(writeReply(request, rc, value, zxid));
          // The session is over: the server closes the connection once the answer is out.
          if (request.request.op === 'closeSession') this.end();
          return;
        }
        // AUTHFAILED, then the server closes the connection (`ServerCnxn.sendCloseSession`).
        this.write(writeAuthFailed());
        this.serverCloses('authentication failed');
      },
    };
    // A refused auth packet still waits its turn behind what the client sent before it.
    this.connection!.send(request.badAuth ? { ...packet, request: { op: 'ping' } } : packet);
  }

  private write(frame: Buffer): void {
    if (this.phase !== 'closed' && !this.socket.destroyed) this.socket.write(frame);
  }

  /** The server ends the connection: through the ensemble when it has one, so the session's watches on it go. */
  private serverCloses(why: string): void {
    if (this.connection) this.connection.close(why, true);
    this.end();
  }

  /** Closes the socket once what was written has gone out. */
  private end(): void {
    if (this.phase === 'closed') return;
    this.phase = 'closed';
    this.socket.end();
  }

  private socketClosed(): void {
    // The client left (or we closed): the server forgets the connection, the session lives on until it expires.
    this.connection?.close('client closed the connection', true);
    this.phase = 'closed';
  }
}
