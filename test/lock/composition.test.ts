/**
 * DESIGN §7: `@WithLock` composes with `@Cron` / `@Interval` of @nestjs/schedule in both decorator
 * orders (the scheduler discovers the job, and every run holds the lock), is re-entrant within one
 * async call chain, and two concurrent chains of one process exclude each other.
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable, type INestApplicationContext } from '@nestjs/common';
import { Cron, Interval, ScheduleModule } from '@nestjs/schedule';
import { WithLock } from '../../src/decorators/with-lock.decorator.js';
import { LockLostError } from '../../src/errors/lock-lost.error.js';
import { LockClient } from '../../src/recipes/lock/lock-client.js';
import type { HeldLock } from '../../src/services/held-lock.js';
import { LockService } from '../../src/services/lock.service.js';
import type { ZkSession } from '../../src/zookeeper/supervised-session.js';
import { basenameOf } from '../../src/zookeeper/znode-path.js';
import { waitFor, withTimeout } from '../support/wait.js';
import { openSession, queueNodes, sharedConnect, startLockApp, testRoot } from './lock-test-kit.js';

interface Run {
  readonly job: string;
  /** The lock the run saw through `lockService.current()`, if any. */
  readonly lock: string | undefined;
  /** Our node was at the head of the lock's queue in ZooKeeper during the run. */
  readonly atHead: boolean;
}

const root = testRoot();
let observer: ZkSession;

@Injectable()
class ScheduledJobs {
  readonly runs: Run[] = [];

  constructor(private readonly locks: LockService) {}

  @WithLock('cron-outer')
  @Cron('* * * * * *')
  cronLockOutside(): Promise<void> {
    return this.record('cronLockOutside');
  }

  @Cron('* * * * * *')
  @WithLock('cron-inner')
  cronLockInside(): Promise<void> {
    return this.record('cronLockInside');
  }

  @WithLock('interval-outer')
  @Interval(100)
  intervalLockOutside(): Promise<void> {
    return this.record('intervalLockOutside');
  }

  @Interval(100)
  @WithLock('interval-inner')
  intervalLockInside(): Promise<void> {
    return this.record('intervalLockInside');
  }

  private async record(job: string): Promise<void> {
    const held = this.locks.current();
    const head = held && (await queueNodes(observer, `${root}/locks/${held.name}`))[0];
    this.runs.push({ job, lock: held?.name, atHead: !!held && head === basenameOf(held.lease.path) });
  }
}

@Injectable()
class Nested {
  inside = 0;
  maxInside = 0;
  readonly tokens: bigint[] = [];

  constructor(readonly locks: LockService) {}

  @WithLock('reentrant')
  async outer(): Promise<[HeldLock | undefined, HeldLock | undefined, string[]]> {
    const mine = this.locks.current();
    const [inner, queued] = await this.inner();
    return [mine, inner, queued];
  }

  @WithLock('reentrant')
  async inner(): Promise<[HeldLock | undefined, string[]]> {
    return [this.locks.current(), await queueNodes(observer, `${root}/locks/reentrant`)];
  }

  @WithLock('flow')
  async flow(): Promise<void> {
    this.inside += 1;
    this.maxInside = Math.max(this.maxInside, this.inside);
    this.tokens.push(this.locks.current()!.fencingToken);
    await sleep(15);
    this.inside -= 1;
  }

  ranLocked = 0;

  @WithLock('later')
  async later(): Promise<void> {
    this.ranLocked += 1;
  }
}

describe('composition with @nestjs/schedule, re-entrancy, in-process exclusion', () => {
  let app: INestApplicationContext;
  before(async () => {
    observer = await openSession(sharedConnect());
    app = await startLockApp({ connect: sharedConnect(), root, sessionTimeoutMs: 4000 }, [ScheduledJobs, Nested], [ScheduleModule.forRoot()]);
  });
  after(async () => {
    await app?.close();
    observer?.close();
  });

  it('@Cron and @Interval in both orders: discovered, and every run holds its lock', async () => {
    const jobs = app.get(ScheduledJobs);
    const count = (job: string) => jobs.runs.filter((run) => run.job === job).length;
    await waitFor(() => ['cronLockOutside', 'cronLockInside'].every((job) => count(job) >= 2) && ['intervalLockOutside', 'intervalLockInside'].every((job) => count(job) >= 3), {
      timeoutMs: 10_000,
      message: 'every scheduled job ran',
    });
    const expected: Record<string, string> = {
      cronLockOutside: 'cron-outer',
      cronLockInside: 'cron-inner',
      intervalLockOutside: 'interval-outer',
      intervalLockInside: 'interval-inner',
    };
    for (const run of [...jobs.runs]) {
      assert.equal(run.lock, expected[run.job], `${run.job} ran holding ${run.lock}`);
      assert.ok(run.atHead, `${run.job}: our node was at the head of the queue`);
    }
  });

  it('re-entrant: a locked method calling another under the same name runs under the same lease', async () => {
    const nested = app.get(Nested);
    const [outer, inner, queued] = await withTimeout(nested.outer(), 5000, 'deadlock on re-entry');
    assert.ok(outer && inner);
    assert.equal(inner, outer, 'the same held lock');
    assert.equal(queued.length, 1, 'one node in ZooKeeper, not two');
    assert.deepEqual(await queueNodes(observer, `${root}/locks/reentrant`), []);
  });

  it('two (and more) concurrent flows in one process exclude each other', async () => {
    const nested = app.get(Nested);
    await withTimeout(Promise.all([nested.flow(), nested.flow(), nested.flow()]), 10_000, 'flows finished');
    assert.equal(nested.maxInside, 1, 'at most one flow inside');
    assert.equal(nested.tokens.length, 3);
    assert.ok(nested.tokens[0]! < nested.tokens[1]! && nested.tokens[1]! < nested.tokens[2]!);
  });

  it('a continuation that outlives its locked call is refused with LockLostError: neither run nor queued', async () => {
    const nested = app.get(Nested);
    const locks = app.get(LockService);
    const other = await openSession(sharedConnect());
    try {
      let fire!: () => void;
      const trigger = new Promise<void>((resolve) => (fire = resolve));
      let later!: Promise<void>;
      // The continuation is registered inside the locked call, so it carries that call's context.
      await locks.withLock('later', () => {
        later = trigger.then(() => nested.later());
      });
      const holder = await new LockClient(other, { root }).acquire('later');
      fire();
      // Running it would run it as the holder of a released lease (while `holder` holds the lock);
      // queueing it would silently turn a re-entry into a fresh acquisition.
      await assert.rejects(withTimeout(later, 5000, 'the late call neither ran nor failed'), LockLostError);
      assert.equal(nested.ranLocked, 0, 'the late call ran');
      assert.deepEqual(await queueNodes(observer, `${root}/locks/later`), [basenameOf(holder.path)], 'only the holder is in the queue');
      await holder.release();
    } finally {
      other.close();
    }
  });
});
