/**
 * A fake ZooKeeper server on loopback, for proving the TypeScript client against a server that
 * misbehaves on cue (garbage, a stall mid-frame, replies out of order, a huge frame length).
 * It speaks just enough of the protocol: the handshake (`ConnectRequest` -> `ConnectResponse`),
 * pings, and replies (`ReplyHeader` xid, zxid, err, then a body) to getData, exists, setData and
 * closeSession. It is no ZooKeeper: recipes are never proven against it, only the client's
 * handling of bytes a real server would not send.
 *
 * Fakes given the same `FakeSessionTable` know the same sessions, as an ensemble does, so a
 * session made on one can be resumed on another; a resume of a session the table does not know
 * (or with the wrong password) is answered as ZooKeeper answers an expired one: timeOut 0.
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { HandCursor, handBytes, handFrame, sampleStat, statFields, type HandField } from './hand-jute.js';

export class FakeSessionTable {
  readonly passwords = new Map<bigint, Buffer>();
  private nextId = 0x0100_0000_0000_0001n;
  /** The ensemble's zxid, one per request answered. */
  zxid = 0x1_0000_0000n;

  create(): { id: bigint; password: Buffer } {
    const id = this.nextId++;
    const password = randomBytes(16);
    this.passwords.set(id, password);
    return { id, password };
  }
}

/** What the fake does to the first request(s) of a connection, instead of answering well. */
export type Misbehaviour =
  /** A 3-byte frame: too short for a reply header. */
  | 'garbage-frame'
  /** The right header, then a body whose buffer length runs far past the frame. */
  | 'garbage-body'
  /** Waits for two requests, answers the second first. */
  | 'out-of-order'
  /** Four bytes announcing a 2 GiB frame, then nothing. */
  | 'huge-length'
  /** Half of a valid reply, then silence: no more bytes, no ping answered. */
  | 'stall-mid-frame'
  /** Closes the connection. */
  | 'hang-up'
  /** Answers the handshake itself with a 7-byte frame (too short for a ConnectResponse). */
  | 'garbage-handshake';

export interface Handshake {
  readonly lastZxidSeen: bigint;
  readonly timeoutMs: number;
  readonly sessionId: bigint;
  readonly password: Buffer;
}

export interface ReceivedRequest {
  readonly xid: number;
  readonly opCode: number;
  /** Frame length as sent (without the 4-byte prefix). */
  readonly length: number;
}

const PING_XID = -2;
const OP = { exists: 3, getData: 4, setData: 5, closeSession: -11 } as const;

export class FakeZkServer {
  readonly handshakes: Handshake[] = [];
  /** Requests received, pings excluded. */
  readonly requests: ReceivedRequest[] = [];
  pings = 0;
  /** Pings that came after misbehaving (and got no answer): a stalled client waited for its read timeout. */
  pingsIgnored = 0;
  /** What the handshakes were answered with (the granted timeout, or 0 for expired). */
  readonly answeredTimeouts: number[] = [];
  private readonly sockets = new Set<net.Socket>();

  private constructor(
    private readonly server: net.Server,
    private readonly sessions: FakeSessionTable,
    private readonly misbehaviour: Misbehaviour | undefined,
  ) {}

  static async start(sessions: FakeSessionTable, misbehaviour?: Misbehaviour): Promise<FakeZkServer> {
    let fake: FakeZkServer | undefined;
    const server = net.createServer((socket) => fake!.serve(socket));
    fake = new FakeZkServer(server, sessions, misbehaviour);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    return fake;
  }

