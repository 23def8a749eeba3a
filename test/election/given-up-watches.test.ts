/**
 * Issue 32, no leaked watches: a participant that stands by behind the leader watches the
 * leader's node, the ready record and its own node; once it resigns or closes, none of those may
 * stand, here or on the server (`wchc`). Without `removeWatches` the first two would stay until the
 * leader's node or the record changes, which for a long-lived leader is as long as it leads.
 * The `zookeeper` package has no removeWatches: skipped with `ZK_TEST_DRIVER=native`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ZkSession } from '../../src/zookeeper/supervised-session.js';
import { watchedBy } from '../support/server-watches.js';
import { TEST_DRIVER } from '../support/test-driver.js';
import { kitPerTest, queuedInOrder, Recorder, standingBy } from './election-kit.js';
import { sharedConnect } from '../lock/lock-test-kit.js';

const kit = kitPerTest();

/** The paths `session` watches on the server, and the watches its client keeps. */
const watches = async (session: ZkSession) => ({ server: await watchedBy(sharedConnect(), session.sessionId!), client: session.watcherCount });
const none = { server: [], client: 0 };

describe('a participant that leaves the queue leaves no watch behind', { skip: TEST_DRIVER === 'typescript' ? false : 'the zookeeper package (ZK_TEST_DRIVER=native) has no removeWatches' }, () => {
  for (const leave of ['resign', 'close'] as const) {
    it(`after ${leave}()`, async () => {
      const k = kit();
      const [a] = await queuedInOrder(k, 'A');
      const bSession = await k.session();
      const b = k.election(bSession, 'B');
      b.join();
      await standingBy(bSession);
      assert.equal(a!.isLeader, true);
      await b[leave]();
      await bSession.exists('/'); // answered after every request the leaving sent
      assert.deepEqual(await watches(bSession), none);
    });
  }

  it('after close() of an election whose leader$ was followed', async () => {
    const k = kit();
    await queuedInOrder(k, 'A');
    const bSession = await k.session();
    const b = k.election(bSession, 'B');
    const followed = new Recorder(b.leader$);
    await followed.next('A');
    assert.ok((await watches(bSession)).server.length > 0, 'the tracker watches the head');
    await b.close();
    await bSession.exists('/');
    assert.deepEqual(await watches(bSession), none);
  });
});
