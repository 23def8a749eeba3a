/**
 * DESIGN §3.1, the protected create: when the reply of a create is lost, the node may exist. The
 * acquire must find and adopt it (same session) or forget it (session expired: the server removed
 * it), never create a second node next to it (an orphan that would block the queue for as long as
 * the session lives, or a deadlock behind our own node).
 *
 * Faults: the holder-to-be talks to the server through a TcpProxy; a FaultySession wraps its
 * session and, right after the server applied the create, resets the proxy (the real connection
 * drops) and reports CONNECTIONLOSS to the caller instead of the created path.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LockClient } from '../../src/recipes/lock/lock-client.js';
import { ensurePath } from '../../src/recipes/queue/ensure-path.js';
import type { ZkSession } from '../../src/zookeeper/supervised-session.js';
import { basenameOf } from '../../src/zookeeper/znode-path.js';
import { connectionLoss, FaultySession, type Outcome, createdPath } from '../support/faulty-session.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { waitFor, withTimeout } from '../support/wait.js';
import { expireSession, openSession, queueNodes, sharedConnect, testRoot } from './lock-test-kit.js';

/** Creates of queue nodes (not of the lock directory and its parents). */
function queueCreates(faulty: FaultySession): number {
  return faulty.sent.filter((request) => request.op === 'create' && request.path.includes('/_c_')).length;
}

