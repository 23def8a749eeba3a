/**
 * The dev server on the wire, byte by byte (frames built by hand, `test/support/hand-jute.ts`):
 * what ZooKeeper answers that no other test's client shows plainly. closeSession is answered
 * before the server closes the connection; requests it does not implement get UNIMPLEMENTED (-6)
 * in the reply header; checkWatches/removeWatches act on the session's own watches (NOWATCHER
 * when it has none).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { DevServer } from '../../src/dev-server/dev-server.js';
import { ZOOKEEPER_ERROR_CODES as RC } from '../../src/errors/zookeeper.error.js';
import { FrameDecoder } from '../../src/zookeeper/protocol/frame-decoder.js';
import { OpCode, WatcherType, Xid } from '../../src/zookeeper/protocol/op-codes.js';
import { HandCursor, handBytes, handFrame, type HandField } from '../support/hand-jute.js';
import { withTimeout } from '../support/wait.js';

const WAIT_MS = 10_000;

/** A client speaking frames by hand: every frame it reads is kept, in order. */
class WireClient {
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

  /** Connects and opens a session (ConnectRequest with a 6 s timeout). */
  static async open(server: DevServer): Promise<WireClient> {
    const socket = connect(server.port, server.host);
    await withTimeout(new Promise((resolve) => socket.once('connect', resolve)), WAIT_MS, 'no TCP connection');
    const client = new WireClient(socket);
    socket.write(handFrame(handBytes([{ int: 0 }, { long: 0n }, { int: 6000 }, { long: 0n }, { buffer: Buffer.alloc(16) }, { bool: false }])));
    const response = new HandCursor(await client.frame(0));
    assert.equal(response.int(), 0); // protocolVersion
    assert.ok(response.int() > 0, 'a negotiated timeout');
    return client;
  }

  /** Sends a request; resolves with its reply's return code and body. */
  async request(opCode: number, body: HandField[]): Promise<{ rc: number; body: HandCursor }> {
    const xid = ++this.xid;
    const from = this.frames.length;
    this.socket.write(handFrame(handBytes([{ int: xid }, { int: opCode }, ...body])));
    for (let i = from; ; i++) {
      const reply = new HandCursor(await this.frame(i));
      if (reply.int() !== xid) continue; // a notification
      reply.long(); // zxid
      return { rc: reply.int(), body: reply };
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

const path = (p: string): HandField => ({ ustring: p });

describe('dev server: the wire protocol', () => {
  let server: DevServer;
  const root = `/wire-${randomUUID()}`;

  before(async () => {
    server = await DevServer.start({ port: 0 });
  });
  after(async () => {
    await server?.close();
  });

  it('answers closeSession, then closes the connection', async () => {
    const client = await WireClient.open(server);
    try {
      const { rc } = await client.request(OpCode.closeSession, []);
      assert.equal(rc, 0);
      await client.closedByServer();
    } finally {
      client.destroy();
    }
  });

  it('refuses what it does not implement with UNIMPLEMENTED, and keeps serving the session', async () => {
    const client = await WireClient.open(server);
    try {
      // multi: one create in a MultiHeader-framed list, then the end marker.
      const multi = await client.request(OpCode.multi, [
        { int: OpCode.create }, { bool: false }, { int: -1 }, path(root), { buffer: Buffer.from('x') }, { int: 0 }, { int: 0 },
        { int: -1 }, { bool: true }, { int: -1 },
      ]);
      assert.equal(multi.rc, RC.UNIMPLEMENTED);
      assert.equal((await client.request(OpCode.addWatch, [path('/'), { int: 1 }])).rc, RC.UNIMPLEMENTED);
      assert.equal((await client.request(OpCode.createTTL, [path(root), { buffer: Buffer.alloc(0) }, { int: 0 }, { int: 5 }, { long: 1000n }])).rc, RC.UNIMPLEMENTED);
      assert.equal((await client.request(OpCode.whoAmI, [])).rc, RC.UNIMPLEMENTED);
      // Nothing of the refused multi was applied, and the session goes on.
      assert.equal((await client.request(OpCode.exists, [path(root), { bool: false }])).rc, RC.NONODE);
    } finally {
      client.destroy();
    }
  });

  it("checks and removes the session's own watches; NOWATCHER when there is none", async () => {
    const client = await WireClient.open(server);
    const other = await WireClient.open(server);
    try {
      const node = `${root}-watched`;
      assert.equal((await client.request(OpCode.create, [path(node), { buffer: Buffer.from('a') }, { int: 1 }, { int: 31 }, path('world'), path('anyone'), { int: 0 }])).rc, 0);
      assert.equal((await client.request(OpCode.removeWatches, [path(node), { int: WatcherType.data }])).rc, RC.NOWATCHER);
      assert.equal((await client.request(OpCode.getData, [path(node), { bool: true }])).rc, 0);
      assert.equal((await client.request(OpCode.getChildren, [path(node), { bool: true }])).rc, 0);
      // Another session has no watch there.
      assert.equal((await other.request(OpCode.checkWatches, [path(node), { int: WatcherType.any }])).rc, RC.NOWATCHER);
      assert.equal((await client.request(OpCode.checkWatches, [path(node), { int: WatcherType.data }])).rc, 0);
      assert.equal((await client.request(OpCode.removeWatches, [path(node), { int: WatcherType.data }])).rc, 0);
      assert.equal((await client.request(OpCode.checkWatches, [path(node), { int: WatcherType.data }])).rc, RC.NOWATCHER);
      // The child watch is still there: the delete fires it (and no data watch any more).
      assert.equal((await other.request(OpCode.delete, [path(node), { int: -1 }])).rc, 0);
      await client.request(OpCode.ping, []);
      assert.deepEqual(client.notifications(), [`2 ${node}`]);
    } finally {
      client.destroy();
      other.destroy();
    }
  });
});
