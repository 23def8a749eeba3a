/**
 * A try-once acquisition (`tryAcquire`, `waitMs: 0`, `onBusy: 'skip' | 'throw'` without `waitMs`)
 * never waits for ZooKeeper to come back: with the session disconnected it rejects at once with
 * `ZooKeeperUnreachableError` naming the lock; one whose create is unanswered when the connection
 * drops rejects as soon as the client notices the drop, and the node that create made (the reply
 * was lost, not the request) is removed once the session is back: no orphan.
 *
 * The session talks to the server through a TcpProxy; an observer session is connected directly.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { ZooKeeperUnreachableError } from '../../src/errors/zookeeper-unreachable.error.js';
import { LockClient } from '../../src/recipes/lock/lock-client.js';
import { LockService } from '../../src/services/lock.service.js';
import { zooKeeperBackend } from '../../src/services/zk-lock-backend.js';
import { resolveZkLockOptions } from '../../src/zk-lock.options-validator.js';
import { isConnectedState } from '../../src/zookeeper/session-state.js';
import type { ZkSession } from '../../src/zookeeper/supervised-session.js';
import { FaultySession } from '../support/faulty-session.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { TEST_DRIVER } from '../support/test-driver.js';
import { waitFor, withTimeout } from '../support/wait.js';
import { openSession, sharedConnect, testRoot } from './lock-test-kit.js';

/** Long enough that an outage of a few seconds leaves the session alive (suspended, then back). */
const SESSION_TIMEOUT_MS = 6000;
/** Generous bound for "at once": a try-once that waits for the reconnection never meets it (the proxy stays down). */
const PROMPT_MS = 3000;

