/**
 * The hand-off in one notification (`HandOff`), on a real server: a waiter right behind the holder
 * is granted on the holder's deletion without listing again, proving with a watch on its own node
 * that the node still stands; every exclusive holder's token is its node's czxid, so tokens
 * strictly increase across grants by listing and by hand-off. Where the driver cannot remove a
 * watch (`driver: 'native'`), the waiter lists again as before.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LockClient } from '../../src/recipes/lock/lock-client.js';
import type { Lease } from '../../src/recipes/lock/lease.js';
import type { ZkSession } from '../../src/zookeeper/supervised-session.js';
import { FaultySession } from '../support/faulty-session.js';
import { watchedBy } from '../support/server-watches.js';
import { sleep, waitFor, withTimeout } from '../support/wait.js';
import { observedSuite, queueNodes, sharedConnect, testRoot } from './lock-test-kit.js';

type Exclusive = 'lock' | 'write';

function acquire(client: LockClient, kind: Exclusive, name: string): Promise<Lease> {
  return kind === 'lock' ? client.acquire(name) : (client.acquireWrite(name) as Promise<Lease>);
}

describe('the hand-off in one notification', () => {
  const suite = observedSuite();

  async function client(root: string): Promise<{ session: ZkSession; faulty: FaultySession; locks: LockClient }> {
    const session = await suite.open();
    const faulty = new FaultySession(session);
    return { session, faulty, locks: new LockClient(faulty, { root }) };
  }

  for (const kind of ['lock', 'write'] as const) {
    it(`${kind}: the waiter behind the holder is granted on its deletion alone; tokens are czxids and strictly increase`, async () => {
      const root = testRoot();
      const [holder, first, second] = await Promise.all([client(root), client(root), client(root)]);
      const handOff = suite.observer.supports('removeWatches');
      const dir = holder.locks.pathOf('h', kind);
      const held = await acquire(holder.locks, kind, 'h');
      const czxids = [await czxidOf(held)];
      const firstGranted = acquire(first.locks, kind, 'h');
      // The first waiter watches the holder, and (the hand-off's proof) its own node.
      await waitFor(() => first.session.watcherCount === (handOff ? 2 : 1), { message: 'the first waiter stands by' });
      const secondGranted = acquire(second.locks, kind, 'h');
      await waitFor(() => second.session.watcherCount === 1, { message: 'the second waiter watches the first' });

      await held.release();
      const firstLease = await withTimeout(firstGranted, 5000, 'the first waiter is granted on the release');
      czxids.push(await czxidOf(firstLease));
      const ops = first.faulty.sent.map((request) => request.op);
      // create + listing, then the watches; a hand-off lists no more, and removes its proof's watch.
      if (handOff) assert.deepEqual(ops, ['create', 'getChildren', 'getData', 'getData', 'removeWatches']);
      else assert.deepEqual(ops, ['create', 'getChildren', 'getData', 'getChildren'], 'the C client: a listing after the wake');
      if (handOff) await waitFor(async () => (await watchedBy(sharedConnect(), first.session.sessionId!)).length === 0, { message: "the proof's watch is gone from the server" });

      await firstLease.release();
      const secondLease = await withTimeout(secondGranted, 5000, 'the second waiter is granted on the next release');
      czxids.push(await czxidOf(secondLease));
      // Its predecessor was a waiter at its last look: it lists again, as ZooKeeper's lock recipe does.
      assert.equal(second.faulty.sent.filter((request) => request.op === 'getChildren').length, 2);
      await secondLease.release();

      const leases = [held, firstLease, secondLease];
      assert.deepEqual(leases.map((lease) => lease.fencingToken), czxids, "each token is the holder's node's czxid");
      assert.ok(held.fencingToken < firstLease.fencingToken && firstLease.fencingToken < secondLease.fencingToken, leases.map((lease) => lease.fencingToken).join(' < '));
      assert.deepEqual(await queueNodes(suite.observer, dir), []);
    });
  }

  it('a waiter whose node is deleted while it stands by is not granted on it: the one behind it goes first', async () => {
    const root = testRoot();
    const [holder, victim, behind] = await Promise.all([client(root), client(root), client(root)]);
    const handOff = suite.observer.supports('removeWatches');
    const dir = holder.locks.pathOf('d');
    const held = await holder.locks.acquire('d');
    const victimGrants: Lease[] = [];
    const victimGranted = victim.locks.acquire('d').then((lease) => (victimGrants.push(lease), lease));
    await waitFor(() => victim.session.watcherCount === (handOff ? 2 : 1), { message: 'the victim stands by' });
    const behindGranted = behind.locks.acquire('d');
    await waitFor(() => behind.session.watcherCount === 1, { message: 'the one behind watches the victim' });
    const [, victimNode] = await queueNodes(suite.observer, dir);

    // Someone deletes the victim's node by hand (zkCli, a cleanup script): the one behind it wakes
    // and now stands right behind the holder too. Both would take the holder's deletion for a grant.
    await suite.observer.delete(`${dir}/${victimNode}`, -1);
    await waitFor(() => behind.session.watcherCount === (handOff ? 2 : 1), { message: 'the one behind stands by the holder' });
    await held.release();
    const behindLease = await withTimeout(behindGranted, 5000, 'the one behind is granted');
    await sleep(300);
    assert.deepEqual(victimGrants, [], 'the victim was not granted on its deleted node');
    const queue = await queueNodes(suite.observer, dir);
    assert.equal(queue.length, 2, `the holder and the victim, queued again: ${queue.join(', ')}`);
    assert.equal(queue[0], behindLease.path.slice(dir.length + 1));
    assert.notEqual(queue[1], victimNode, 'a new node');

    await behindLease.release();
    const victimLease = await withTimeout(victimGranted, 5000, 'the victim is granted on its new node');
    assert.ok(victimLease.fencingToken > behindLease.fencingToken);
    await victimLease.release();
  });

  async function czxidOf(lease: Lease): Promise<bigint> {
    const stat = await suite.observer.exists(lease.path);
    assert.ok(stat, `${lease.path} exists while held`);
    return stat.czxid;
  }
});
