/**
 * `LockService.current()` inside every kind of locked section (issue 29, item 7 of the review:
 * it was undefined below read/write locks and semaphores). In `withReadLock` / `withWriteLock` /
 * `withSemaphore` callbacks and in `@WithReadLock` / `@WithWriteLock` / `@WithSemaphore` methods,
 * `current()` and `current(name)` return the section's `HeldLock`, whose fencing token is the
 * lease's; nested sections of several kinds answer innermost first.
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Inject, Injectable } from '@nestjs/common';
import { WithReadLock, WithWriteLock } from '../../src/decorators/with-read-write-lock.decorator.js';
import { WithSemaphore } from '../../src/decorators/with-semaphore.decorator.js';
import type { HeldLock } from '../../src/services/held-lock.js';
import { LockService } from '../../src/services/lock.service.js';
import { lockAppSuite, testRoot } from './lock-test-kit.js';

/** What a decorated method saw of its lease through `current()`. */
interface Seen {
  readonly innermost: HeldLock | undefined;
  readonly named: HeldLock | undefined;
  /** Whether the lease is one this process holds right now (the fencing token is that lease's). */
  readonly held: boolean;
}

@Injectable()
class Writer {
  constructor(@Inject(LockService) private readonly locks: LockService) {}

  private seen(name: string): Seen {
    const innermost = this.locks.current();
    return { innermost, named: this.locks.current(name), held: innermost !== undefined && this.locks.heldLeases().includes(innermost.lease) };
  }

  @WithReadLock('catalogue')
  async read(): Promise<Seen> {
    return this.seen('catalogue');
  }

  @WithWriteLock('catalogue')
  async write(): Promise<Seen> {
    return this.seen('catalogue');
  }

  @WithSemaphore('exports', { permits: 2 })
  async export(): Promise<Seen> {
    return this.seen('exports');
  }
}

describe('LockService.current() in read/write-lock and semaphore sections', () => {
  const root = testRoot();
  const suite = lockAppSuite(root, [Writer]);

  for (const kind of ['read', 'write', 'semaphore'] as const) {
    it(`returns the lease in a ${kind} callback, fencing token included`, async () => {
      const { locks } = suite;
      const inside = (held: HeldLock) => ({ held, innermost: locks.current(), named: locks.current(`cb-${kind}`) });
      const seen =
        kind === 'read' ? await locks.withReadLock(`cb-${kind}`, inside)
        : kind === 'write' ? await locks.withWriteLock(`cb-${kind}`, inside)
        : await locks.withSemaphore(`cb-${kind}`, { permits: 3 }, inside);
      assert.equal(seen.innermost, seen.held, 'current() is the callback\'s lock');
      assert.equal(seen.named, seen.held, 'current(name) is the callback\'s lock');
      assert.equal(seen.innermost?.kind, kind);
      assert.equal(typeof seen.innermost?.fencingToken, 'bigint');
      assert.equal(seen.innermost?.fencingToken, seen.held.lease.fencingToken);
      assert.equal(locks.current(), undefined, 'nothing after the section');
    });
  }

  for (const method of ['read', 'write', 'export'] as const) {
    it(`returns the lease in a @With${method === 'export' ? 'Semaphore' : method === 'read' ? 'ReadLock' : 'WriteLock'} method, fencing token included`, async () => {
      const seen = await suite.app.get(Writer)[method]();
      assert.ok(seen.innermost, 'current() inside the method');
      assert.equal(seen.named, seen.innermost, 'current(name) is the same lease');
      assert.equal(seen.innermost.kind, method === 'export' ? 'semaphore' : method);
      assert.ok(seen.held, 'the lease this process held for the call');
      assert.ok(seen.innermost.fencingToken > 0n, `the fencing token is reachable (${seen.innermost.fencingToken})`);
    });
  }

  it('answers innermost first across kinds; a read within a write re-enters the write lease', async () => {
    const { locks } = suite;
    await locks.withLock('mixed', async (lock) => {
      await locks.withWriteLock('mixed', async (write) => {
        await locks.withReadLock('mixed', async (read) => {
          assert.equal(read, write, 'the read re-enters the write lease');
          assert.equal(locks.current('mixed'), write);
          assert.equal(locks.current('mixed')?.kind, 'write');
        });
        await locks.withSemaphore('pool', { permits: 1 }, async (permits) => {
          assert.equal(locks.current(), permits, 'the innermost section');
          assert.equal(locks.current('pool'), permits);
          assert.equal(locks.current('mixed'), write, 'the innermost of that name');
        });
      });
      assert.equal(locks.current('mixed'), lock, 'the lock again once the write lock ended');
    });
  });
});
