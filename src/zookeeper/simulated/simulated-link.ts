import { ZooKeeperProtocolError } from '../../errors/zookeeper-protocol.error.js';
import { FrameDecoder } from '../protocol/frame-decoder.js';
import type { Dialer, ServerLink, ServerLinkEvents } from '../protocol/server-link.js';
import { readRequestFrame, writeAuthFailed, writeNotification, writeReply } from './frame-codec.js';
import { connectResponseOf, handshakeRequestOf, readConnectRequest } from './handshake-codec.js';
import { describeReply, describeRequest, zerror } from './native-replies.js';
import type { ClientPacket, ConnectionClient, ServerConnection } from './server-connection.js';
import type { HandleHost } from './simulated-handle.js';
import type { Notification } from './znode-tree.js';

/** What a simulated socket needs of the ensemble (`SimulatedEnsemble`). */
export type LinkHost = Pick<HandleHost, 'scheduler' | 'member' | 'isPartitioned' | 'handshake'> & { latency(): number };

/** Frames the client reads are sometimes cut in two, as TCP may: the client's framing must put them together. */
const SPLIT_CHANCE = 1 / 8;

/** The `Dialer` of the TypeScript client over a simulated ensemble: each link is a `SimulatedLink`. */
export function simulatedDialer(host: LinkHost): Dialer {
  return (address, events) => new SimulatedLink(host, `${address.host}:${address.port}`, events);
}

/**
 * A TCP connection from the TypeScript client (`ProtocolSession`) to one simulated server, and
 * that server's frame handling: the client writes jute frames, the server reads them with the
 * client's own codec (`frame-codec.ts`), executes them through the ensemble's connection
 * (`ServerConnection`: in order, with the network's delays, partitions and faults) and writes the
 * replies, notifications and ping replies back as frames. It belongs to the actor that dialed it:
 * every event of the client's side runs as that actor's step.
 *
 * What a real server does at each step:
 * - the TCP connect: a member that is down refuses it (ECONNREFUSED); a client cut off hears
 *   nothing until the partition ends (its SYN is sent again), and its connect timeout decides;
 * - the handshake: a member without quorum, or behind the client's last zxid, closes the
 *   connection without answering; a resume of a session that ended is answered with timeout 0,
 *   then the connection closes (`ZooKeeperServer.finishSessionInit`);
 * - an auth packet of an unknown scheme is answered AUTHFAILED, then the connection closes;
 * - a garbled request closes the connection;
 * - a dropped connection (fault, server stop, lost reply, session moved or expired) closes the link;
 *   a partition makes it silent, both ways, until it ends or one side gives up.
 */
export class SimulatedLink implements ServerLink, ConnectionClient {
  readonly actor: string;
  /** TCP connect, then the ConnectRequest awaited (`handshaking`) and answered (`waiting`), then requests. */
  private phase: 'dialing' | 'handshaking' | 'waiting' | 'open' | 'closed' = 'dialing';
  private connection: ServerConnection | undefined;
  private session = 0n;
  /** A reply held back by the `swapReplies` fault, delivered after the next one. */
  private heldReply: Buffer | undefined;
  /** The server's framing of what the client writes (the server's bound is `jute.maxbuffer`, checked per packet). */
  private readonly decoder = new FrameDecoder(0x7fffffff);

  constructor(
    private readonly host: LinkHost,
    private readonly server: string,
    private readonly events: ServerLinkEvents,
  ) {
    this.actor = host.scheduler.actor;
    this.dial(0);
  }

  /**
   * The TCP connect. A client cut off hears nothing; like a kernel, it sends its SYN again (Linux:
   * after 1 s, then each wait doubled), so a connect still pending when the partition ends gets
   * through. The client's connect timeout decides when to give up (it closes the link).
   */
  private dial(attempt: number): void {
    const { host, server, events } = this;
    const s = host.scheduler;
    if (this.phase !== 'dialing') return;
    if (host.isPartitioned(this.actor)) {
      s.note(`dials ${server}: no answer (cut off)`);
      s.schedule(1000 * 2 ** attempt, () => this.dial(attempt + 1), 'tcp syn again', this.actor);
      return;
    }
    s.schedule(2 * host.latency(), () => {
      if (this.phase !== 'dialing') return;
      const member = host.member(server);
      if (!member?.up) return this.lost(new Error(`connect ECONNREFUSED ${server}`));
      this.phase = 'handshaking';
      events.opened();
    }, 'tcp connect', this.actor);
  }

  describe(): string {
    return `${this.actor}/0x${this.session.toString(16)}`;
  }

  send(frame: Buffer): void {
    if (this.phase === 'closed') return;
    let frames: Buffer[];
    try {
      frames = this.decoder.push(frame);
    } catch (error) {
      return this.serverCloses(`unframeable bytes: ${(error as Error).message}`);
    }
    for (const one of frames) {
      if (this.phase === 'handshaking') this.handshake(one);
      else if (this.phase === 'open') this.request(one);
      // While `waiting`: the client writes nothing before the ConnectResponse (its outbox waits).
    }
  }

