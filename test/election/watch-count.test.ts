/**
 * Issue 14 (smaller items): watches must not pile up across reconnections. The C client keeps
 * every watch through a reconnection of the same session (and re-registers it with the server),
 * so a recipe that sets a new watch on the same node after each `reconnected` keeps one more
 * callback per reconnection until that node changes. At most one watch per node may be
 * outstanding: the leader tracker's on the head node, and a waiter's on its predecessor and (with
 * succession) on its own node.
 *
 * Real server; the observed session goes through a TcpProxy whose `reset()` drops its connection.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { filter, firstValueFrom } from 'rxjs';
import { FairQueue } from '../../src/recipes/queue/fair-queue.js';
import { LeaderElection } from '../../src/recipes/election/leader-election.js';
import { LeaderTracker } from '../../src/recipes/election/leader-tracker.js';
import { Succession } from '../../src/recipes/election/succession.js';
import type { ZkSession } from '../../src/zookeeper/supervised-session.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { waitFor, withTimeout } from '../support/wait.js';
import { randomRoot, SessionPool, sharedConnectString, StateRecorder } from '../fixtures/session-helpers.js';

const RECONNECTIONS = 3;

describe('watches across reconnections', () => {
  let proxy: TcpProxy;
  const pool = new SessionPool();
  before(async () => {
    const [host, port] = sharedConnectString().split(',')[0]!.split(':');
    proxy = await TcpProxy.start(host!, Number(port));
  });
  after(async () => {
    await proxy?.close();
    pool.closeAll();
  });

  /** Drops the connection of `session` and waits until it is back (same session), then two round trips. */
  async function reconnect(session: ZkSession): Promise<void> {
    const recorder = new StateRecorder(session);
    proxy.reset();
    await recorder.waitFor('reconnected', 5000);
    recorder.stop();
    // Whatever the recipe sends on reconnection (a listing, then a read) is answered before these.
    await session.exists('/');
    await session.exists('/');
  }

  it('the leader tracker keeps one watch on the head node, and still follows the leader', async () => {
    const root = randomRoot();
    const dir = `${root}/elections/e`;
    const leaderSession = await pool.open({ sessionTimeoutMs: 4000 });
    const nextSession = await pool.open({ sessionTimeoutMs: 4000 });
    const observed = await pool.open({ connectString: proxy.connectString, sessionTimeoutMs: 4000 });
    const leader = new LeaderElection(leaderSession, { root, name: 'e', identity: 'first', drainTimeoutMs: 1000 });
    const next = new LeaderElection(nextSession, { root, name: 'e', identity: 'second', drainTimeoutMs: 1000 });
    const tracker = new LeaderTracker(observed, dir, { warn: (message) => assert.fail(message) });
    const seen: (string | null)[] = [];
    let subscription: { unsubscribe(): void } | undefined;
    try {
      // The leader first: a tracker that follows an empty election watches the directory, and a
      // join racing that watch leaves it standing on the native driver, which cannot remove it
      // (leader-tracker-watches.test.ts). This test is about reconnections.
      leader.join();
      await waitFor(() => leader.isLeader, { timeoutMs: 5000, message: 'the first participant leads' });
      subscription = tracker.leader$.subscribe((value) => seen.push(value));
      await waitFor(() => seen.at(-1) === 'first', { timeoutMs: 5000, message: 'the tracker names the leader' });
      assert.equal(observed.watcherCount, 1);
      for (let i = 1; i <= RECONNECTIONS; i++) {
        await reconnect(observed);
        assert.equal(observed.watcherCount, 1, `watches on the head after ${i} reconnection(s)`);
      }
      next.join();
      await waitFor(async () => (await nextSession.getChildren(dir)).children.length === 2, { timeoutMs: 5000, message: 'the second participant queued' });
      await leader.resign();
      await withTimeout(firstValueFrom(tracker.leader$.pipe(filter((value) => value === 'second'))), 5000, 'the tracker did not follow the hand-over');
      await waitFor(() => observed.watcherCount === 1, { timeoutMs: 5000, message: 'one watch, on the new head' });
    } finally {
      subscription?.unsubscribe();
      tracker.close();
      await Promise.all([leader.close(), next.close()]);
    }
  });

  it('a waiter with succession keeps one watch on its predecessor and one on its own node', async () => {
    const dir = `${randomRoot()}/q`;
    const holderSession = await pool.open({ sessionTimeoutMs: 4000 });
    const observed = await pool.open({ connectString: proxy.connectString, sessionTimeoutMs: 4000 });
    const holderQueue = new FairQueue(holderSession, ['n']);
    const queue = new FairQueue(observed, ['n']);
    const head = await holderQueue.join(dir);
    assert.ok(head);
    const reads = { prefetch: async () => undefined, standby: () => ({ current: async () => undefined, stop() {} }) };
    const waiting = queue.join(dir, { driver: new Succession(observed, reads) });
    await waitFor(() => observed.watcherCount === 2, { timeoutMs: 5000, message: 'the waiter watches its predecessor and its own node' });
    for (let i = 1; i <= RECONNECTIONS; i++) {
      await reconnect(observed);
      assert.equal(observed.watcherCount, 2, `watches after ${i} reconnection(s)`);
    }
    await holderQueue.leave(head.path, head.sessionId);
    const entry = await withTimeout(waiting, 5000, 'the waiter was never granted');
    assert.ok(entry);
    await queue.leave(entry.path, entry.sessionId);
  });

  it('a leader keeps one watch on its own node', async () => {
    const root = randomRoot();
    const observed = await pool.open({ connectString: proxy.connectString, sessionTimeoutMs: 4000 });
    const leader = new LeaderElection(observed, { root, name: 'e', identity: 'only', drainTimeoutMs: 1000 });
    try {
      leader.join();
      await waitFor(() => leader.isLeader, { timeoutMs: 5000, message: 'it leads' });
      const baseline = observed.watcherCount;
      for (let i = 1; i <= RECONNECTIONS; i++) {
        await reconnect(observed);
        await waitFor(() => leader.isLeader, { timeoutMs: 5000, message: 'it leads again' });
        assert.equal(observed.watcherCount, baseline, `watches after ${i} reconnection(s)`);
      }
    } finally {
      await leader.close();
    }
  });
});
