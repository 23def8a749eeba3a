/**
 * Issue 14, smaller items: a failing release never hides what happened. The error `fn` threw wins
 * over a release that fails after it (the release error is logged); the background delete of a
 * lost lease's node reports its failure instead of swallowing it. No server: the lock recipe is
 * a stub whose deletes fail, so the failure is exact.
 */
import assert from 'node:assert/strict';
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { describe, it, mock } from 'node:test';
import type { LockRecipe } from '../../src/recipes/lock/lock-client.js';
import { Lease, type LeaseHost } from '../../src/recipes/lock/lease.js';
import { LockService } from '../../src/services/lock.service.js';
import type { ZkLockBackend } from '../../src/services/zk-lock-backend.js';
import { resolveZkLockOptions } from '../../src/zk-lock.options-validator.js';

const deleteFailed = new Error('delete failed: NOAUTH');

function entry(name: string) {
  return { dir: `/r/locks/${name}`, path: `/r/locks/${name}/_c_x-lock-0000000001`, sessionId: '1', token: 1n, waited: false };
}

/** Grants every acquisition at once; every release (the node's delete) fails. */
function failingDeletes(): LockRecipe {
  return {
    acquire: async (name) => new Lease(name, entry(name), () => Promise.reject(deleteFailed)),
    tryAcquire: async (name) => new Lease(name, entry(name), () => Promise.reject(deleteFailed)),
    acquireRead: async (name) => new Lease(name, entry(name), () => Promise.reject(deleteFailed)),
    acquireWrite: async (name) => new Lease(name, entry(name), () => Promise.reject(deleteFailed)),
    acquirePermits: async (name) => new Lease(name, entry(name), () => Promise.reject(deleteFailed)),
    pathOf: (name) => `/r/locks/${name}`,
    heldLeases: () => [],
    requestRelease: (name) => Promise.resolve({ requested: false, dir: `/r/locks/${name}`, reason: 'free' }),
    enterGuarded: () => Promise.reject(new Error('not guarded')),
    completeAndRelease: () => undefined,
    close: async () => {},
  };
}

describe('release failures are reported, never hide the error (issue 14)', () => {
  it('the error fn threw wins over a failing release, which is logged', async () => {
    const logged = mock.method(Logger.prototype, 'error', () => undefined);
    try {
      const backend = { locks: failingDeletes() } as unknown as ZkLockBackend;
      const locks = new LockService(backend, resolveZkLockOptions({ connect: '127.0.0.1:2181' }));
      await assert.rejects(
        locks.withLock('job', () => {
          throw new Error('the work failed');
        }),
        /the work failed/,
        'the release error replaced the error fn threw',
      );
      assert.equal(logged.mock.callCount(), 1, 'the release failure was not logged');
      assert.match(String(logged.mock.calls[0]!.arguments[0]), /\/r\/locks\/job.*NOAUTH/);
      // Without an error of fn's, the release error is the outcome.
      await assert.rejects(locks.withLock('job', () => 'done'), /NOAUTH/);
    } finally {
      logged.mock.restore();
    }
  });

  it('the background delete of a lost lease reports its failure to the host', async () => {
    const failures: unknown[] = [];
    const host: LeaseHost = { sessionInDoubt: () => false, lost: () => {}, releaseFailed: (_lease, error) => failures.push(error), watchReleaseRequest: () => {} };
    const lease = new Lease('job', entry('job'), () => Promise.reject(deleteFailed), host);
    lease.markLost('the session expired');
    await lease.release(); // resolves at once: a lost lease's node goes with its session
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(failures, [deleteFailed]);
  });
});
