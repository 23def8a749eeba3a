/**
 * The dev server on the wire, byte by byte (frames built by hand, `test/support/hand-jute.ts`):
 * what ZooKeeper answers that no other test's client shows plainly. closeSession is answered
 * before the server closes the connection; requests it does not implement get UNIMPLEMENTED (-6)
 * in the reply header; checkWatches/removeWatches act on the session's own watches (NOWATCHER
 * when it has none); getEphemerals lists the session's own ephemeral nodes.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { DevServer } from '../../src/dev-server/dev-server.js';
import { ZOOKEEPER_ERROR_CODES as RC } from '../../src/errors/zookeeper.error.js';
import { OpCode, WatcherType } from '../../src/zookeeper/protocol/op-codes.js';
import { path, WireClient } from './wire-client.js';


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
      // multiRead: one getData in a MultiHeader-framed list, then the end marker.
      const multiRead = await client.request(OpCode.multiRead, [
        { int: OpCode.getData }, { bool: false }, { int: -1 }, path('/'), { bool: false },
        { int: -1 }, { bool: true }, { int: -1 },
      ]);
      assert.equal(multiRead.rc, RC.UNIMPLEMENTED);
      // A multi with a TTL create: the whole transaction is refused, not part of it applied.
      const multi = await client.request(OpCode.multi, [
        { int: OpCode.create }, { bool: false }, { int: -1 }, path(root), { buffer: Buffer.from('x') }, { int: 0 }, { int: 0 },
        { int: OpCode.createTTL }, { bool: false }, { int: -1 }, path(`${root}-ttl`), { buffer: Buffer.from('x') }, { int: 0 }, { int: 5 }, { long: 1000n },
        { int: -1 }, { bool: true }, { int: -1 },
      ]);
      assert.equal(multi.rc, RC.UNIMPLEMENTED);
      assert.equal((await client.request(OpCode.createTTL, [path(root), { buffer: Buffer.alloc(0) }, { int: 0 }, { int: 5 }, { long: 1000n }])).rc, RC.UNIMPLEMENTED);
      assert.equal((await client.request(OpCode.whoAmI, [])).rc, RC.UNIMPLEMENTED);
      // Nothing of the refused multi was applied, and the session goes on.
      assert.equal((await client.request(OpCode.exists, [path(root), { bool: false }])).rc, RC.NONODE);
    } finally {
      client.destroy();
    }
  });

  it("getEphemerals lists the session's own ephemeral nodes under a prefix", async () => {
    const client = await WireClient.open(server);
    const other = await WireClient.open(server);
    try {
      const base = `${root}-ephemerals`;
      const create = (p: string, flags: number) => [path(p), { buffer: null }, { int: 1 }, { int: 31 }, path('world'), path('anyone'), { int: flags }];
      assert.equal((await client.request(OpCode.create, create(base, 0))).rc, 0);
      assert.equal((await client.request(OpCode.create, create(`${base}/e1`, 1))).rc, 0);
      assert.equal((await client.request(OpCode.create, create(`${base}/e2`, 1))).rc, 0);
      assert.equal((await other.request(OpCode.create, create(`${base}/theirs`, 1))).rc, 0);
      const listed = async (who: WireClient, prefix: string) => {
        const reply = await who.request(OpCode.getEphemerals, [path(prefix)]);
        assert.equal(reply.rc, 0);
        const count = reply.body.int();
        return Array.from({ length: count }, () => reply.body.ustring()).sort();
      };
      assert.deepEqual(await listed(client, base), [`${base}/e1`, `${base}/e2`]);
      assert.deepEqual(await listed(client, `${base}/e2`), [`${base}/e2`]);
      assert.deepEqual(await listed(other, base), [`${base}/theirs`]);
      assert.deepEqual(await listed(other, '/'), [`${base}/theirs`]);
    } finally {
      client.destroy();
      other.destroy();
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