  get hostPort(): string {
    return `127.0.0.1:${(this.server.address() as net.AddressInfo).port}`;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private serve(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => undefined); // the client resets connections we garbled: expected here
    let pending = Buffer.alloc(0);
    let handshaken = false;
    /** After misbehaving the connection answers nothing more, pings included. */
    let silent = false;
    const held: { xid: number; opCode: number }[] = [];
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4 && pending.length >= 4 + pending.readInt32BE(0)) {
        const frame = pending.subarray(4, 4 + pending.readInt32BE(0));
        pending = pending.subarray(4 + frame.length);
        if (!handshaken) {
          handshaken = true;
          this.handshake(socket, new HandCursor(frame));
          continue;
        }
        const c = new HandCursor(frame);
        const request = { xid: c.int(), opCode: c.int(), length: frame.length };
        if (request.xid === PING_XID) {
          this.pings += 1;
          if (silent) this.pingsIgnored += 1;
          else socket.write(this.reply(PING_XID, []));
          continue;
        }
        this.requests.push(request);
        if (silent) continue;
        // Only the server's first request (its first two, out of order) meets the misbehaviour.
        if (this.misbehaviour === 'out-of-order' && this.requests.length <= 2) {
          held.push(request);
          if (held.length === 2) held.reverse().forEach((r) => socket.write(this.answer(r.xid, r.opCode)));
        } else if (this.misbehaviour !== undefined && this.misbehaviour !== 'out-of-order' && this.misbehaviour !== 'garbage-handshake' && this.requests.length === 1) {
          silent = true;
          this.misbehave(socket, this.misbehaviour, request.xid);
        } else {
          socket.write(this.answer(request.xid, request.opCode));
          if (request.opCode === OP.closeSession) socket.end();
        }
      }
    });
  }

  private handshake(socket: net.Socket, c: HandCursor): void {
    c.int(); // protocolVersion
    const request: Handshake = { lastZxidSeen: c.long(), timeoutMs: c.int(), sessionId: c.long(), password: Buffer.from(c.buffer() ?? []) };
    this.handshakes.push(request);
    if (this.misbehaviour === 'garbage-handshake') return void socket.write(handFrame(Buffer.from('garbage')));
    let session: { id: bigint; password: Buffer } | undefined;
    if (request.sessionId === 0n) session = this.sessions.create();
    else if (this.sessions.passwords.get(request.sessionId)?.equals(request.password)) session = { id: request.sessionId, password: request.password };
    // ZooKeeper answers an unknown (expired) session with timeOut 0 and closes the connection.
    const timeout = session ? request.timeoutMs : 0;
    this.answeredTimeouts.push(timeout);
    socket.write(handFrame(handBytes([{ int: 0 }, { int: timeout }, { long: session?.id ?? 0n }, { buffer: session?.password ?? Buffer.alloc(16) }, { bool: false }])));
    if (!session) socket.end();
  }

  private misbehave(socket: net.Socket, misbehaviour: Exclude<Misbehaviour, 'out-of-order' | 'garbage-handshake'>, xid: number): void {
    switch (misbehaviour) {
      case 'garbage-frame':
        return void socket.write(handFrame(Buffer.from([0xde, 0xad, 0xbe])));
      case 'garbage-body':
        return void socket.write(this.reply(xid, [{ int: 0x7fffffff }, { raw: Buffer.from('not the 2 GiB announced') }]));
      case 'huge-length':
        return void socket.write(Buffer.from([0x7f, 0xff, 0xff, 0xff]));
      case 'stall-mid-frame': {
        const reply = this.answer(xid, OP.getData);
        return void socket.write(reply.subarray(0, reply.length >> 1));
      }
      case 'hang-up':
        return void socket.destroy();
    }
  }

  private answer(xid: number, opCode: number): Buffer {
    const stat = statFields(sampleStat(1));
    if (opCode === OP.getData) return this.reply(xid, [{ buffer: Buffer.from('fake') }, ...stat]);
    if (opCode === OP.exists || opCode === OP.setData) return this.reply(xid, stat);
    if (opCode === OP.closeSession) return this.reply(xid, []);
    return this.reply(xid, [], -6); // UNIMPLEMENTED
  }

  private reply(xid: number, body: HandField[], err = 0): Buffer {
    const zxid = xid === PING_XID ? this.sessions.zxid : ++this.sessions.zxid;
    return handFrame(handBytes([{ int: xid }, { long: zxid }, { int: err }, ...body]));
  }
}
