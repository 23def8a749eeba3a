/**
 * Cooperative revocation of locks against the shared ZooKeeper server: `LockService.requestRelease`
 * marks the holder's queue node; the holder's `releaseRequested` signal aborts (in another
 * process too), and only the holder releases. A holder that never reads the signal has no watch
 * (the server's own `wchc` says so) and keeps its lock; a mark made before the first read is seen
 * with that read; the waiter behind a marked holder is woken by the mark but not granted before
 * the holder's node is deleted; the watch survives a dropped connection.
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import { InvalidLockNameError } from '../../src/errors/invalid-lock-name.error.js';
import { LockTimeoutError } from '../../src/errors/lock-timeout.error.js';
import { ReleaseRequestedError } from '../../src/errors/release-requested.error.js';
import { LockClient } from '../../src/recipes/lock/lock-client.js';
import type { Lease } from '../../src/recipes/lock/lease.js';
import { LockService } from '../../src/services/lock.service.js';
import { ZkSession } from '../../src/zookeeper/supervised-session.js';
import { watchedBy } from '../support/server-watches.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { sleep, waitFor, withTimeout } from '../support/wait.js';
import { Fixture, firedWatches, lockAppSuite, openSession, queueNodes, sharedConnect, startLockApp, testRoot } from './lock-test-kit.js';

const SESSION_TIMEOUT_MS = 4000;

/** Resolves with the signal's reason once it aborts (bounded). */
function aborted(signal: AbortSignal, message: string): Promise<unknown> {
  if (signal.aborted) return Promise.resolve(signal.reason);
  return withTimeout(once(signal, 'abort').then(() => signal.reason), 5000, message);
}