describe('try-once while ZooKeeper is unreachable', () => {
  let proxy: TcpProxy;
  let observer: ZkSession;
  let session: ZkSession;
  let locks: LockService;
  let root: string;
  before(async () => {
    observer = await openSession(sharedConnect());
  });
  beforeEach(async () => {
    const [host, port] = sharedConnect().split(',')[0]!.split(':');
    proxy = await TcpProxy.start(host!, Number(port));
    session = await openSession(proxy.connectString, SESSION_TIMEOUT_MS);
    root = testRoot();
    const options = resolveZkLockOptions({ connect: proxy.connectString, root });
    locks = new LockService(zooKeeperBackend(session, options), options);
  });
  after(() => observer?.close());

  async function close(): Promise<void> {
    await withTimeout(locks.beforeApplicationShutdown(), 10_000, 'shutdown');
    await proxy.close(); // proxy first: see session-loss.test.ts
    session.close();
  }

  /** Every queue node left under the test root (all kinds of lock). */
  async function nodesLeft(): Promise<string[]> {
    const left: string[] = [];
    for (const kind of ['locks', 'rwlocks', 'semaphores']) {
      const base = `${root}/${kind}`;
      const dirs = await observer.getChildren(base).then(({ children }) => children, () => [] as string[]);
      for (const dir of dirs) {
        const { children } = await observer.getChildren(`${base}/${dir}`).catch(() => ({ children: [] as string[] }));
        left.push(...children.filter((child) => child.startsWith('_c_')).map((child) => `${base}/${dir}/${child}`));
      }
    }
    return left;
  }

  it('every try-once form rejects at once with ZooKeeperUnreachableError while the session is suspended', async () => {
    try {
      // Server down: every connection is closed, new ones are refused.
      proxy.refuse(true);
      proxy.reset();
      await waitFor(() => !isConnectedState(session.state), { timeoutMs: 10_000, message: 'session disconnected' });

      const tries: Record<string, () => Promise<unknown>> = {
        'tryAcquire': () => locks.tryAcquire('a'),
        'acquire waitMs 0': () => locks.acquire('a', { waitMs: 0 }),
        "withLock onBusy 'skip'": () => locks.withLock('a', () => 'ran', { onBusy: 'skip' }),
        "withLock onBusy 'throw'": () => locks.withLock('a', () => 'ran', { onBusy: 'throw' }),
        "withLocks onBusy 'skip'": () => locks.withLocks(['a', 'b'], () => 'ran', { onBusy: 'skip' }),
        "withReadLock onBusy 'skip'": () => locks.withReadLock('rw', () => 'ran', { onBusy: 'skip' }),
        "withWriteLock onBusy 'throw'": () => locks.withWriteLock('rw', () => 'ran', { onBusy: 'throw' }),
        'acquireRead waitMs 0': () => locks.acquireRead('rw', { waitMs: 0 }),
        'acquireWrite waitMs 0': () => locks.acquireWrite('rw', { waitMs: 0 }),
        "withSemaphore onBusy 'skip'": () => locks.withSemaphore('s', { permits: 2, onBusy: 'skip' }, () => 'ran'),
        'acquireSemaphore waitMs 0': () => locks.acquireSemaphore('s', { permits: 2 }, { waitMs: 0 }),
      };
      const outcomes: Record<string, string> = {};
      await Promise.all(Object.entries(tries).map(async ([form, attempt]) => {
        outcomes[form] = await withTimeout(attempt(), PROMPT_MS, 'still waiting').then(
          (value) => `resolved ${String(value)}`,
          (error: unknown) => (error instanceof ZooKeeperUnreachableError && error.message.includes(root) ? 'unreachable' : `rejected: ${error instanceof Error ? error.message : String(error)}`),
        );
      }));
      assert.deepEqual(outcomes, Object.fromEntries(Object.keys(tries).map((form) => [form, 'unreachable'])));

      proxy.refuse(false);
      await waitFor(() => isConnectedState(session.state), { timeoutMs: 15_000, message: 'session back' });
      assert.deepEqual(await nodesLeft(), [], 'nothing was queued');
    } finally {
      await close();
    }
  });

  it('a try that finds the lock busy answers undefined although the connection drops before its node is deleted; the node goes once the session is back', async () => {
    try {
      const holder = await new LockClient(observer, { root }).acquire('busy');
      const faulty = new FaultySession(session);
      const options = resolveZkLockOptions({ connect: proxy.connectString, root });
      const tryLocks = new LockService(zooKeeperBackend(faulty, options), options);
      const sessionId = session.sessionId;
      // The network goes silent (replies held) just before the delete of the busy try's node is
      // sent: the client declares the connection dead after its read timeout (suspended), and the
      // session counts as lost only later.
      faulty.before('delete', () => proxy.cutReplies(), 1);
      const outcome = await withTimeout(tryLocks.withLock('busy', () => 'ran', { onBusy: 'skip' }), 15_000, 'still waiting after the drop');
      assert.equal(outcome, undefined, 'busy: skipped');
      assert.equal(session.state, 'suspended', 'answered once the drop was noticed, not once the session counted as lost (or came back)');

      proxy.restore();
      await waitFor(() => isConnectedState(session.state), { timeoutMs: 15_000, message: 'session back' });
      assert.equal(session.sessionId, sessionId, 'the same session came back');
      await waitFor(async () => (await nodesLeft()).length === 1, { timeoutMs: 10_000, message: "only the holder's node: the try's is gone" });
      await holder.release();
      await withTimeout(tryLocks.beforeApplicationShutdown(), 10_000, 'shutdown');
    } finally {
      await close();
    }
  });

  it('a try whose request fails with connection loss answers at once, even while the session still reports connected', async () => {
    try {
      await (await locks.acquire('reset')).release(); // the directory exists
      const faulty = new FaultySession(session);
      const options = resolveZkLockOptions({ connect: proxy.connectString, root });
      const tryLocks = new LockService(zooKeeperBackend(faulty, options), options);
      // The server goes down as the create goes out. The `zookeeper` package fails the create with
      // CONNECTIONLOSS, and (with the package as installed here) reports no disconnection: the
      // state stays `connected`, so only the failed request can tell the try. The TypeScript driver
      // reports the disconnection as it fails the request: the try is answered as suspended.
      faulty.before('create', () => {
        proxy.refuse(true);
        proxy.reset();
      }, 1);
      const outcome = await withTimeout(tryLocks.tryAcquire('reset'), 15_000, 'still waiting after the connection loss').then(
        (lease) => `resolved ${lease ? 'a lease' : 'undefined'}`,
        (error: unknown) => (error instanceof ZooKeeperUnreachableError && (TEST_DRIVER === 'native' ? /CONNECTIONLOSS on create/ : /the session is suspended/).test(error.message) ? 'unreachable' : `rejected: ${error instanceof Error ? error.message : String(error)}`),
      );
      assert.equal(outcome, 'unreachable');

      proxy.refuse(false);
      await waitFor(async () => (await nodesLeft()).length === 0 && isConnectedState(session.state), { timeoutMs: 15_000, message: 'nothing left once the server is back' });
      await withTimeout(tryLocks.beforeApplicationShutdown(), 10_000, 'shutdown');
    } finally {
      await close();
    }
  });

  it('a try whose create is unanswered when the connection drops rejects once the drop is noticed, and leaves no node', async () => {
    try {
      await (await locks.acquire('in-flight')).release(); // the directory exists: the try is one create and one listing
      const sessionId = session.sessionId;
      // The create reaches the server; its reply (and every ping's) is held: the client declares
      // the connection dead after its read timeout.
      proxy.cutReplies();
      const outcome = await withTimeout(locks.tryAcquire('in-flight'), 15_000, 'still waiting after the drop').then(
        (lease) => `resolved ${lease ? 'a lease' : 'undefined'}`,
        (error: unknown) => (error instanceof ZooKeeperUnreachableError ? 'unreachable' : `rejected: ${error instanceof Error ? error.message : String(error)}`),
      );
      assert.equal(outcome, 'unreachable');
      assert.ok(!isConnectedState(session.state), 'rejected while the session was disconnected, not after a reconnection');
      assert.equal((await nodesLeft()).length, 1, 'the create was applied: only its reply was lost');

      proxy.restore();
      await waitFor(() => isConnectedState(session.state), { timeoutMs: 15_000, message: 'session back' });
      assert.equal(session.sessionId, sessionId, 'the same session came back (its node would have gone with it otherwise)');
      await waitFor(async () => (await nodesLeft()).length === 0, { timeoutMs: 10_000, message: 'the created node removed after the reconnection' });
    } finally {
      await close();
    }
  });
});
