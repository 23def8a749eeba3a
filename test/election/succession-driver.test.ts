/**
 * The succession driver's own contract, against the shared server: every node the queue hands it
 * (a new create, or one adopted after a lost reply) is checked afresh, even when its path is one
 * it checked before. Paths do repeat within one join: its uuid stays, and the sequence counter
 * starts again when the directory is recreated (a container swept after our session expired, or
 * servers restarted with an empty data directory). Keyed by path, a stale "watched" and a stale
 * czxid made an election grant its leader the token of an older node (the simulation, seed 3033).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Succession } from '../../src/recipes/election/succession.js';
import type { OwnNode } from '../../src/recipes/queue/queue-node.js';
import { basenameOf } from '../../src/zookeeper/znode-path.js';
import type { ZkSession } from '../../src/zookeeper/supervised-session.js';
import { randomRoot, SessionPool } from '../fixtures/session-helpers.js';
import { sharedConnect } from './election-cluster.js';
import { expireSession } from './election-kit.js';

describe('Succession', () => {
  const pool = new SessionPool();
  let session: ZkSession;
  before(async () => {
    session = await pool.open({ sessionTimeoutMs: 4000 });
  });
  after(() => pool.closeAll());

  const reads = { prefetch: async () => undefined, standby: () => ({ current: async () => undefined, stop() {} }) };

  it('checks a node it is handed afresh, even one whose path it checked before, and reads its czxid (the token)', async () => {
    const dir = `${randomRoot()}/e`;
    await session.create(dir.slice(0, dir.lastIndexOf('/')), null, 'persistent');
    await session.create(dir, null, 'persistent');
    const path = await session.create(`${dir}/_c_00000000-0000-0000-0000-000000000000-n-`, null, 'ephemeral_sequential');
    const first: OwnNode = { path, name: basenameOf(path), sessionId: session.sessionId! };
    const succession = new Succession(session, reads);
    const firstStat = await succession.checkOwnNode(first, () => undefined);
    assert.equal(firstStat?.ephemeralOwner, session.sessionId, 'the check reads our node');
    assert.equal(succession.checkOwnNode(first, () => undefined), undefined, 'the same node, still watched: nothing to send');

    // The session expires: our node goes with it, and its watch with it, without firing. The
    // directory is recreated, so the next node of this join gets the same path.
    await expireSession(sharedConnect(), session);
    await session.waitForConnection();
    await session.delete(dir, -1);
    await session.create(dir, null, 'persistent');
    const again = await session.create(`${dir}/_c_00000000-0000-0000-0000-000000000000-n-`, null, 'ephemeral_sequential');
    assert.equal(again, path, 'the same path');
    const second: OwnNode = { path: again, name: basenameOf(again), sessionId: session.sessionId! };
    const check = succession.checkOwnNode(second, () => undefined);
    assert.ok(check, 'a new node is checked, whatever its path');
    const secondStat = await check;
    const { stat } = await session.getData(again);
    assert.equal(secondStat?.czxid, stat.czxid, 'the new node is read, not the old one remembered');
    assert.ok(stat.czxid > firstStat!.czxid);
  });
});
