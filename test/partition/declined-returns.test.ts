/**
 * A declined partition is declined until it has moved, not for the rest of the session: once the
 * partition went to another replica, the decliner's member node no longer lists it, so the
 * partition can be assigned back to it (balance, a hand-over by its new owner, the new owner
 * leaving). Two replicas on the real server: a partition asked away from `a` (by an operator, as
 * `nestjs-zk-lock hand-over` asks, or by `a`'s own `handOver`) goes to `b`; when `b` then hands it
 * over, the only replica to take it is `a`, which must not still be declining it.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { requestHandOver } from '../../src/recipes/partition/hand-over-request.js';
import { parseMember } from '../../src/recipes/partition/partition-records.js';
import { openSession, sharedConnect, testRoot } from '../lock/lock-test-kit.js';
import { waitFor } from '../support/wait.js';
import { balanced, startReplica, stopReplica, type Replica } from './partition-kit.js';

const COUNT = 4;

/** The partitions `replica`'s member node lists as declined, as stored on the server. */
async function declinedOf(replica: Replica): Promise<readonly number[]> {
  const id = replica.set.memberId!;
  const path = `${replica.set.path}/members/${id}`;
  const { data } = await replica.session.getData(path);
  return parseMember(path, id, data).declined ?? [];
}

describe('a declined partition once it has moved', () => {
  const replicas: Replica[] = [];
  afterEach(async () => {
    await Promise.all(replicas.splice(0).map((replica) => stopReplica(replica)));
  });

  async function twoReplicas(): Promise<[Replica, Replica]> {
    const root = testRoot();
    const a = await startReplica(root, 'a', { count: COUNT });
    replicas.push(a);
    const b = await startReplica(root, 'b', { count: COUNT });
    replicas.push(b);
    await balanced(replicas, COUNT);
    return [a, b];
  }

  /** Waits until `partition` is owned by `to` and the set is balanced again. */
  async function movedTo(to: Replica, partition: number): Promise<void> {
    await waitFor(() => to.set.ownedNow.includes(partition), { message: `partition ${partition} owned by ${to.name}` });
    await balanced(replicas, COUNT);
  }

  it("an operator's hand-over: the partition moves to b, and when b hands it over it comes back to a", async () => {
    const [a, b] = await twoReplicas();
    const partition = a.set.ownedNow[0]!;
    const operator = await openSession(sharedConnect());
    try {
      const asked = await requestHandOver(operator, a.set.path, partition);
      assert.equal(asked.requested, true, JSON.stringify(asked));
    } finally {
      operator.close();
    }
    await movedTo(b, partition);

    await b.set.handOver(partition);
    await movedTo(a, partition);
    assert.deepEqual(await declinedOf(a), [], "a's member node no longer declines the partition it took back");
    await waitFor(async () => (await declinedOf(b)).length === 0, { message: "b's member node cleared once the partition moved to a" });
  });

  it("a replica's own handOver: the partition moves to b, and when b hands it over it comes back to a", async () => {
    const [a, b] = await twoReplicas();
    const partition = a.set.ownedNow[0]!;
    await a.set.handOver(partition);
    await movedTo(b, partition);
    await waitFor(async () => (await declinedOf(a)).length === 0, { message: "a's member node cleared once the partition moved to b" });

    await b.set.handOver(partition);
    await movedTo(a, partition);
    assert.deepEqual(await declinedOf(a), []);
  });

  it('the replica that took it leaves: a owns every partition again and declines none', async () => {
    const [a, b] = await twoReplicas();
    const partition = a.set.ownedNow[0]!;
    await a.set.handOver(partition);
    await movedTo(b, partition);

    await stopReplica(replicas.pop()!);
    assert.equal(replicas.length, 1);
    await waitFor(() => a.set.ownedNow.length === COUNT, { message: 'a owns all partitions' });
    assert.deepEqual(await declinedOf(a), [], `${b.name} left; a's member node still declines partition ${partition}`);
  });
});
