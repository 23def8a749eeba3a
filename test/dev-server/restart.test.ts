/**
 * A dev server restarted in memory (developers restart it while their application runs): a
 * client that saw the last run's zxids is told its session is gone (a ConnectResponse with
 * timeout 0), so that it starts a new session, instead of being refused without an answer as by
 * a server behind its last zxid (which a Java or kazoo client would retry for ever).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import { DevServer } from '../../src/dev-server/dev-server.js';
import { OpCode } from '../../src/zookeeper/protocol/op-codes.js';
import { FrameDecoder } from '../../src/zookeeper/protocol/frame-decoder.js';
import { HandCursor, handBytes, handFrame } from '../support/hand-jute.js';
import { withTimeout } from '../support/wait.js';
import { path, WireClient } from './wire-client.js';

const WAIT_MS = 10_000;

/** A handshake resuming `sessionId` after seeing `lastZxid`: the negotiated timeout, or 'closed' when the server closed without answering. */
async function resume(server: DevServer, sessionId: bigint, lastZxid: bigint): Promise<number | 'closed'> {
  const socket = connect(server.port, server.host);
  const decoder = new FrameDecoder();
  try {
    const answer = new Promise<number | 'closed'>((resolve) => {
      socket.on('data', (chunk) => {
        const [frame] = decoder.push(chunk);
        if (!frame) return;
        const r = new HandCursor(frame);
        r.int();
        resolve(r.int());
      });
      socket.on('close', () => resolve('closed'));
      socket.on('error', () => resolve('closed'));
    });
    socket.write(handFrame(handBytes([{ int: 0 }, { long: lastZxid }, { int: 6000 }, { long: sessionId }, { buffer: Buffer.alloc(16) }, { bool: false }])));
    return await withTimeout(answer, WAIT_MS, 'no answer to the handshake');
  } finally {
    socket.destroy();
  }
}

describe('dev server: restarted in memory', () => {
  it("tells a client of the last run that its session is gone, even though it saw later zxids than the new run's", async () => {
    const first = await DevServer.start({ port: 0 });
    let sessionId: bigint;
    let lastZxid: bigint;
    try {
      const client = await WireClient.open(first);
      sessionId = client.sessionId;
      // A few writes: the client's last zxid runs ahead of what a fresh run has.
      for (let i = 0; i < 5; i++) {
        const created = await client.request(OpCode.create2, [path(`/restart-${randomUUID()}`), { buffer: null }, { int: 1 }, { int: 31 }, path('world'), path('anyone'), { int: 0 }]);
        assert.equal(created.rc, 0);
      }
      const reply = await client.request(OpCode.exists, [path('/'), { bool: false }]);
      assert.equal(reply.rc, 0);
      lastZxid = reply.zxid;
      // Zxids stay exact in a double, as the `zookeeper` package (the native driver) reports them.
      assert.ok(lastZxid < 2n ** 53n, `zxid 0x${lastZxid.toString(16)}`);
      client.destroy();
    } finally {
      await first.close();
    }
    // A second later at the earliest, as a developer restarts it.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const second = await DevServer.start({ port: 0 });
    try {
      assert.equal(await resume(second, sessionId, lastZxid), 0);
    } finally {
      await second.close();
    }
  });
});
