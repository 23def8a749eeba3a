/**
 * The Nest surface of partitioned leadership: `partitions` in the module options, `PartitionService`,
 * `@ForEachOwnedPartition` running only for owned partitions, `@OnPartitionRecovery` repairing a run
 * that threw, typed errors for bad declarations, and `ZkLockTestingModule` owning every partition
 * without a server.
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { Injectable, type INestApplicationContext } from '@nestjs/common';
import { Cron, ScheduleModule } from '@nestjs/schedule';
import { Test } from '@nestjs/testing';
import { afterEach, describe, it } from 'node:test';
import { ForEachOwnedPartition } from '../../src/decorators/for-each-owned-partition.decorator.js';
import { OnPartitionRecovery } from '../../src/decorators/on-partition-recovery.decorator.js';
import { DuplicatePartitionSetError } from '../../src/errors/duplicate-partition-set.error.js';
import { InvalidPartitionCountError } from '../../src/errors/invalid-partition-count.error.js';
import { PartitionOutOfRangeError } from '../../src/errors/partition-out-of-range.error.js';
import { UnknownPartitionSetError } from '../../src/errors/unknown-partition-set.error.js';
import type { PartitionSection } from '../../src/recipes/partition/partition-set.js';
import type { InterruptedSection } from '../../src/recipes/ready/ready-state.js';
import { PartitionService } from '../../src/services/partition.service.js';
import { ZkLockTestingModule } from '../../src/testing/index.js';
import { resolveZkLockOptions } from '../../src/zk-lock.options-validator.js';
import { sharedConnect, startLockApp, testRoot } from '../lock/lock-test-kit.js';
import { waitFor } from '../support/wait.js';

@Injectable()
class OutboxRelay {
  readonly runs: { partition: number; token: bigint }[] = [];
  readonly recoveries: { partition: number; interrupted: InterruptedSection }[] = [];
  failOn: number | undefined;

  @ForEachOwnedPartition('outbox')
  async relay(partition: number, run: PartitionSection): Promise<number> {
    if (partition === this.failOn) {
      this.failOn = undefined;
      await run.checkpoint({ sent: 3 });
      throw new Error(`relay of partition ${partition} failed`);
    }
    this.runs.push({ partition, token: run.token });
    return partition;
  }

  @OnPartitionRecovery('outbox')
  repair(partition: number, interrupted: InterruptedSection): void {
    this.recoveries.push({ partition, interrupted });
  }
}

@Injectable()
class CronRelay {
  readonly runs = new Map<string, Set<number>>([['cronAbove', new Set()], ['cronBelow', new Set()]]);

  @Cron('* * * * * *')
  @ForEachOwnedPartition('outbox')
  cronAbove(partition: number): void {
    this.runs.get('cronAbove')!.add(partition);
  }

  @ForEachOwnedPartition('outbox')
  @Cron('* * * * * *')
  cronBelow(partition: number): void {
    this.runs.get('cronBelow')!.add(partition);
  }
}

@Injectable()
class Undeclared {
  @ForEachOwnedPartition('nope')
  tick(): void {}
}

const COUNT = 8;

/** A `@ForEachOwnedPartition` method is called without the partition arguments, which the decorator supplies (as `@Cron` calls it). */
const tick = (relay: OutboxRelay) => (relay.relay as unknown as () => Promise<number[]>).call(relay);