  close(): void {
    if (this.phase === 'closed') return;
    this.phase = 'closed';
    // Our side of the socket closes; the server sees it go, and keeps the session until closeSession or expiry.
    this.connection?.close('client closed the connection', true);
    this.events.closed();
  }

  // ---------------------------------------------------------------- the server's side calls these

  notify(type: Notification['type'], path: string): void {
    this.deliver(writeNotification(type, path));
  }

  connectionDropped(connection: ServerConnection): void {
    // Ours, also while the handshake's answer is still on its way (the link learns its connection
    // from that answer, which a closed connection never sends): a link is one TCP connection.
    if (connection === this.connection || (this.phase === 'waiting' && connection.handle === this)) {
      this.lost(new Error(`read ECONNRESET: ${this.server} closed the connection`));
    }
  }

  // ---------------------------------------------------------------- internals

  private handshake(frame: Buffer): void {
    const member = this.host.member(this.server);
    // Removed from the ensemble by a reconfig since the TCP connect: it closes the connection.
    if (!member) return this.lost(new Error(`${this.server} closed the connection: no longer a member of the ensemble`));
    let request;
    try {
      request = readConnectRequest(frame);
    } catch (error) {
      if (!(error instanceof ZooKeeperProtocolError)) throw error;
      return this.lost(new Error(`${this.server} closed the connection: ${error.message}`));
    }
    this.phase = 'waiting';
    // Cut off after the TCP connect: the handshake never arrives, the client's connect timeout decides.
    if (this.host.isPartitioned(this.actor)) return;
    this.session = request.sessionId;
    this.host.handshake(
      member,
      this,
      handshakeRequestOf(request),
      (connection, result) => {
        if (this.phase !== 'waiting') return connection.close('client gave up on this attempt', true);
        if (!result.ok) {
          this.deliver(connectResponseOf(result));
          return this.lost(new Error(`${this.server} closed the connection after refusing session 0x${request.sessionId.toString(16)}`));
        }
        this.connection = connection;
        this.session = result.session;
        this.phase = 'open';
        this.deliver(connectResponseOf(result));
      },
      () => this.lost(new Error(`${this.server} closed the connection without answering the handshake`)),
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
    const s = this.host.scheduler;
    const traced = s.tracer !== undefined && request.request.op !== 'ping';
    if (traced) s.note(`→ ${describeRequest(request.request)}`);
    const packet: ClientPacket = {
      request: request.request,
      bytes: frame.length,
      answer: (rc, value, zxid) => {
        if (traced) s.note(`← ${request.request.op} ${'path' in request.request ? request.request.path : ''} ${rc === 0 ? 'ok' : zerror(rc)}${describeReply(value)}`);
        if (!request.badAuth) return this.deliverReply(writeReply(request, rc, value, zxid));
        // AUTHFAILED, then the server closes the connection (`ServerCnxn.sendCloseSession`).
        this.deliver(writeAuthFailed());
        this.serverCloses('authentication failed');
      },
    };
    // A refused auth packet still travels in order behind what the client wrote before it.
    this.connection!.send(request.badAuth ? { ...packet, request: { op: 'ping' } } : packet);
  }

  /** A reply; the `swapReplies` fault holds one back until the next is written. */
  private deliverReply(frame: Buffer): void {
    const held = this.heldReply;
    if (held) {
      this.heldReply = undefined;
      this.deliver(frame);
      if (this.isOpen) this.deliver(held);
    } else if (this.connection?.swapReplies) {
      this.connection.swapReplies = false;
      this.heldReply = frame;
    } else {
      this.deliver(frame);
    }
  }

  /** Bytes from the server, in this actor's step; now and then in two pieces. */
  private deliver(frame: Buffer): void {
    if (this.phase === 'closed') return;
    const random = this.host.scheduler.random;
    if (frame.length > 1 && random.chance(SPLIT_CHANCE)) {
      const at = random.between(1, frame.length - 1);
      this.events.data(frame.subarray(0, at));
      // The first piece may have made the client give this link up.
      if (this.isOpen) this.events.data(frame.subarray(at));
    } else {
      this.events.data(frame);
    }
  }

  private get isOpen(): boolean {
    return this.phase !== 'closed';
  }

  /** The server ends the connection: the client hears of it after the network delay. */
  private serverCloses(why: string): void {
    if (this.connection) this.connection.close(why);
    else this.lost(new Error(`${this.server} closed the connection: ${why}`));
  }

  private lost(error: Error): void {
    if (this.phase === 'closed') return;
    this.phase = 'closed';
    this.connection?.close('connection lost', true);
    this.events.closed(error);
  }
}
