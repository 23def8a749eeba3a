/**
 * Invariant 4 (no herd) and the request costs of DESIGN §3, counted on a real server: 100 waiters,
 * each on its own session, queue behind one holder; every release must fire exactly one watch
 * notification (server-wide mntr counters of all four watch kinds), and the last release none.
 * Request counts come from a FaultySession wrapper without faults.
 *
 * Uses the shared server's global counters: the runner runs one test file at a time and this file
 * runs its tests one after another, so nothing else fires watches meanwhile.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LockClient } from '../../src/recipes/lock/lock-client.js';
import { ensurePath } from '../../src/recipes/queue/ensure-path.js';
import type { Lease } from '../../src/recipes/lock/lease.js';
import type { ZkSession } from '../../src/zookeeper/supervised-session.js';
import { FaultySession } from '../support/faulty-session.js';
import { sleep, waitFor, withTimeout } from '../support/wait.js';
import { firedWatches, openSession, queueNodes, sharedConnect, testRoot } from './lock-test-kit.js';

const WAITERS = 100;

/** The fired-watch counter once it has stopped moving (two equal reads in a row). */
async function settledWatches(): Promise<number> {
  let previous = await firedWatches(sharedConnect());
  for (let attempt = 0; attempt < 50; attempt++) {
    await sleep(15);
    const current = await firedWatches(sharedConnect());
    if (current === previous) return current;
    previous = current;
  }
  throw new Error('the watch counters did not settle');
}

describe('no herd effect', () => {
  const sessions: ZkSession[] = [];
  let observer: ZkSession;
  before(async () => {
    observer = await openSession(sharedConnect());
    sessions.push(observer);
  });
  after(() => sessions.forEach((session) => session.close()));

  it('an uncontended acquire + release costs 3 requests and fires no watch', async () => {
    const root = testRoot();
    const faulty = new FaultySession(observer);
    const locks = new LockClient(faulty, { root });
    // The lock dir, persistent: as an empty container the server's container manager could remove
    // it between the two cycles, and the measured acquire would pay for recreating it.
    await ensurePath(observer, locks.pathOf('cost'), 'persistent');
    await (await locks.acquire('cost')).release(); // warm: not part of the steady state
    const before = faulty.sent.length;
    const watches = await settledWatches();
    await (await locks.acquire('cost')).release();
    assert.deepEqual(faulty.sent.slice(before).map((request) => request.op), ['create', 'getChildren', 'delete']);
    assert.equal(await settledWatches(), watches);
  });

  it(`each of ${WAITERS + 1} releases wakes exactly one waiter; the last wakes none`, async () => {
    const root = testRoot();
    const waiterSessions = await Promise.all(Array.from({ length: WAITERS }, () => openSession(sharedConnect(), 10_000)));
    sessions.push(...waiterSessions);
    const holderLocks = new LockClient(observer, { root });
    const dir = holderLocks.pathOf('herd');
    let lease: Lease = await holderLocks.acquire('herd');

    // Each waiter counts its requests and the watches it has set (getData replies on its predecessor).
    const wrapped = waiterSessions.map((session) => new FaultySession(session));
    const watchesSet = wrapped.map(() => 0);
    wrapped.forEach((faulty, i) => faulty.after('getData', () => void (watchesSet[i]! += 1)));
    const granted: { waiter: number; lease: Lease }[] = [];
    const acquisitions = wrapped.map((faulty, waiter) =>
      new LockClient(faulty, { root }).acquire('herd').then((held) => void granted.push({ waiter, lease: held })),
    );
    // Every waiter must have its watch in place before the first release, or a release could
    // find nobody watching and fire nothing. The waiter right behind the holder also watches its
    // own node, where the driver can remove that watch again: the hand-off's proof (`HandOff`).
    const handOff = observer.supports('removeWatches') ? 1 : 0;
    const watchesExpected = WAITERS + handOff;
    await waitFor(() => watchesSet.every((count) => count >= 1) && watchesSet.reduce((a, b) => a + b) === watchesExpected, {
      timeoutMs: 30_000,
      message: 'every waiter watching its predecessor',
    });
    assert.equal((await queueNodes(observer, dir)).length, WAITERS + 1);

    const perRelease: number[] = [];
    let watches = await settledWatches();
    for (let release = 1; release <= WAITERS + 1; release++) {
      await lease.release();
      if (release <= WAITERS) {
        await waitFor(() => granted.length === release, { timeoutMs: 10_000, message: `grant #${release}` });
        lease = granted[release - 1]!.lease;
      }
      const now = await settledWatches();
      perRelease.push(now - watches);
      watches = now;
    }
    await withTimeout(Promise.all(acquisitions), 1000, 'acquisitions settled');

    assert.deepEqual(perRelease, [...Array.from({ length: WAITERS }, () => 1), 0], 'watch notifications per release');
    assert.deepEqual(granted.map((grant) => grant.waiter).sort((a, b) => a - b), wrapped.map((_, i) => i), 'every waiter granted once');
    // A queued acquisition: create + getChildren, getData (watch), getChildren after the wake-up, delete.
    const ops = (waiter: number) => wrapped[waiter]!.sent.map((request) => request.op);
    const first = granted[0]!.waiter;
    // On the C client, a waiter whose first listing already showed a node created after its own
    // (100 join at once) reads its node's czxid, its token, with its second look: one more request
    // then, in no more round trips (see `listingToken`). Anywhere else a read is a defect.
    const czxidReads = (waiter: number) => ops(waiter).filter((op) => op === 'exists').length;
    assert.ok(wrapped.every((_, waiter) => czxidReads(waiter) <= (handOff ? 0 : 1)), 'czxid reads');
    const costs = wrapped.map((faulty, waiter) => (waiter === first ? 0 : faulty.sent.length - czxidReads(waiter)));
    assert.ok(Math.max(...costs) <= 5, `requests per queued acquisition: max ${Math.max(...costs)}`);
    const withoutReads = (waiter: number) => ops(waiter).filter((op) => op !== 'exists');
    assert.deepEqual(withoutReads(WAITERS - 1), ['create', 'getChildren', 'getData', 'getChildren', 'delete']);
    // The hand-off: the waiter right behind the holder is granted on the holder's deletion without
    // listing again. Its own node's watch (set with the watch on the holder) proves its node still
    // exists; it is removed at the grant, so that its release notifies nobody but its successor.
    const handedOff = handOff ? ['create', 'getChildren', 'getData', 'getData', 'removeWatches', 'delete'] : ['create', 'getChildren', 'getData', 'getChildren', 'delete'];
    assert.deepEqual(withoutReads(first), handedOff, 'the first waiter: a hand-off');
    assert.deepEqual(await queueNodes(observer, dir), []);
  });
});