describe('cooperative revocation of locks', () => {
  const root = testRoot();
  const suite = lockAppSuite(root);
  const holder = (name: string, mode: 'cooperative' | 'ignore', identity: string) =>
    new Fixture('revocable-holder', { ZK_CONNECT: sharedConnect(), LOCK_ROOT: root, LOCK_NAME: name, MODE: mode, IDENTITY: identity, SESSION_TIMEOUT_MS: String(SESSION_TIMEOUT_MS) });

  it('a holder in another process sees the request, stops at a safe point and releases; the next waiter is granted', async () => {
    const child = holder('report', 'cooperative', 'report-holder:1');
    try {
      const holding = await child.message<{ token: string; sessionId: string; node: string }>('holding');
      const granted = suite.locks.withLock('report', (lock) => lock.fencingToken, { waitMs: 15_000 });
      await waitFor(async () => (await queueNodes(suite.observer, `${root}/locks/report`)).length === 2, { message: 'the waiter queued' });

      const asked = await suite.locks.requestRelease('report');
      assert.deepEqual(asked, {
        requested: true,
        dir: `${root}/locks/report`,
        node: holding.node,
        identity: 'report-holder:1',
        sessionId: holding.sessionId,
        repeated: false,
      });
      const seen = await child.message<{ error: string; message: string; lockPath: string; stillHeld: boolean }>('release-requested');
      assert.equal(seen.error, 'ReleaseRequestedError');
      assert.equal(seen.lockPath, `${root}/locks/report`);
      assert.match(seen.message, new RegExp(`lock ${root}/locks/report `));
      assert.equal(seen.stillHeld, true, 'the request released nothing on the holder\'s behalf');
      const token = await granted;
      assert.ok(token > BigInt(holding.token), `the waiter's token ${token} follows the holder's ${holding.token}`);
      await child.message('released');
      assert.equal((await child.exited).code, 0, child.output.join(''));
    } finally {
      await child.kill();
    }
  });

  it('a holder that never reads releaseRequested gets no watch and keeps the lock', async () => {
    const child = holder('kept', 'ignore', 'kept-holder:2');
    try {
      const holding = await child.message<{ sessionId: string; node: string }>('holding');
      assert.deepEqual(await watchedBy(sharedConnect(), holding.sessionId), [], 'a holder watches nothing');
      const asked = await suite.locks.requestRelease('kept');
      assert.ok(asked.requested && asked.node === holding.node, JSON.stringify(asked));
      assert.equal((await suite.observer.getData(holding.node)).stat.version, 1, 'the mark is on the holder\'s node');
      // Asked, but nothing lets go on its behalf: a waiter still finds the lock held.
      await assert.rejects(suite.locks.withLock('kept', () => 'ran', { waitMs: 500 }), LockTimeoutError);
      assert.deepEqual(await queueNodes(suite.observer, `${root}/locks/kept`), [holding.node.split('/').at(-1)]);
      assert.deepEqual(await watchedBy(sharedConnect(), holding.sessionId), [], 'still no watch after the request');
      child.send({ type: 'finish' });
      const still = await child.message<{ held: boolean; signalAborted: boolean }>('still-held');
      assert.deepEqual(still, { type: 'still-held', held: true, signalAborted: false });
      await child.message('released');
    } finally {
      await child.kill();
    }
  });

  it('a mark made before the first read of releaseRequested is seen with that read; one watch, set once', async () => {
    const lease = await suite.locks.acquire('early');
    const session = suite.app.get(ZkSession);
    try {
      assert.deepEqual(await watchedBy(sharedConnect(), session.sessionId!), [], 'nothing watched before the first read');
      await suite.locks.requestRelease('early');
      const signal = lease.releaseRequested;
      assert.equal(lease.releaseRequested, signal, 'one signal per lease');
      const reason = await aborted(signal, 'releaseRequested did not abort for a mark made before it was read');
      assert.ok(reason instanceof ReleaseRequestedError, String(reason));
      assert.equal(reason.lockPath, `${root}/locks/early`);
      assert.equal(reason.node, lease.path);
      assert.equal(lease.isHeld, true, 'still held: the holder decides');
      assert.equal(lease.signal.aborted, false);
      // The read left its watch (it fires once, on the release); later reads set no other.
      void lease.releaseRequested;
      assert.deepEqual(await watchedBy(sharedConnect(), session.sessionId!), [lease.path]);
    } finally {
      await lease.release();
    }
    assert.deepEqual(await watchedBy(sharedConnect(), session.sessionId!), [], 'the release fired the watch');
    const late = await suite.locks.acquire('early');
    await late.release();
    assert.equal(late.releaseRequested.aborted, false, 'a released lease is asked nothing');
    assert.deepEqual(await watchedBy(sharedConnect(), session.sessionId!), [], 'and watches nothing');
  });

  it('a waiter behind a marked holder keeps waiting, and is granted once, when the holder releases', async () => {
    const holderSession = await openSession(sharedConnect());
    const waiterSession = await openSession(sharedConnect());
    const dir = `${root}/locks/queue`;
    let holderLease: Lease | undefined;
    try {
      holderLease = await new LockClient(holderSession, { root, identity: 'queue-holder' }).acquire('queue');
      const waiterClient = new LockClient(waiterSession, { root });
      let grants = 0;
      const waited = waiterClient.acquire('queue').then((lease) => {
        grants++;
        return lease;
      });
      // The holder's node, and (the hand-off's proof, where the driver can remove it again) its own.
      const watching = waiterSession.supports('removeWatches') ? 2 : 1;
      await waitFor(() => waiterSession.watcherCount === watching, { message: 'the waiter watches the holder' });
      const before = await firedWatches(sharedConnect());
      const asked = await suite.locks.requestRelease('queue');
      assert.ok(asked.requested && asked.node === holderLease.path && asked.identity === 'queue-holder', JSON.stringify(asked));
      // The mark fires the waiter's watch on its predecessor: it looks again and watches again.
      await waitFor(async () => (await firedWatches(sharedConnect())) > before, { message: 'the mark notified the waiter' });
      await waitFor(async () => (await watchedBy(sharedConnect(), waiterSession.sessionId!)).includes(holderLease!.path), { message: 'the waiter watches the holder again' });
      await sleep(300);
      assert.equal(grants, 0, 'not granted while the marked holder holds');
      assert.equal(holderLease.isHeld, true);
      assert.equal((await queueNodes(suite.observer, dir)).length, 2);
      assert.equal(waiterSession.watcherCount, watching, 'one watch on the holder (and the one on its own node, set once)');

      await holderLease.release();
      const lease = await withTimeout(waited, 5000, 'the waiter is granted on the release');
      assert.ok(lease.fencingToken > holderLease.fencingToken);
      await sleep(100);
      assert.equal(grants, 1);
      assert.deepEqual(waiterClient.heldLeases(), [lease]);
      assert.deepEqual(await queueNodes(suite.observer, dir), [lease.path.split('/').at(-1)], 'one node: the waiter did not queue twice');
      // The mark went with the old holder's node: the new holder was not asked.
      const fresh = lease.releaseRequested;
      await sleep(200);
      assert.equal(fresh.aborted, false);
      await lease.release();
    } finally {
      await holderLease?.release();
      holderSession.close();
      waiterSession.close();
    }
  });

  it('says whom it asked, that it asked before, or that nobody held; refuses a bad name; passes over a persistent look-alike', async () => {
    assert.deepEqual(await suite.locks.requestRelease('never-used'), { requested: false, dir: `${root}/locks/never-used`, reason: 'free' });
    await assert.rejects(suite.locks.requestRelease('a/b'), InvalidLockNameError);
    await assert.rejects(suite.locks.requestRelease(''), InvalidLockNameError);

    // A persistent node named like a queue node, first in line: it holds nothing and is passed over.
    const dir = `${root}/locks/look-alike`;
    await suite.observer.create(`${root}/locks`, null, 'persistent').catch(() => undefined);
    await suite.observer.create(dir, null, 'persistent');
    const fake = `${dir}/_c_00000000-0000-4000-8000-000000000000-lock-0000000000`;
    await suite.observer.create(fake, Buffer.from('by hand'), 'persistent');
    const lease = await suite.locks.acquire('look-alike', { waitMs: 5000 });
    try {
      const first = await suite.locks.requestRelease('look-alike');
      assert.ok(first.requested && first.node === lease.path && !first.repeated, JSON.stringify(first));
      const second = await suite.locks.requestRelease('look-alike');
      assert.ok(second.requested && second.node === lease.path && second.repeated, JSON.stringify(second));
      assert.equal((await suite.observer.getData(fake)).stat.version, 0, 'the look-alike was not written');
    } finally {
      await lease.release();
      await suite.observer.delete(fake);
    }
  });

  it('the watch rides through a dropped connection; a read made while disconnected, or lost with the connection, still gets there', async () => {
    const [host, port] = sharedConnect().split(':');
    const proxy = await TcpProxy.start(host!, Number(port));
    const app = await startLockApp({ connect: proxy.connectString, root, sessionTimeoutMs: SESSION_TIMEOUT_MS }, []);
    try {
      const locks = app.get(LockService);
      const session = app.get(ZkSession);
      const watched = await locks.acquire('reconnect-a');
      const signal = watched.releaseRequested;
      await waitFor(() => session.watcherCount === 1, { message: 'the watch stands' });
      proxy.reset();
      await waitFor(() => session.state === 'reconnected', { timeoutMs: 5000, message: 'reconnected' });
      await suite.locks.requestRelease('reconnect-a');
      assert.ok((await aborted(signal, 'the watch did not survive the reconnection')) instanceof ReleaseRequestedError);

      // A read made while disconnected goes out once the connection is back (the C client queues it).
      const queued = await locks.acquire('reconnect-b');
      proxy.refuse(true);
      proxy.reset();
      await waitFor(() => session.state === 'suspended', { timeoutMs: 5000, message: 'suspended' });
      const whileDown = queued.releaseRequested;
      await suite.locks.requestRelease('reconnect-b');
      await sleep(200);
      assert.equal(whileDown.aborted, false);
      proxy.refuse(false);
      assert.ok((await aborted(whileDown, 'the read made while disconnected was not sent')) instanceof ReleaseRequestedError);

      // A read whose reply the dropped connection lost (CONNECTIONLOSS: no watch was set) is sent again.
      const unread = await locks.acquire('reconnect-c');
      await suite.locks.requestRelease('reconnect-c');
      proxy.cut();
      const late = unread.releaseRequested; // sent into the partition
      await sleep(100);
      proxy.reset();
      proxy.restore();
      assert.ok((await aborted(late, 'the read lost with the connection was not sent again')) instanceof ReleaseRequestedError);
      assert.equal(unread.isHeld, true);
      await Promise.all([watched.release(), queued.release(), unread.release()]);
    } finally {
      await app.close();
      await proxy.close();
    }
  });
});
