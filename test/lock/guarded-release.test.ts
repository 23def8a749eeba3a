/**
 * The end of a guarded lock section (issue 32): its completion (the versioned delete of the ready
 * record) and the release of the lock (the delete of the holder's queue node) go out as one
 * transaction where the driver has multi, so the end costs one request and one round trip instead
 * of two of each; the native driver keeps the two steps. And what the transaction's failures mean:
 * a foreign record (the state is not ours), our node gone (the lock went with it, so the section
 * is left for the next holder to repair), a reply lost with the connection (the retry recognises
 * the transaction it had applied). `LockService` over a `FaultySession` (without faults unless a
 * test injects one) on the shared server, which counts the requests.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { LockLostError } from '../../src/errors/lock-lost.error.js';
import type { InterruptedSection } from '../../src/recipes/ready/ready-state.js';
import { LockService } from '../../src/services/lock.service.js';
import { zooKeeperBackend } from '../../src/services/zk-lock-backend.js';
import { resolveZkLockOptions } from '../../src/zk-lock.options-validator.js';
import type { ZkDriver } from '../../src/zookeeper/open-session-handle.js';
import { ZkSession } from '../../src/zookeeper/supervised-session.js';
import { connectionLoss, FaultySession, type RequestOp } from '../support/faulty-session.js';
import { withTimeout } from '../support/wait.js';
import { sharedConnect, testRoot } from './lock-test-kit.js';

const opened: ZkSession[] = [];
after(() => Promise.all(opened.map((session) => session.close())));

async function open(driver: ZkDriver): Promise<ZkSession> {
  const session = new ZkSession({ connectString: sharedConnect(), sessionTimeoutMs: 4000, connectTimeoutMs: 15_000, driver });
  opened.push(session);
  await session.connect();
  return session;
}

/** A `LockService` as `ZkLockModule` wires it, over `session` seen through a `FaultySession`. */
async function lockServiceOn(driver: ZkDriver): Promise<{ locks: LockService; faulty: FaultySession; root: string }> {
  const root = testRoot();
  const faulty = new FaultySession(await open(driver));
  const options = resolveZkLockOptions({ connect: sharedConnect(), root, identity: `guarded-${driver}` });
  return { locks: new LockService(zooKeeperBackend(faulty, options), options), faulty, root };
}

describe('the end of a guarded lock section', () => {
  for (const driver of ['typescript', 'native'] as const) {
    const expected: RequestOp[] = driver === 'typescript' ? ['multi'] : ['delete', 'delete'];
    it(`costs ${expected.length === 1 ? 'one transaction, one round trip' : 'two deletes in two round trips'} with driver '${driver}'`, async () => {
      const { locks, faulty, root } = await lockServiceOn(driver);
      const recoveries: InterruptedSection[] = [];
      for (let cycle = 0; cycle < 3; cycle++) {
        let atEnd = 0;
        const sentAtReply: number[] = [];
        const stop = faulty.after('*', () => void sentAtReply.push(faulty.sent.length));
        await withTimeout(
          locks.withLock('job', () => void (atEnd = faulty.sent.length), { recover: (interrupted) => void recoveries.push(interrupted) }),
          10_000,
          'guarded call',
        );
        stop();
        const end = faulty.sent.slice(atEnd);
        assert.deepEqual(end.map((request) => request.op), expected, `cycle ${cycle}: the requests after fn returned`);
        // One round trip per request: each of the native driver's deletes waits for the reply before it.
        const repliesDuringEnd = sentAtReply.filter((sent) => sent > atEnd);
        assert.deepEqual(repliesDuringEnd, end.map((_, index) => atEnd + index + 1), `cycle ${cycle}: one request out per round trip`);
      }
      assert.deepEqual(recoveries, [], 'every section completed: none to repair');
      const dir = `${root}/locks/job`;
      assert.deepEqual((await faulty.inner.getChildren(dir)).children, [], 'no ready record, no queue node left');
    });
  }

  it('a record written by another holder meanwhile: LockLostError, the node is released, the record stays', async () => {
    const { locks, faulty, root } = await lockServiceOn('typescript');
    const ready = `${root}/locks/job/ready`;
    const foreign = Buffer.from(JSON.stringify({ v: 1, state: 'dirty', token: '999999999999', holder: 'intruder', since: 0 }));
    await assert.rejects(
      withTimeout(locks.withLock('job', () => faulty.inner.setData(ready, foreign, -1).then(() => undefined), { recover: () => undefined }), 10_000),
      (error: unknown) => error instanceof LockLostError && /another holder/.test(error.message),
    );
    assert.deepEqual((await faulty.inner.getChildren(`${root}/locks/job`)).children, ['ready'], 'our node released, the foreign record kept');
    assert.equal(JSON.parse((await faulty.inner.getData(ready)).data.toString()).holder, 'intruder');
  });

  it('our queue node gone before the end (the lock went with it): LockLostError, and the section stays for the next holder to repair', async () => {
    const { locks } = await lockServiceOn('typescript');
    const other = await open('typescript');
    await assert.rejects(
      withTimeout(locks.withLock('job', (lock) => other.delete(lock.lease.path, -1), { recover: () => undefined }), 10_000),
      (error: unknown) => error instanceof LockLostError,
    );
    const recoveries: InterruptedSection[] = [];
    await withTimeout(locks.withLock('job', () => undefined, { recover: (interrupted) => void recoveries.push(interrupted) }), 10_000);
    assert.equal(recoveries.length, 1, 'the next holder repaired the section the lost holder could not complete');
  });

  it('a transaction whose reply was lost with the connection is recognised as applied on its retry', async () => {
    const { locks, faulty } = await lockServiceOn('typescript');
    // The server applies the transaction; its caller is told CONNECTIONLOSS (outcome unknown).
    faulty.after('multi', (request) => ({ ok: false, error: connectionLoss('multi', request.path) }), 1);
    const since = faulty.sent.length;
    await withTimeout(locks.withLock('job', () => undefined, { recover: () => undefined }), 10_000, 'guarded call');
    assert.equal(faulty.count('multi', since), 2, 'sent again after the loss');
    const recoveries: InterruptedSection[] = [];
    await withTimeout(locks.withLock('job', () => undefined, { recover: (interrupted) => void recoveries.push(interrupted) }), 10_000);
    assert.deepEqual(recoveries, [], 'the first transaction completed the section');
  });

  it('a transaction lost before it was sent is sent again and completes', async () => {
    const { locks, faulty } = await lockServiceOn('typescript');
    faulty.before('multi', (request) => {
      throw connectionLoss('multi', request.path);
    }, 1);
    await withTimeout(locks.withLock('job', () => undefined, { recover: () => undefined }), 10_000, 'guarded call');
    const recoveries: InterruptedSection[] = [];
    await withTimeout(locks.withLock('job', () => undefined, { recover: (interrupted) => void recoveries.push(interrupted) }), 10_000);
    assert.deepEqual(recoveries, []);
  });
});
