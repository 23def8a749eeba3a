/**
 * Leader sections that call leader sections: a `@LeaderOnly` method calling another of the same
 * election (and `runAsLeader` inside `runAsLeader`) runs inside the enclosing section; a recovery
 * handler that calls `@LeaderOnly` methods runs them as part of the take-over; a section stuck past
 * the drain timeout does not keep a later leadership's sections from running. Real ZooKeeper (the
 * shared server), every wait bounded.
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { Injectable, Module, type DynamicModule, type INestApplicationContext, type Provider } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { afterEach, describe, it } from 'node:test';
import { LeaderOnly } from '../../src/decorators/leader-only.decorator.js';
import { OnLeaderRecovery } from '../../src/decorators/on-leader-recovery.decorator.js';
import { LeadershipLostError } from '../../src/errors/leadership-lost.error.js';
import type { InterruptedSection } from '../../src/recipes/ready/ready-state.js';
import { LeaderService } from '../../src/services/leader.service.js';
import { ZkLockTesting, ZkLockTestingModule } from '../../src/testing/index.js';
import { ZkLockModule } from '../../src/zk-lock.module.js';
import type { ZkLockModuleOptions } from '../../src/zk-lock.options.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { waitFor, withTimeout } from '../support/wait.js';
import { sharedConnect, testRoot } from './election-cluster.js';
import { Kit, Recorder } from './election-kit.js';
import { withTestDriver } from '../support/test-driver.js';

@Injectable()
class Reports {
  readonly repairs: { token: bigint | undefined; leading: boolean }[] = [];
  readonly recovered: InterruptedSection[] = [];

  constructor(readonly leader: LeaderService) {}

  @LeaderOnly()
  async outer(): Promise<string> {
    const section = this.leader.current();
    const inner = await this.inner();
    assert.equal(this.leader.current(), section, 'the nested call ran in the enclosing section');
    return `outer(${inner})`;
  }

  @LeaderOnly()
  async inner(): Promise<string> {
    await this.leader.current()?.checkpoint({ inner: true });
    return `inner@${String(this.leader.current()?.token)}`;
  }

  @LeaderOnly()
  async crash(): Promise<void> {
    throw new Error('crashed mid-report');
  }

  @LeaderOnly()
  async repairStep(): Promise<void> {
    this.repairs.push({ token: this.leader.current()?.token, leading: this.leader.isLeader });
    await this.leader.current()?.checkpoint({ repairing: true }); // not recorded: the recovery is retried from the predecessor's checkpoint
  }

  @OnLeaderRecovery()
  async recover(interrupted: InterruptedSection): Promise<void> {
    this.recovered.push(interrupted);
    await this.repairStep();
  }
}

const apps: INestApplicationContext[] = [];
let kit: Kit | undefined;
afterEach(async () => {
  for (const app of apps.splice(0)) await withTimeout(app.close(), 10_000, 'app.close()');
  await kit?.dispose();
  kit = undefined;
});

async function startApp(options: Partial<ZkLockModuleOptions>, providers: Provider[] = [Reports]): Promise<INestApplicationContext> {
  @Module({})
  class AppModule {}
  const module: DynamicModule = {
    module: AppModule,
    imports: [ZkLockModule.forRoot(withTestDriver({ connect: sharedConnect(), sessionTimeoutMs: 2000, drainTimeoutMs: 500, election: {}, ...options }))],
    providers,
  };
  const app = await NestFactory.createApplicationContext(module, { logger: false, abortOnError: false });
  apps.push(app);
  return app;
}

async function readyRecord(connect: string, root: string): Promise<{ state: string; token: string; holder: string }> {
  const k = (kit ??= new Kit(connect, root));
  const admin = await k.session();
  return JSON.parse((await admin.getData(`${root}/elections/default/ready`)).data.toString('utf8'));
}

describe('nested leader sections', () => {
  it('a @LeaderOnly method calling another of the same election runs it inside its own section', async () => {
    const root = testRoot();
    const app = await startApp({ root, identity: 'solo' });
    const leader = app.get(LeaderService);
    await new Recorder(leader.isLeader$).next(true);
    const result = await withTimeout(app.get(Reports).outer(), 5000, 'the nested @LeaderOnly call did not complete');
    assert.equal(result, `outer(inner@${String(leader.token)})`);
    assert.equal((await readyRecord(sharedConnect(), root)).state, 'ready', 'one section, completed once');
    // And runAsLeader inside runAsLeader, on the same section object.
    const nested = await withTimeout(
      leader.runAsLeader((outer) => leader.runAsLeader((inner) => inner === outer)),
      5000,
      'the nested runAsLeader did not complete',
    );
    assert.equal(nested, true);
  });

  it("a recovery handler's @LeaderOnly calls run as part of the take-over, under the new leader's token", async () => {
    const root = testRoot();
    const first = await startApp({ root, identity: 'first' });
    await new Recorder(first.get(LeaderService).isLeader$).next(true);
    await assert.rejects(first.get(Reports).crash(), /crashed mid-report/);
    assert.equal((await readyRecord(sharedConnect(), root)).state, 'dirty');

    const second = await startApp({ root, identity: 'second' });
    const secondLeader = second.get(LeaderService);
    await waitFor(async () => (await secondLeader.participants()).length === 2, { timeoutMs: 5000 });
    const leading = new Recorder(secondLeader.isLeader$);
    await withTimeout(apps.shift()!.close(), 10_000, 'first app.close()');
    await leading.next(true);
    const reports = second.get(Reports);
    assert.equal(reports.recovered.length, 1);
    assert.deepEqual(reports.repairs, [{ token: secondLeader.token, leading: false }], 'ran once, during the take-over, with the new token');
    const record = await readyRecord(sharedConnect(), root);
    assert.deepEqual([record.state, record.holder, record.token], ['ready', 'second', String(secondLeader.token)]);
  });
});

describe('stuck leader sections', () => {
  it('a section stuck past the drain timeout does not hold up the sections of a later leadership', async () => {
    kit = new Kit(sharedConnect(), testRoot());
    const a = kit.election(await kit.session(), 'A', { drainTimeoutMs: 200 });
    const leading = new Recorder(a.isLeader$);
    a.join();
    await leading.next(true);
    let unstick!: () => void;
    let entered = false;
    const stuck = a.runAsLeader(async () => {
      entered = true;
      await new Promise<void>((resolve) => (unstick = resolve)); // ignores its signal
    });
    stuck.catch(() => undefined);
    await waitFor(() => entered, { timeoutMs: 5000, message: 'stuck section entered' });
    try {
      await withTimeout(a.resign(), 5000, 'resign() past the drain timeout');
      const seen = leading.values.at(-1)!.seq;
      a.join();
      await leading.next(true, seen);
      const next = await withTimeout(a.runAsLeader((section) => section.token), 5000, 'a section of the new leadership did not run');
      assert.equal(next, a.token);
      assert.equal(await withTimeout(a.runAsLeader(() => 'again'), 5000, 'second section'), 'again');
    } finally {
      unstick();
    }
  });

  it('a section stuck when a disconnection ends the tenure: the next tenure (same token) repairs it and runs its own sections', async () => {
    kit = new Kit(sharedConnect(), testRoot());
    const [host, port] = sharedConnect().split(',')[0]!.split(':');
    const proxy = await TcpProxy.start(host!, Number(port));
    try {
      const a = kit.election(await kit.session(proxy.connectString), 'A', { suspendPolicy: 'immediate' });
      const repairs: InterruptedSection[] = [];
      a.onRecovery((interrupted) => void repairs.push(interrupted));
      const leading = new Recorder(a.isLeader$);
      a.join();
      await leading.next(true);
      const token = a.token;
      let unstick!: () => void;
      let entered = false;
      const stuck = a.runAsLeader(async (section) => {
        await section.checkpoint('half-way');
        entered = true;
        await new Promise<void>((resolve) => (unstick = resolve)); // ignores its signal
      });
      stuck.catch(() => undefined);
      await waitFor(() => entered, { timeoutMs: 5000, message: 'stuck section entered' });
      try {
        const seen = leading.values.at(-1)!.seq;
        proxy.reset(); // the connection drops; the session comes back at once
        await leading.next(false, seen);
        await leading.next(true, seen);
        assert.equal(a.token, token, 'the same queue node leads again: a new tenure, the same token');
        const next = await withTimeout(a.runAsLeader(() => 'new work'), 5000, 'a section of the new tenure did not run');
        assert.equal(next, 'new work');
        assert.equal(repairs.length, 1, 'the stranded section was repaired before new work');
        assert.deepEqual([repairs[0]!.token, repairs[0]!.checkpoint], [token, 'half-way']);
      } finally {
        unstick();
      }
      await assert.rejects(stuck, LeadershipLostError, 'the stuck section ends as interrupted');
    } finally {
      await kit.dispose();
      kit = undefined;
      await proxy.close();
    }
  });
});

describe('the election of nestjs-zk-lock/testing (the production one, on the simulated server) has the same semantics', () => {
  it('nested @LeaderOnly calls run in the enclosing section; a recovery handler runs them during the take-over', async () => {
    const moduleRef = await Test.createTestingModule({ imports: [ZkLockTestingModule.forRoot({ identity: 'unit' })], providers: [Reports] }).compile();
    moduleRef.useLogger(false);
    await moduleRef.init();
    try {
      const testing = moduleRef.get(ZkLockTesting);
      const leader = moduleRef.get(LeaderService);
      const reports = moduleRef.get(Reports);
      await testing.interruptLeader({ holder: 'earlier', checkpoint: 7 });
      await withTimeout(testing.setLeader(true), 2000, 'take-over');
      assert.equal(reports.recovered.length, 1);
      assert.deepEqual(reports.repairs, [{ token: leader.token, leading: false }]);
      assert.equal(await withTimeout(reports.outer(), 2000, 'nested call'), `outer(inner@${String(leader.token)})`);
    } finally {
      await moduleRef.close();
    }
  });
});
