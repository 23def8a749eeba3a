/**
 * The hand-over rehearsal: the election's own code runs one hand-over on an in-memory ZooKeeper,
 * once per process, so that a process's first real hand-over runs compiled code. It must really
 * walk the hand-over path (a standby grant, a report, a resignation), once. (What it buys is
 * measured by the W4 benchmark, not here.)
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { rehearseHandOver, rehearseHandOverOnce } from '../../src/recipes/election/hand-over-rehearsal.js';
import { LeaderElection } from '../../src/recipes/election/leader-election.js';
import { InMemoryZooKeeper } from '../../src/zookeeper/in-memory-zookeeper.js';
import type { Asker, WriteRequest } from '../../src/zookeeper/simulated/znode-tree.js';
import { sharedConnect, testRoot } from './election-cluster.js';
import { Kit, Recorder } from './election-kit.js';

let kit: Kit | undefined;
afterEach(async () => {
  await kit?.dispose();
  kit = undefined;
});

/** An in-memory ZooKeeper that counts the requests made on it, by operation. */
class CountingZooKeeper extends InMemoryZooKeeper {
  readonly counts = new Map<string, number>();

  override read(operation: Parameters<InMemoryZooKeeper['read']>[0], path: string, asker: Asker, watch?: boolean): ReturnType<InMemoryZooKeeper['read']> {
    this.count(operation);
    return super.read(operation, path, asker, watch);
  }

  override write(request: WriteRequest, asker: Asker): ReturnType<InMemoryZooKeeper['write']> {
    this.count(request.op);
    return super.write(request, asker);
  }

  private count(operation: string): void {
    this.counts.set(operation, (this.counts.get(operation) ?? 0) + 1);
  }
}

describe('hand-over rehearsal', () => {
  it('leads through a standby grant (no listing after the first), reports true then false, and leaves an empty tree', async () => {
    const zk = new CountingZooKeeper();
    let recorder: Recorder<boolean> | undefined;
    await rehearseHandOver((session, events) => {
      const election = new LeaderElection(session, { root: '/rehearsal', name: 'hand-over', identity: 'rehearsal', events });
      recorder = new Recorder(election.isLeader$);
      return election;
    }, zk);
    assert.deepEqual(recorder!.values.map((r) => r.value), [false, true, false]);
    assert.equal(recorder!.completed, true, 'closed');
    // One listing: the one behind the participant's create. The grant came from the watch on the
    // leader's node, the path a real successor takes.
    assert.equal(zk.counts.get('getChildren'), 1);
    // The leader's node, the participant's own, and the container they leave empty.
    assert.equal(zk.counts.get('delete'), 3);
    const leader = zk.connect();
    assert.equal(await leader.exists('/rehearsal/elections/hand-over'), null);
  });

  // It cannot reach the real server by construction: it makes its own in-memory sessions and is
  // never handed the election's. What can go wrong is when and how often it runs.
  it("starts with the process's first join, and only once", async () => {
    const k = (kit = new Kit(sharedConnect(), testRoot()));
    const election = k.election(await k.session(), 'A');
    election.join();
    const rehearsal = rehearseHandOverOnce(() => assert.fail('the join did not start the rehearsal'));
    await rehearsal;
    assert.equal(rehearseHandOverOnce(() => assert.fail('a second rehearsal was started')), rehearsal);
    await new Recorder(election.isLeader$).next(true);
  });
});

describe('InMemoryZooKeeper', () => {
  it("names sequential nodes from the parent's counter and delivers a change's notification before the reply of its request", async () => {
    const zk = new InMemoryZooKeeper();
    const a = zk.connect();
    const b = zk.connect();
    await a.create('/d', null, 'container');
    const first = await a.create('/d/n-', null, 'ephemeral_sequential');
    const second = await b.create('/d/n-', null, 'ephemeral_sequential');
    assert.deepEqual([first, second], ['/d/n-0000000000', '/d/n-0000000001']);
    assert.equal((await a.getData(first)).stat.ephemeralOwner, a.sessionId);
    const order: string[] = [];
    await b.getData(first, (event) => order.push(`${event.type} ${event.path}`));
    await a.delete(first).then(() => order.push('reply'));
    assert.deepEqual(order, ['deleted /d/n-0000000000', 'reply']);
    await b.delete(second);
    assert.equal(await a.exists('/d'), null, 'a container goes with its last child');
  });
});