describe('partition sets in Nest', () => {
  const apps: INestApplicationContext[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });

  async function start(root: string, identity: string, providers: unknown[] = [OutboxRelay]): Promise<INestApplicationContext> {
    const app = await startLockApp({ connect: sharedConnect(), root, sessionTimeoutMs: 4000, identity, partitions: [{ name: 'outbox', count: COUNT }] }, providers as never[]);
    apps.push(app);
    await app.init();
    return app;
  }

  it('two replicas: the decorated method runs once per owned partition, every partition on exactly one', async () => {
    const root = testRoot();
    const [a, b] = [await start(root, 'a'), await start(root, 'b')];
    const services = [a, b].map((app) => app.get(PartitionService));
    await waitFor(() => services.every((s) => s.owned('outbox').length === COUNT / 2), { message: '4 and 4' });
    const relays = [a, b].map((app) => app.get(OutboxRelay));
    const results = await Promise.all(relays.map((relay) => tick(relay)));
    const ran = relays.map((relay) => relay.runs.map((run) => run.partition).sort((x, y) => x - y));
    assert.deepEqual(ran, services.map((s) => [...s.owned('outbox')]));
    assert.deepEqual([...ran[0]!, ...ran[1]!].sort((x, y) => x - y), Array.from({ length: COUNT }, (_, k) => k));
    assert.deepEqual(results.map((r) => [...r].sort((x, y) => x - y)), ran);
    for (const run of relays[0]!.runs) assert.equal(run.token, services[0]!.ownership('outbox', run.partition)!.token);
  });

  it('a run that throws: the partition is taken again and the recovery handler repairs it once, before new runs', async () => {
    const app = await start(testRoot(), 'solo');
    const service = app.get(PartitionService);
    const relay = app.get(OutboxRelay);
    await waitFor(() => service.owned('outbox').length === COUNT, { message: 'all owned' });
    const before = service.ownership('outbox', 5)!.token;
    relay.failOn = 5;
    await assert.rejects(tick(relay), /relay of partition 5 failed/);
    await waitFor(() => relay.recoveries.length === 1 && service.owned('outbox').includes(5), { message: 'partition 5 recovered and owned again' });
    const [{ partition, interrupted }] = relay.recoveries;
    assert.equal(partition, 5);
    assert.equal(interrupted.token, before);
    assert.deepEqual(interrupted.checkpoint, { sent: 3 });
    assert.ok(service.ownership('outbox', 5)!.token > before, 'a new ownership');
    await tick(relay);
    assert.equal(relay.recoveries.length, 1, 'recovered exactly once');
  });

  it('bad declarations fail with typed errors naming the set', async () => {
    const options = (partitions: unknown) => () => resolveZkLockOptions({ connect: '127.0.0.1:2181', partitions: partitions as never });
    assert.throws(options([{ name: 'outbox', count: 0 }]), InvalidPartitionCountError);
    assert.throws(options([{ name: 'outbox', count: 2.5 }]), /Partition set "outbox": count must be a positive integer, got 2.5/);
    assert.throws(options([{ name: 'outbox', count: 4, capacity: -1 }]), InvalidPartitionCountError);
    assert.throws(options([{ name: 'outbox', count: 4 }, { name: 'outbox', count: 4 }]), (error: unknown) => error instanceof DuplicatePartitionSetError && /\/zk-lock\/partitions\/outbox/.test(error.message));
    // On the simulated server: a Nest start-up that fails leaves no session of a real one open.
    const failing = await Test.createTestingModule({
      imports: [ZkLockTestingModule.forRoot({ partitions: [{ name: 'outbox', count: COUNT }] })],
      providers: [Undeclared],
    }).compile();
    apps.push(failing);
    await assert.rejects(failing.init(), (error: unknown) => error instanceof UnknownPartitionSetError && /"nope".*"outbox"/.test(error.message));
    const app = await start(testRoot(), 'y');
    const service = app.get(PartitionService);
    assert.throws(() => service.ownership('outbox', COUNT), (error: unknown) => error instanceof PartitionOutOfRangeError && /partitions\/outbox/.test(error.message));
    assert.throws(() => service.owned('other'), UnknownPartitionSetError);
  });

  it('ZkLockTestingModule: the only replica owns every partition, the decorated method runs for each', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [ZkLockTestingModule.forRoot({ partitions: [{ name: 'outbox', count: COUNT }] })],
      providers: [OutboxRelay],
    }).compile();
    apps.push(moduleRef);
    await moduleRef.init();
    const service = moduleRef.get(PartitionService);
    await waitFor(() => service.owned('outbox').length === COUNT, { message: 'all owned on the simulated server' });
    const relay = moduleRef.get(OutboxRelay);
    await tick(relay);
    assert.deepEqual(relay.runs.map((run) => run.partition).sort((x, y) => x - y), Array.from({ length: COUNT }, (_, k) => k));
  });

  it('composes with @Cron in either order: the ticks run for every owned partition', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [ScheduleModule.forRoot(), ZkLockTestingModule.forRoot({ partitions: [{ name: 'outbox', count: COUNT }] })],
      providers: [CronRelay],
    }).compile();
    apps.push(moduleRef);
    await moduleRef.init();
    const relay = moduleRef.get(CronRelay);
    await waitFor(() => [...relay.runs.values()].every((ran) => ran.size === COUNT), { timeoutMs: 15_000, message: 'both cron methods ran for every partition' });
  });
});
