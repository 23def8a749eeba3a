/**
 * Issue 32, no leaked watches: a waiter whose wait times out removes the watch it set on its
 * predecessor with `removeWatches`, here and on the server (a semaphore's first waiter watches the
 * queue instead, which its own node's delete fires). Without it the server keeps the watch until that node changes, which for a long-held lock
 * is as long as it is held. Aborted waiters: waiter-watch-leak.test.ts.
 *
 * Counted on a real server with `wchc` (the server's own list of watched paths by session) and the
 * client's `watcherCount`. The `zookeeper` package has no removeWatches: with `ZK_TEST_DRIVER=native`
 * the watches stay until they fire, and this file is skipped.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LockClient } from '../../src/recipes/lock/lock-client.js';
import { LockTimeoutError } from '../../src/errors/lock-timeout.error.js';
import type { ZkSession } from '../../src/zookeeper/supervised-session.js';
import { watchedBy } from '../support/server-watches.js';
import { TEST_DRIVER } from '../support/test-driver.js';
import { openSession, sharedConnect, testRoot } from './lock-test-kit.js';

const GIVE_UPS = 1000;
/** Waiters queued at once: each watches the one in front of it, so the watched paths differ. */
const BATCH = 50;
const removes = TEST_DRIVER === 'typescript';

describe('a waiter that gives up removes its watch', { skip: removes ? false : 'the zookeeper package (ZK_TEST_DRIVER=native) has no removeWatches' }, () => {
  let holderSession: ZkSession;
  let waiterSession: ZkSession;
  before(async () => {
    holderSession = await openSession(sharedConnect());
    waiterSession = await openSession(sharedConnect(), 10_000);
  });
  after(async () => {
    await Promise.all([holderSession?.close(), waiterSession?.close()]);
  });

  /** The paths `session` watches on the server, and the watches its client keeps. */
  const watches = async (session: ZkSession) => ({ server: await watchedBy(sharedConnect(), session.sessionId!), client: session.watcherCount });
  const none = { server: [], client: 0 };

  it(`${GIVE_UPS} timed-out waiters leave no watch behind`, async () => {
    const root = testRoot();
    const holder = await new LockClient(holderSession, { root }).acquire('held');
    const waiters = new LockClient(waiterSession, { root });
    try {
      for (let done = 0; done < GIVE_UPS; done += BATCH) {
        const results = await Promise.allSettled(Array.from({ length: BATCH }, () => waiters.acquire('held', { waitMs: 50 })));
        for (const result of results) assert.ok(result.status === 'rejected' && result.reason instanceof LockTimeoutError, String(result.status === 'rejected' ? result.reason : 'granted'));
      }
      // The last removal's reply comes before this read's: requests of one session are answered in order.
      await waiterSession.exists('/');
      assert.deepEqual(await watches(waiterSession), none);
    } finally {
      await holder.release();
      await waiters.close();
    }
  });

  it('a semaphore waiter that times out leaves no watch on the queue', async () => {
    const root = testRoot();
    const holders = new LockClient(holderSession, { root });
    const held = [(await holders.acquirePermits('pool', { permits: 2, take: 1 }))!, (await holders.acquirePermits('pool', { permits: 2, take: 1 }))!];
    const waiters = new LockClient(waiterSession, { root });
    try {
      // The first waiter behind two holders watches the queue's directory (either may grant it):
      // deleting its own node as it gives up fires that watch, so no removal is needed there.
      for (let i = 0; i < 20; i++) {
        await assert.rejects(waiters.acquirePermits('pool', { permits: 2, take: 1 }, { waitMs: 50 }), LockTimeoutError);
      }
      await waiterSession.exists('/');
      assert.deepEqual(await watches(waiterSession), none);
    } finally {
      await Promise.all(held.map((lease) => lease.release()));
      await waiters.close();
    }
  });
});
