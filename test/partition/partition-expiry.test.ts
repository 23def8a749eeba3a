/**
 * A replica whose session expires (cut off behind a proxy until the server expires it): it is told
 * it lost each of its partitions (`owned$` drops them, their signals abort) before the other
 * replica is told it owns them; then it comes back on a new session with a new member node, and
 * the set is balanced again.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { PartitionSet } from '../../src/recipes/partition/partition-set.js';
import type { ZkSession } from '../../src/zookeeper/supervised-session.js';
import { openSession, sharedConnect, testRoot } from '../lock/lock-test-kit.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { waitFor } from '../support/wait.js';
import { startReplica, stopReplica, type Replica } from './partition-kit.js';

const COUNT = 8;

describe('a replica whose session expires', () => {
  const closers: (() => Promise<void> | void)[] = [];
  after(async () => {
    for (const close of closers.reverse()) await close();
  });

  it('is told before the other owns its partitions, and rejoins balanced on its new session', async () => {
    const root = testRoot();
    const [host, port] = sharedConnect().split(',')[0]!.split(':');
    const proxy = await TcpProxy.start(host!, Number(port));
    const session: ZkSession = await openSession(proxy.connectString, 2000);
    const cut = new PartitionSet(session, { root, name: 'outbox', count: COUNT, identity: 'cut', logger: { warn() {}, error() {} } });
    // Proxy first: the C client's synchronous close would wait for an answer the blocked loop cannot forward.
    closers.push(async () => {
      await cut.close();
      await proxy.close();
      session.close();
    });
    cut.start();
    const other: Replica = await startReplica(root, 'other', { count: COUNT });
    closers.push(() => stopReplica(other));
    await waitFor(() => cut.ownedNow.length === COUNT / 2 && other.set.ownedNow.length === COUNT / 2, { message: '4 and 4' });

    const lostPartitions = [...cut.ownedNow];
    const signals = lostPartitions.map((k) => cut.ownership(k)!.signal);
    const order: string[] = [];
    const told = cut.owned$.subscribe((owned) => {
      for (const k of lostPartitions) if (!owned.includes(k) && !order.includes(`told ${k}`)) order.push(`told ${k}`);
    });
    const owns = other.set.owned$.subscribe((owned) => {
      for (const k of lostPartitions) if (owned.includes(k) && !order.includes(`other owns ${k}`)) order.push(`other owns ${k}`);
    });
    const firstMember = cut.memberId;
    const firstSession = session.sessionId;

    // A network partition: the server expires the session after its timeout (a close by another
    // client would end it at once, which no client can see coming: not a fault the lock survives).
    proxy.cut();
    await waitFor(() => lostPartitions.every((k) => order.includes(`other owns ${k}`)), { timeoutMs: 20_000, message: 'the other owns them' });
    proxy.restore();
    told.unsubscribe();
    owns.unsubscribe();
    for (const k of lostPartitions) {
      assert.ok(order.indexOf(`told ${k}`) >= 0 && order.indexOf(`told ${k}`) < order.indexOf(`other owns ${k}`), `partition ${k}: ${order.join(', ')}`);
    }
    assert.ok(signals.every((signal) => signal.aborted), 'every lost ownership signal aborted');

    await waitFor(() => session.sessionId !== firstSession && cut.memberId !== undefined, { timeoutMs: 15_000, message: 'a new session and member node' });
    assert.notEqual(cut.memberId, firstMember);
    await waitFor(() => cut.ownedNow.length === COUNT / 2 && other.set.ownedNow.length === COUNT / 2, { timeoutMs: 15_000, message: 'balanced again' });
  });
});
