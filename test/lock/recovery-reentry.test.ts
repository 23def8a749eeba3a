/**
 * Issue 14 L2: a guarded lock's recovery handler runs inside the lock's frame, so a handler that
 * takes the same lock (`withLock` of that name, a `@WithLock` method of it) re-enters the lease
 * being recovered instead of queueing behind its own node (a deadlock).
 */
import assert from 'node:assert/strict';
import 'reflect-metadata';
import { Injectable } from '@nestjs/common';
import { describe, it } from 'node:test';
import { WithLock } from '../../src/decorators/with-lock.decorator.js';
import type { InterruptedSection } from '../../src/recipes/ready/ready-state.js';
import { LockService } from '../../src/services/lock.service.js';
import { withTimeout } from '../support/wait.js';
import { lockAppSuite, queueNodes, testRoot } from './lock-test-kit.js';

@Injectable()
class Ledger {
  readonly repairs: { token: bigint | undefined; interrupted: InterruptedSection }[] = [];
  failNext = false;

  constructor(readonly locks: LockService) {}

  @WithLock('ledger', { recover: 'repair' })
  async post(): Promise<void> {
    if (this.failNext) {
      this.failNext = false;
      throw new Error('crashed mid-section');
    }
  }

  /** The repair takes the same lock through a @WithLock method, as a user naturally writes it. */
  async repair(interrupted: InterruptedSection): Promise<void> {
    await this.rebuild(interrupted);
  }

  @WithLock('ledger')
  async rebuild(interrupted: InterruptedSection): Promise<void> {
    this.repairs.push({ token: this.locks.current('ledger')?.fencingToken, interrupted });
  }
}

const root = testRoot();
const suite = lockAppSuite(root, [Ledger]);

describe('a recovery handler that takes the same lock (L2)', () => {
  it('withLock of the same name inside recover re-enters the lease being recovered', async () => {
    await assert.rejects(suite.locks.withLock('books', () => Promise.reject(new Error('crashed mid-section')), { recover: async () => {} }), /crashed/);
    let inner: bigint | undefined;
    const token = await withTimeout(
      suite.locks.withLock('books', (lock) => lock.fencingToken, {
        recover: async () => {
          inner = await suite.locks.withLock('books', (lock) => lock.fencingToken);
        },
      }),
      10_000,
      'deadlock: the recovery handler queued behind its own lock',
    );
    assert.equal(inner, token, 'the recovery ran under the lease being recovered');
    assert.deepEqual(await queueNodes(suite.observer, `${root}/locks/books`), []);
  });

  it('@WithLock recover calling a @WithLock method of the same lock completes', async () => {
    const ledger = suite.app.get(Ledger);
    ledger.failNext = true;
    await assert.rejects(ledger.post(), /crashed/);
    await withTimeout(ledger.post(), 10_000, 'deadlock: the recovery handler queued behind its own lock');
    assert.equal(ledger.repairs.length, 1, 'repaired once');
    assert.ok(ledger.repairs[0]!.token !== undefined, 'the repair ran holding the lock');
    assert.deepEqual(await queueNodes(suite.observer, `${root}/locks/ledger`), []);
  });
});