describe('a create whose reply is lost', () => {
  let proxy: TcpProxy;
  let observer: ZkSession;
  const sessions: ZkSession[] = [];
  before(async () => {
    const [host, port] = sharedConnect().split(',')[0]!.split(':');
    proxy = await TcpProxy.start(host!, Number(port));
    observer = await openSession(sharedConnect());
    sessions.push(observer);
  });
  after(async () => {
    // Proxy first: the C client's close waits synchronously for the server's answer, which an
    // in-process proxy cannot forward while the event loop is blocked (1.5 s per session).
    await proxy?.close();
    sessions.forEach((session) => session.close());
  });

  /** A session through the proxy, wrapped so that its next successful create "loses" its reply. */
  async function faultySession(onLost: () => void = () => proxy.reset()): Promise<{ faulty: FaultySession; created: Promise<string> }> {
    const session = await openSession(proxy.connectString, 2000);
    sessions.push(session);
    const faulty = new FaultySession(session);
    let resolveCreated!: (path: string) => void;
    const created = new Promise<string>((resolve) => (resolveCreated = resolve));
    const disarm = faulty.after('create', (request, outcome): Outcome | undefined => {
      if (!outcome.ok || !request.path.includes('/_c_')) return undefined; // not a queue node (yet)
      disarm();
      resolveCreated(createdPath(outcome.value));
      onLost();
      return { ok: false, error: connectionLoss('create', request.path) };
    });
    return { faulty, created };
  }

  it('adopts the node it created (same session): one node, granted, empty after release', async () => {
    const root = testRoot();
    const { faulty, created } = await faultySession();
    const locks = new LockClient(faulty, { root });
    const dir = locks.pathOf('lost-reply');
    // Contended, so that a second node of ours would queue behind the first forever.
    const other = new LockClient(observer, { root });
    const holder = await other.acquire('lost-reply');

    const acquiring = locks.acquire('lost-reply');
    const path = await withTimeout(created, 5000, 'the create was not sent');
    await waitFor(() => faulty.count('getData') >= 1, { timeoutMs: 10_000, message: 'the acquire queued up again after reconnecting' });
    assert.equal(queueCreates(faulty), 1, 'created exactly once');
    assert.equal((await queueNodes(observer, dir)).length, 2, 'the holder and us, no orphan');
    await holder.release();
    const lease = await withTimeout(acquiring, 10_000, 'deadlock: the acquire was never granted');

    assert.equal(lease.path, path, 'the lease is on the node the lost create made');
    assert.equal(lease.sessionId, faulty.sessionId);
    assert.equal(queueCreates(faulty), 1, 'created exactly once');
    assert.deepEqual(await queueNodes(observer, dir), [basenameOf(path)]);
    assert.equal((await observer.exists(path))?.ephemeralOwner, faulty.sessionId);
    await lease.release();
    assert.deepEqual(await queueNodes(observer, dir), []);
  });

  it('adopts its own node when another session holds one with the same uuid, wherever the listing puts it', async () => {
    // What a session that ZkSession abandoned while the ensemble was unreachable leaves when the
    // server kept it alive: the retried acquisition reuses its uuid on the new session. (Found by
    // the simulation's look-alike fault.) The server lists
    // children in no documented order; here the look-alike comes first.
    const root = testRoot();
    let lookAlike: string | undefined;
    const { faulty, created } = await faultySession(() => proxy.reset());
    faulty.before('create', async (request) => {
      if (lookAlike !== undefined || !request.path.includes('/_c_')) return;
      lookAlike = await observer.create(request.path, Buffer.from('look-alike'), 'ephemeral_sequential');
    });
    faulty.after('getChildren', (_request, outcome) => {
      if (!outcome.ok || lookAlike === undefined) return undefined;
      const { children, stat } = outcome.value as { children: string[]; stat: unknown };
      const first = basenameOf(lookAlike);
      return { ok: true, value: { children: [...children].sort((a, b) => Number(b === first) - Number(a === first)), stat } };
    });
    const locks = new LockClient(faulty, { root });
    const dir = locks.pathOf('look-alike');

    const acquiring = locks.acquire('look-alike', { waitMs: 8000 });
    const path = await withTimeout(created, 5000, 'the create was not sent');
    const lease = await withTimeout(acquiring, 10_000, 'the acquire never settled');

    assert.equal(lease.path, path, 'the lease is on the node the lost create made');
    assert.equal(queueCreates(faulty), 1, 'created exactly once: no second node behind our own');
    const ours = [];
    for (const name of await queueNodes(observer, dir)) {
      if ((await observer.exists(`${dir}/${name}`))?.ephemeralOwner === faulty.sessionId) ours.push(name);
    }
    assert.deepEqual(ours, [basenameOf(path)], 'no orphan of our session in the queue');
    await lease.release();
  });

  it('forgets the node when the session expired meanwhile: one node (new session), granted, empty after release', async () => {
    const root = testRoot();
    // Keep the proxy refusing after the reset, so that the session cannot come back before it is expired.
    const { faulty, created } = await faultySession(() => {
      proxy.refuse(true);
      proxy.reset();
    });
    const session = faulty.inner as ZkSession;
    const locks = new LockClient(faulty, { root });
    const dir = locks.pathOf('lost-reply');
    const oldSessionId = faulty.sessionId;
    // The directory exists, and as a persistent node: the server's container manager (every 60 s)
    // must not remove it while it is empty, or a create would meet NONODE and be sent twice.
    await ensurePath(observer, dir, 'persistent');

    const acquiring = locks.acquire('lost-reply');
    const path = await withTimeout(created, 5000, 'the create was not sent');
    try {
      await expireSession(sharedConnect(), session);
      await waitFor(async () => (await observer.exists(path)) === null, { timeoutMs: 5000, message: 'the expired session took its node' });
    } finally {
      proxy.refuse(false);
    }
    const lease = await withTimeout(acquiring, 15_000, 'the acquire was never granted');

    assert.notEqual(lease.sessionId, oldSessionId, 'granted on the new session');
    assert.equal(lease.sessionId, faulty.sessionId);
    const creates = faulty.sent.filter((request) => request.op === 'create');
    assert.deepEqual(creates.map((request) => request.sessionId), [oldSessionId, lease.sessionId], 'one create per session');
    assert.deepEqual(await queueNodes(observer, dir), [basenameOf(lease.path)]);
    assert.equal((await observer.exists(lease.path))?.ephemeralOwner, lease.sessionId);
    await lease.release();
    assert.deepEqual(await queueNodes(observer, dir), []);
  });

  it('a create that never reached the server, on a lock whose directory does not exist yet', async () => {
    const root = testRoot();
    const session = await openSession(sharedConnect(), 2000);
    sessions.push(session);
    const faulty = new FaultySession(session);
    faulty.before('create', (request) => {
      throw connectionLoss('create', request.path);
    }, 1);
    const locks = new LockClient(faulty, { root });
    const lease = await withTimeout(locks.acquire('never-sent'), 5000, 'the acquire was never granted');
    assert.deepEqual(await queueNodes(observer, locks.pathOf('never-sent')), [basenameOf(lease.path)]);
    await lease.release();
    assert.deepEqual(await queueNodes(observer, locks.pathOf('never-sent')), []);
  });
});
