/**
 * Partitioned leadership on a real server, replicas on separate sessions of one process: all 64
 * partitions owned and balanced after start, exactly 16 moved when a fourth replica joins, and a
 * graceful leave re-owned and balanced again, never a partition with two owners on the way.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { PartitionMovingError } from '../../src/errors/partition-moving.error.js';
import { LockClient } from '../../src/recipes/lock/lock-client.js';
import { testRoot } from '../lock/lock-test-kit.js';
import { waitFor } from '../support/wait.js';
import { balanced, ownersOf, startReplica, stopReplica, type Replica } from './partition-kit.js';

describe('a partition set of 64 over real sessions', () => {
  const replicas: Replica[] = [];
  after(async () => {
    await Promise.all(replicas.splice(0).map((replica) => stopReplica(replica)));
  });

  it('3 replicas: all owned, 22/21/21; a fourth joins: exactly 16 move, 16 each; one leaves: re-owned, balanced', async () => {
    const root = testRoot();
    for (const name of ['a', 'b', 'c']) replicas.push(await startReplica(root, name));
    const three = await balanced(replicas);

    // Exclusivity on the way: sampled while the fourth joins (ownersOf throws on a double claim).
    let doubleClaim: unknown;
    const sampler = setInterval(() => {
      try { ownersOf(replicas); } catch (error) { doubleClaim ??= error; }
    }, 5);
    replicas.push(await startReplica(root, 'd'));
    const four = await balanced(replicas);
    // Settled: the assignment is stable and what the replicas hold.
    await waitFor(() => replicas.every((r) => r.set.assignedOwners.filter((o) => o === r.set.memberId).length === 16), { message: 'assignment of 16 each' });
    const moved = four.filter((owner, k) => owner !== three[k]);
    assert.equal(moved.length, 16, 'exactly the minimum moved');
    assert.ok(moved.every((owner) => owner === 'd'), 'only to the newcomer');

    const leaver = replicas.shift()!;
    const leaverOwned = leaver.set.ownedNow;
    await stopReplica(leaver);
    const remaining = await balanced(replicas);
    clearInterval(sampler);
    assert.equal(doubleClaim, undefined, String(doubleClaim));
    const movedAgain = remaining.filter((owner, k) => owner !== four[k]);
    assert.equal(movedAgain.length, leaverOwned.length, "only the leaver's partitions moved");
  });

  it('fencing tokens grow per partition over its owners', async () => {
    const root = testRoot();
    const first = await startReplica(root, 'first', { count: 4 });
    replicas.push(first);
    await waitFor(() => first.set.ownedNow.length === 4, { message: 'first owns all 4' });
    const before = [0, 1, 2, 3].map((k) => first.set.ownership(k)!.token);
    const second = await startReplica(root, 'second', { count: 4 });
    replicas.push(second);
    await waitFor(() => second.set.ownedNow.length === 2 && first.set.ownedNow.length === 2, { message: '2 and 2' });
    for (const k of second.set.ownedNow) assert.ok(second.set.ownership(k)!.token > before[k]!, `partition ${k}'s token grew`);
    // A partition's lock is an ordinary lock: a LockClient on the set's directory sees it held.
    const probe = new LockClient(second.session, { root: first.set.path });
    assert.equal(await probe.tryAcquire(String(second.set.ownedNow[0])), undefined, 'held by its owner');
  });

  it('handOver: the partition moves to the other replica after its running work, and balance holds', async () => {
    const root = testRoot();
    const a = await startReplica(root, 'ha', { count: 4 });
    replicas.push(a);
    const b = await startReplica(root, 'hb', { count: 4 });
    replicas.push(b);
    await waitFor(() => a.set.ownedNow.length === 2 && b.set.ownedNow.length === 2, { message: '2 and 2' });
    const k = a.set.ownedNow[0]!;
    // A run in progress on k: the hand-over asks it to finish (moveRequested) and waits for it.
    let finish!: () => void;
    let moveReason: unknown;
    const running = a.set.run(k, async (run) => {
      await new Promise<void>((resolve) => run.moveRequested.addEventListener('abort', () => resolve(), { once: true }));
      moveReason = run.moveRequested.reason;
      await new Promise<void>((resolve) => (finish = resolve));
    });
    await a.set.handOver(k);
    await waitFor(() => finish !== undefined, { message: 'the run was asked to finish' });
    assert.ok(moveReason instanceof PartitionMovingError, String(moveReason));
    assert.ok(!a.set.ownedNow.includes(k), 'a stopped reporting k');
    assert.ok(!b.set.ownedNow.includes(k), "not owned by b while a's run on it goes on");
    finish();
    await running;
    await waitFor(() => b.set.ownedNow.includes(k) && a.set.ownedNow.length === 2 && b.set.ownedNow.length === 2, { message: 'k moved to b, 2 and 2' });
    assert.ok(!a.set.ownedNow.includes(k));
  });

  it('a failing recovery handler is retried; the partition is not reported owned until it succeeds', async () => {
    const solo = await startReplica(testRoot(), 'solo', { count: 2 });
    replicas.push(solo);
    await waitFor(() => solo.set.ownedNow.length === 2, { message: 'both owned' });
    const attempts: string[] = [];
    let ownedDuringFailure: readonly number[] | undefined;
    solo.set.onRecovery((partition) => {
      attempts.push(`recover ${partition}`);
      if (attempts.length === 1) {
        ownedDuringFailure = solo.set.ownedNow;
        throw new Error('the repair failed');
      }
    });
    await assert.rejects(solo.set.run(1, () => { throw new Error('the run failed'); }), /the run failed/);
    await waitFor(() => attempts.length === 2 && solo.set.ownedNow.includes(1), { message: 'recovered on the second attempt, owned again' });
    assert.deepEqual(ownedDuringFailure, [0], 'not reported owned while its recovery fails');
    assert.deepEqual(attempts, ['recover 1', 'recover 1']);
    await solo.set.run(1, () => undefined);
    assert.equal(attempts.length, 2, 'nothing more to recover');
  });

  it('an assignment znode that holds something else is rewritten by the assigner, and the partitions stay owned', async () => {
    const solo = await startReplica(testRoot(), 'solo', { count: 4 });
    replicas.push(solo);
    await waitFor(() => solo.set.ownedNow.length === 4 && solo.set.assignedOwners.length === 4, { message: 'all owned' });
    await solo.session.setData(`${solo.set.path}/assignment`, Buffer.from('not an assignment'), -1);
    // The assigner looks again when the members change: a second replica joins.
    const second = await startReplica(solo.set.path.replace(/\/partitions\/outbox$/, ''), 'second', { count: 4 });
    replicas.push(second);
    await waitFor(() => solo.set.ownedNow.length === 2 && second.set.ownedNow.length === 2, { message: 'rewritten: 2 and 2' });
  });
});
