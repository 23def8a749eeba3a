/**
 * A 3-node ensemble keeps a session alive when a server dies: the client fails over to another
 * member with the same session (suspended -> reconnected, never lost or expired) and its ephemeral
 * node survives. First the member the client is connected to is killed; then, after it rejoined,
 * the leader, which also drops the followers' clients while a new leader is elected.
 *
 * Each step uses its own session, opened after the restart: on the native driver the `zookeeper`
 * package opens its sockets without CLOEXEC, so a server spawned while a session is connected
 * inherits that socket, and the client's next reconnection then fails (see the skipped-on-native
 * test in reconnect.test.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ZkSession } from '../../src/zookeeper/supervised-session.js';
import { waitFor } from '../support/wait.js';
import { ZkEnsemble, type ZkServer } from '../support/zk-server.js';
import { randomRoot, SessionPool, StateRecorder } from '../fixtures/session-helpers.js';

// Long enough for an election plus the client's retry cadence (a third of it), short of an expiry.
const SESSION_TIMEOUT_MS = 8000;

/** The running member whose `cons` lists a connection of `sessionId`. */
async function servingMember(ensemble: ZkEnsemble, sessionId: string): Promise<ZkServer> {
  return waitFor(
    async () => {
      for (const member of ensemble.members.filter((m) => m.isRunning)) {
        if ((await member.fourLetter('cons').catch(() => '')).includes(`sid=0x${sessionId},`)) return member;
      }
      return undefined;
    },
    { timeoutMs: 5000, message: `a member serving session 0x${sessionId}` },
  );
}

describe('ZkSession on a 3-node ensemble', () => {
  let ensemble: ZkEnsemble;
  const pool = new SessionPool();
  before(async () => { ensemble = await ZkEnsemble.start({ size: 3, heap: '128m' }); });
  after(async () => {
    pool.closeAll();
    await ensemble?.dispose();
  });

  /** A session with an ephemeral node on the ensemble. */
  async function openWithNode(): Promise<{ session: ZkSession; node: string }> {
    const session = await pool.open({ connectString: ensemble.connectString, sessionTimeoutMs: SESSION_TIMEOUT_MS });
    const node = randomRoot();
    await session.create(node, null, 'ephemeral');
    return { session, node };
  }

  /** Kills `victim`, waits for the session to come back, and checks that it is the same one. */
  async function survives(session: ZkSession, victim: ZkServer, node: string): Promise<void> {
    const id = session.sessionId!;
    const recorder = new StateRecorder(session);
    // A fresh answer: the loss clock counts the full timeout from here.
    await session.sync('/');
    await victim.kill();
    await recorder.waitFor('reconnected', SESSION_TIMEOUT_MS);
    assert.deepEqual(recorder.states, ['suspended', 'reconnected'], 'never lost, never expired');
    for (const change of recorder.changes) assert.equal(change.sessionId, id);
    assert.equal(session.sessionId, id);
    assert.equal((await session.exists(node))?.ephemeralOwner, id, 'the ephemeral node survived');
    recorder.stop();
  }

  it('survives the death of the server it is connected to', async () => {
    const { session, node } = await openWithNode();
    await survives(session, await servingMember(ensemble, session.sessionId!), node);
    session.close();
  });

  it('survives the death of the leader (after the killed member rejoined)', async () => {
    await Promise.all(ensemble.members.filter((member) => !member.isRunning).map((member) => member.restart()));
    await ensemble.waitForQuorum(20_000);
    const { session, node } = await openWithNode();
    await survives(session, await ensemble.leader(), node);
  });
});
