/**
 * Sessions on the dev server run on real time: a client that goes silent (no request, no ping)
 * loses its session once the negotiated timeout has passed, its ephemeral nodes go, the watches
 * other sessions left on them fire, and the server closes its connection; a client that pings
 * keeps its session. (A resume of an expired session: the conformance scenarios, dev-server target.)
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { DevServer } from '../../src/dev-server/dev-server.js';
import { OpCode } from '../../src/zookeeper/protocol/op-codes.js';
import { waitFor } from '../support/wait.js';
import { path, WireClient } from './wire-client.js';

/** A short tick, so that a session of the shortest timeout (2 ticks) expires within a second. */
const TICK_MS = 200;

describe('dev server: sessions expire in real time', () => {
  let server: DevServer;
  const root = `/sessions-${randomUUID()}`;

  before(async () => {
    server = await DevServer.start({ port: 0, tickMs: TICK_MS });
  });
  after(async () => {
    await server?.close();
  });

  it("a silent client's session expires: its ephemeral node goes, a watch on it fires, its connection closes", async () => {
    const silent = await WireClient.open(server, 2 * TICK_MS);
    const watcher = await WireClient.open(server, 30_000);
    const pinger = await WireClient.open(server, 2 * TICK_MS);
    try {
      const ephemeral = `${root}-silent`;
      const kept = `${root}-pinger`;
      const create = (p: string) => [path(p), { buffer: Buffer.from('x') }, { int: 1 }, { int: 31 }, path('world'), path('anyone'), { int: 1 }];
      assert.equal((await silent.request(OpCode.create, create(ephemeral))).rc, 0);
      assert.equal((await pinger.request(OpCode.create, create(kept))).rc, 0);
      assert.equal((await watcher.request(OpCode.exists, [path(ephemeral), { bool: true }])).rc, 0);
      const hex = silent.sessionId.toString(16);
      assert.ok(server.liveSessions().includes(hex));
      // The silent client sends nothing more; the pinger pings (bounded: until the silent one is gone).
      let pings = 0;
      await waitFor(async () => {
        assert.equal((await pinger.request(OpCode.ping, [])).rc, 0);
        pings++;
        return !server.liveSessions().includes(hex);
      }, { timeoutMs: 10_000, intervalMs: TICK_MS / 4, message: 'the silent session expired' });
      assert.ok(pings > 1, `pinged ${pings} times`);
      await silent.closedByServer();
      await waitFor(() => watcher.notifications().length === 1, { timeoutMs: 10_000, message: 'the exists watch fired' });
      assert.deepEqual(watcher.notifications(), [`2 ${ephemeral}`]);
      assert.equal((await watcher.request(OpCode.exists, [path(ephemeral), { bool: false }])).rc, -101);
      // The pinger's session lived on, and its ephemeral node with it.
      assert.equal((await watcher.request(OpCode.exists, [path(kept), { bool: false }])).rc, 0);
      assert.ok(server.liveSessions().includes(pinger.sessionId.toString(16)));
    } finally {
      silent.destroy();
      watcher.destroy();
      pinger.destroy();
    }
  });
});
