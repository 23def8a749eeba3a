/**
 * A ZooKeeper client speaking frames built by hand (`test/support/hand-jute.ts`), for the dev
 * server's wire-level tests: it shares no code with the server's codec nor with our client.
 */
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import type { DevServer } from '../../src/dev-server/dev-server.js';
import { FrameDecoder } from '../../src/zookeeper/protocol/frame-decoder.js';
import { Xid } from '../../src/zookeeper/protocol/op-codes.js';
import { HandCursor, handBytes, handFrame, type HandField } from '../support/hand-jute.js';
import { withTimeout } from '../support/wait.js';

const WAIT_MS = 10_000;

/** A client speaking frames by hand: every frame it reads is kept, in order. */
export class WireClient {
  readonly frames: Buffer[] = [];
  ended = false;
  private readonly decoder = new FrameDecoder();
  private waiters: (() => void)[] = [];
  private xid = 0;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk) => {
      this.frames.push(...this.decoder.push(chunk));
      this.wake();
    });
    socket.on('end', () => {
      this.ended = true;
      this.wake();
    });
  }

  /** Connects and opens a session (a ConnectRequest asking for `timeoutMs`). */
  static async open(server: DevServer, timeoutMs = 6000): Promise<WireClient> {
    const socket = connect(server.port, server.host);
    await withTimeout(new Promise((resolve) => socket.once('connect', resolve)), WAIT_MS, 'no TCP connection');
    const client = new WireClient(socket);
    socket.write(handFrame(handBytes([{ int: 0 }, { long: 0n }, { int: timeoutMs }, { long: 0n }, { buffer: Buffer.alloc(16) }, { bool: false }])));
    const response = new HandCursor(await client.frame(0));
    assert.equal(response.int(), 0); // protocolVersion
    assert.ok(response.int() > 0, 'a negotiated timeout');
    client.sessionId = BigInt.asUintN(64, response.long());
    return client;
  }

  /** Sends a request; resolves with its reply's return code and body. */
  async request(opCode: number, body: HandField[]): Promise<{ rc: number; zxid: bigint; body: HandCursor }> {
    const xid = ++this.xid;
    const from = this.frames.length;
    this.socket.write(handFrame(handBytes([{ int: xid }, { int: opCode }, ...body])));
    for (let i = from; ; i++) {
      const reply = new HandCursor(await this.frame(i));
      if (reply.int() !== xid) continue; // a notification
      const zxid = reply.long();
      return { rc: reply.int(), zxid, body: reply };
    }
  }

  /** Notifications (xid -1) received so far, as `type path`. */
  notifications(): string[] {
    return this.frames.flatMap((frame) => {
      const r = new HandCursor(frame);
      if (r.int() !== Xid.notification) return [];
      r.long();
      r.int();
      const type = r.int();
      r.int();
      return [`${type} ${r.ustring()}`];
    });
  }

  /** The session id the server gave. */
  sessionId = 0n;

  /** Resolves once the server has closed its end. */
  async closedByServer(): Promise<void> {
    await withTimeout(this.until(() => this.ended), WAIT_MS, 'the server never closed the connection');
  }

  destroy(): void {
    this.socket.destroy();
  }

  private async frame(index: number): Promise<Buffer> {
    await withTimeout(this.until(() => this.frames.length > index || this.ended), WAIT_MS, `no frame #${index}`);
    const frame = this.frames[index];
    if (!frame) throw new Error(`the server closed the connection before frame #${index}`);
    return frame;
  }

  private until(done: () => boolean): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(() => done() && resolve()));
  }

  private wake(): void {
    for (const waiter of this.waiters) waiter();
  }
}


export const path = (p: string): HandField => ({ ustring: p });
