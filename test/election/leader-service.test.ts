/**
 * The Nest surface of leader election: LeaderService in real Nest apps (two apps, two sessions, in
 * one process, on the shared server), @LeaderOnly, @OnLeaderRecovery discovery, lifecycle, option
 * validation and decorator misuse.
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { Injectable, Module, type DynamicModule, type INestApplicationContext, type Provider } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { afterEach, describe, it } from 'node:test';
import { LeaderOnly } from '../../src/decorators/leader-only.decorator.js';
import { OnLeaderRecovery } from '../../src/decorators/on-leader-recovery.decorator.js';
import { DecoratorMisuseError } from '../../src/errors/decorator-misuse.error.js';
import { InvalidLockNameError } from '../../src/errors/invalid-lock-name.error.js';
import { InvalidOptionsError } from '../../src/errors/invalid-options.error.js';
import type { InterruptedSection } from '../../src/recipes/ready/ready-state.js';
import { LeaderService } from '../../src/services/leader.service.js';
import { ZkLockModule } from '../../src/zk-lock.module.js';
import { ZkSession } from '../../src/zookeeper/supervised-session.js';
import type { ZkLockModuleOptions } from '../../src/zk-lock.options.js';
import { resolveZkLockOptions } from '../../src/zk-lock.options-validator.js';
import { waitFor, withTimeout } from '../support/wait.js';
import { sharedConnect, testRoot } from './election-cluster.js';
import { Recorder } from './election-kit.js';
import { withTestDriver } from '../support/test-driver.js';

@Injectable()
class Jobs {
  readonly recovered: InterruptedSection[] = [];

  @LeaderOnly()
  report(value: number): number {
    return value * 2;
  }

  @LeaderOnly('reports')
  async crashHalfWay(): Promise<void> {
    throw new Error('crashed mid-report');
  }

  @OnLeaderRecovery('reports')
  repairReports(interrupted: InterruptedSection): void {
    this.recovered.push(interrupted);
  }
}

const apps: INestApplicationContext[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await withTimeout(app.close(), 10_000, 'app.close()');
});

async function startApp(options: Partial<ZkLockModuleOptions>, providers: Provider[] = [Jobs]): Promise<INestApplicationContext> {
  @Module({})
  class AppModule {}
  const module: DynamicModule = {
    module: AppModule,
    imports: [ZkLockModule.forRoot(withTestDriver({ connect: sharedConnect(), sessionTimeoutMs: 2000, drainTimeoutMs: 500, ...options }))],
    providers,
  };
  const app = await NestFactory.createApplicationContext(module, { logger: false, abortOnError: false });
  apps.push(app);
  return app;
}

describe('LeaderService', () => {
  it('joins the default and named elections on bootstrap, runs @LeaderOnly on the leader only, and hands over on shutdown', async () => {
    const root = testRoot();
    const first = await startApp({ root, identity: 'first' });
    const firstLeader = first.get(LeaderService);
    await new Recorder(firstLeader.isLeader$).next(true);
    await new Recorder(firstLeader.election('reports').isLeader$).next(true); // named by @LeaderOnly('reports'), joined at bootstrap
    const second = await startApp({ root, identity: 'second' });
    const secondLeader = second.get(LeaderService);
    await waitFor(async () => (await firstLeader.participants()).length === 2, { timeoutMs: 5000 });
    assert.deepEqual(await secondLeader.participants(), ['first', 'second']);
    assert.deepEqual(await secondLeader.election('reports').participants(), ['first', 'second']);
    const leaders = new Recorder(secondLeader.leader$);
    await leaders.next('first');

    assert.equal(await first.get(Jobs).report(21), 42, 'runs on the leader');
    assert.equal(await second.get(Jobs).report(21), undefined, 'does not run on a follower');
    await assert.rejects(first.get(Jobs).crashHalfWay(), /crashed mid-report/);

    const completed = new Recorder(firstLeader.isLeader$);
    const secondLeading = new Recorder(secondLeader.isLeader$);
    const reportsLeading = new Recorder(secondLeader.election('reports').isLeader$);
    apps.splice(apps.indexOf(first), 1);
    await first.close();
    assert.equal(completed.completed, true, 'isLeader$ completes on shutdown');
    await secondLeading.next(true, 0, 5000);
    await reportsLeading.next(true, 0, 5000);
    await leaders.next('second');
    assert.equal(second.get(Jobs).recovered.length, 1, '@OnLeaderRecovery("reports") ran in the new leader');
    assert.equal(second.get(Jobs).recovered[0]!.holder, 'first');
    assert.equal(await second.get(Jobs).report(1), 2);
  });

  it('with joinOnBootstrap false, joins only on join()', async () => {
    const root = testRoot();
    const app = await startApp({ root, identity: 'lazy', election: { joinOnBootstrap: false, name: 'jobs' } });
    const leader = app.get(LeaderService);
    assert.equal(leader.election().name, 'jobs');
    assert.equal(leader.election().isParticipating, false);
    assert.deepEqual(await leader.participants(), []);
    leader.join();
    await new Recorder(leader.isLeader$).next(true);
    assert.deepEqual(await leader.participants(), ['lazy']);
    assert.equal(leader.election('reports').isParticipating, false, 'named elections wait for join() too');
  });

  it('without the election option, a lock-only application joins no election; asking for one joins it', async () => {
    const root = testRoot();
    @Injectable()
    class LocksOnly {}
    const app = await startApp({ root, identity: 'locks-only' }, [LocksOnly]);
    const leader = app.get(LeaderService);
    const observer = await startApp({ root, identity: 'observer', election: { joinOnBootstrap: false } }, [LocksOnly]);
    assert.deepEqual(await observer.get(LeaderService).participants(), [], 'no node in the default election');
    leader.isLeader$.subscribe(); // asking for the default election after bootstrap joins it
    await new Recorder(leader.isLeader$).next(true);
    assert.deepEqual(await observer.get(LeaderService).participants(), ['locks-only']);
  });

  it('gives @LeaderOnly methods their section through current(): token and checkpoint', async () => {
    const root = testRoot();
    @Injectable()
    class Reporter {
      constructor(readonly leader: LeaderService) {}
      @LeaderOnly()
      async report(): Promise<bigint | undefined> {
        const section = this.leader.current();
        await section?.checkpoint({ step: 1 });
        return section?.token;
      }
    }
    const app = await startApp({ root, identity: 'reporter', election: {} }, [Reporter]);
    const leader = app.get(LeaderService);
    await new Recorder(leader.isLeader$).next(true);
    assert.equal(leader.current(), undefined, 'no section outside a leader call');
    const token = await app.get(Reporter).report();
    assert.equal(typeof token, 'bigint');
    assert.equal(token, leader.election().token);
  });

  it('fails start-up on a second recovery handler for one election', async () => {
    @Injectable()
    class OtherRepair {
      @OnLeaderRecovery('reports')
      repair(): void {}
    }
    // A testing module, so that the session opened before the failure can still be closed.
    const moduleRef = await Test.createTestingModule({
      imports: [ZkLockModule.forRoot(withTestDriver({ connect: sharedConnect(), root: testRoot(), sessionTimeoutMs: 2000 }))],
      providers: [Jobs, OtherRepair],
    })
      .setLogger({ log() {}, error() {}, warn() {} })
      .compile();
    try {
      await assert.rejects(moduleRef.init(), (error: unknown) => {
        assert.ok(error instanceof DecoratorMisuseError, String(error));
        assert.match(error.message, /OtherRepair\.repair|Jobs\.repairReports/);
        assert.match(error.message, /election "reports" already has a recovery handler/);
        return true;
      });
    } finally {
      // Nest 11's close() rethrows the failed init and runs no shutdown hook: close the session by hand then.
      await moduleRef.close().catch(() => moduleRef.get(ZkSession).close());
    }
  });

  it('rejects bad election options with InvalidOptionsError naming the field', async () => {
    const cases: [unknown, string][] = [
      [5, 'election'],
      [{ name: 'a/b' }, 'election.name'],
      [{ name: '' }, 'election.name'],
      [{ joinOnBootstrap: 'yes' }, 'election.joinOnBootstrap'],
      [{ suspendPolicy: 'later' }, 'election.suspendPolicy'],
    ];
    for (const [election, field] of cases) {
      assert.throws(
        () => resolveZkLockOptions({ connect: '127.0.0.1:2181', election } as ZkLockModuleOptions),
        (error: unknown) => error instanceof InvalidOptionsError && error.field === field,
        `${JSON.stringify(election)} -> ${field}`,
      );
    }
    assert.deepEqual(resolveZkLockOptions({ connect: '127.0.0.1:2181' }).election, { name: 'default', joinOnBootstrap: true, suspendPolicy: 'immediate', warmUpHandOver: true });
    await assert.rejects(startApp({ root: testRoot(), election: { suspendPolicy: 'never' as 'deadline' } }), InvalidOptionsError);
  });

  it('throws DecoratorMisuseError when the decorators are misused', async () => {
    const decorate = (decorator: MethodDecorator, target: object, descriptor: PropertyDescriptor | undefined) => decorator(target, 'member', descriptor as TypedPropertyDescriptor<unknown>);
    class Target {}
    for (const decorator of [LeaderOnly(), OnLeaderRecovery()]) {
      assert.throws(() => decorate(decorator, Target, { value: () => undefined }), DecoratorMisuseError, 'static method');
      assert.throws(() => decorate(decorator, Target.prototype, { get: () => 1 }), DecoratorMisuseError, 'accessor');
      assert.throws(() => decorate(decorator, Target.prototype, undefined), DecoratorMisuseError, 'property');
    }
    assert.throws(() => LeaderOnly('a/b'), InvalidLockNameError);
    assert.throws(() => OnLeaderRecovery('..'), InvalidLockNameError);
    // Called on an instance Nest did not build: refuses instead of running without knowing who leads.
    const detached = new Jobs();
    await assert.rejects(detached.report(1) as unknown as Promise<number>, DecoratorMisuseError);
  });
});
