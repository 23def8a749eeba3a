/**
 * Invariant 2: a holder whose session may have expired is told (its lease signal aborts with
 * LockLostError) before another session can be granted the lock; once the server expired it, its
 * node is gone and the waiter holds the lock. And a grant that arrives when the session already
 * counts as lost never runs the locked function.
 *
 * The holder talks to the server through a TcpProxy (`cut()` = partition); the other session is
 * connected directly.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { LockLostError } from '../../src/errors/lock-lost.error.js';
import { LockClient } from '../../src/recipes/lock/lock-client.js';
import { LockService } from '../../src/services/lock.service.js';
import { zooKeeperBackend } from '../../src/services/zk-lock-backend.js';
import { resolveZkLockOptions } from '../../src/zk-lock.options-validator.js';
import type { SessionState } from '../../src/zookeeper/session-state.js';
import type { ZkSession } from '../../src/zookeeper/supervised-session.js';
import { basenameOf } from '../../src/zookeeper/znode-path.js';
import { FaultySession } from '../support/faulty-session.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { waitFor, withTimeout } from '../support/wait.js';
import { expireBehindProxy, openSession, queueNodes, sharedConnect, testRoot } from './lock-test-kit.js';

const HOLDER_TIMEOUT_MS = 2000;

/** Resolves once `session` is in `state` (bounded). */
function untilState(session: ZkSession, state: SessionState, timeoutMs = 10_000): Promise<void> {
  return withTimeout(
    new Promise<void>((resolve) => {
      const subscription = session.state$.subscribe((change) => {
        if (change.state !== state) return;
        queueMicrotask(() => subscription.unsubscribe());
        resolve();
      });
    }),
    timeoutMs,
    `session never became ${state}`,
  );
}

describe('session loss while holding', () => {
  let proxy: TcpProxy;
  let observer: ZkSession;
  let holderSession: ZkSession;
  before(async () => {
    observer = await openSession(sharedConnect());
  });
  beforeEach(async () => {
    const [host, port] = sharedConnect().split(',')[0]!.split(':');
    proxy = await TcpProxy.start(host!, Number(port));
    holderSession = await openSession(proxy.connectString, HOLDER_TIMEOUT_MS);
  });
  after(() => observer?.close());

  /** Proxy first: the C client's synchronous close would wait for an answer the blocked loop cannot forward. */
  async function closeHolder(): Promise<void> {
    await proxy.close();
    holderSession.close();
  }

  it('cut(): the lease signal aborts before the other session is granted; after expiry the node is gone', async () => {
    try {
      const root = testRoot();
      const holderLocks = new LockClient(holderSession, { root });
      const dir = holderLocks.pathOf('cut');
      const lease = await holderLocks.acquire('cut');
      const lostSessionId = holderSession.sessionId;
      const events: string[] = [];
      lease.signal.addEventListener('abort', () => events.push(lease.signal.reason instanceof LockLostError ? 'holder told: LockLostError' : `holder told: ${String(lease.signal.reason)}`));
      const waiting = new LockClient(observer, { root }).acquire('cut').then((granted) => {
        events.push('other granted');
        return granted;
      });
      await waitFor(async () => (await queueNodes(observer, dir)).length === 2, { timeoutMs: 5000, message: 'the other session queued' });

      proxy.cut();
      const granted = await withTimeout(waiting, 15_000, 'the other session was never granted the lock');
      assert.deepEqual(events, ['holder told: LockLostError', 'other granted']);
      assert.equal(lease.isHeld, false);
      assert.deepEqual(await queueNodes(observer, dir), [basenameOf(granted.path)], "the expired session's node is gone");

      // Healing the partition brings the holder a new session; nothing of the old one is left.
      proxy.restore();
      await waitFor(() => holderSession.state === 'connected' && holderSession.sessionId !== lostSessionId, { timeoutMs: 10_000, message: 'holder on a new session' });
      await withTimeout(lease.release(), 5000, 'release of the lost lease');
      assert.deepEqual(await queueNodes(observer, dir), [basenameOf(granted.path)]);
      await granted.release();
      assert.deepEqual(await queueNodes(observer, dir), []);
    } finally {
      await closeHolder();
    }
  });

  it('a grant that arrives once the session counts as lost never runs the locked function', async () => {
    try {
      const root = testRoot();
      await (await new LockClient(observer, { root }).acquire('late-grant')).release(); // the directory exists
      const faulty = new FaultySession(holderSession);
      const options = resolveZkLockOptions({ connect: proxy.connectString, root });
      const locks = new LockService(zooKeeperBackend(faulty, options), options);
      const dir = `${root}/locks/late-grant`;
      // The listing that grants the lock is answered; before the caller sees it, the connection
      // drops and stays down until the session counts as lost (as after a process pause).
      faulty.after('getChildren', async () => {
        proxy.cut();
        await untilState(holderSession, 'lost');
      }, 1);

      let ran = 0;
      await assert.rejects(
        withTimeout(locks.withLock('late-grant', () => void (ran += 1)), 15_000, 'withLock never settled'),
        LockLostError,
      );
      assert.equal(ran, 0, 'the locked function ran on a lost lease');

      proxy.restore(); // reconnected or expired: either way our node must go
      await waitFor(async () => (await queueNodes(observer, dir)).length === 0, { timeoutMs: 10_000, message: 'the lost lease left its node' });
      await locks.beforeApplicationShutdown();
    } finally {
      await closeHolder();
    }
  });

  it('a waiter whose session is replaced between its listing and its watch re-queues on the new session', async () => {
    try {
      const root = testRoot();
      const holder = await new LockClient(observer, { root }).acquire('requeue');
      const faulty = new FaultySession(holderSession);
      const locks = new LockClient(faulty, { root });
      const dir = locks.pathOf('requeue');
      const firstSessionId = holderSession.sessionId;
      // The listing that puts us second in line is answered; before the caller sees it, the server
      // expires the session and the supervisor replaces it.
      faulty.after('getChildren', async () => {
        await expireBehindProxy(proxy, sharedConnect(), holderSession);
        await waitFor(() => holderSession.state === 'connected' && holderSession.sessionId !== firstSessionId, { timeoutMs: 10_000, message: 'replacement session' });
      }, 1);

      const acquiring = locks.acquire('requeue');
      await waitFor(async () => faulty.count('getData') >= 1, { timeoutMs: 15_000, message: 'queued again on the new session' });
      const queued = await queueNodes(observer, dir);
      assert.equal(queued.length, 2, 'the holder and our new node, nothing of the expired session');
      assert.equal((await observer.exists(`${dir}/${queued[1]}`))?.ephemeralOwner, holderSession.sessionId);
      await holder.release();
      const lease = await withTimeout(acquiring, 10_000, 'never granted');
      assert.equal(lease.sessionId, holderSession.sessionId);
      await lease.release();
      assert.deepEqual(await queueNodes(observer, dir), []);
    } finally {
      await closeHolder();
    }
  });
});
