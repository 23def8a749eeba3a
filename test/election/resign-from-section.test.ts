/**
 * `resign()` and `close()` called from inside a leader section of the same election (a
 * `runAsLeader` callback, a `@LeaderOnly` method), on the shared server: they must not wait for the
 * section that called them (it waits for them). Leadership is reported false at once, the calling
 * section finishes and completes (the ready record clean), and then the node goes: the next
 * participant leads without a recovery, long before the drain timeout would have fired.
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { Injectable, Module, type DynamicModule, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { afterEach, describe, it } from 'node:test';
import { LeaderOnly } from '../../src/decorators/leader-only.decorator.js';
import { OnLeaderRecovery } from '../../src/decorators/on-leader-recovery.decorator.js';
import type { LeaderElection } from '../../src/recipes/election/leader-election.js';
import type { InterruptedSection } from '../../src/recipes/ready/ready-state.js';
import { LeaderService } from '../../src/services/leader.service.js';
import { ZkLockModule } from '../../src/zk-lock.module.js';
import { waitFor, withTimeout } from '../support/wait.js';
import { sharedConnect, testRoot } from './election-cluster.js';
import { type Kit, kitPerTest, Recorder } from './election-kit.js';
import { withTestDriver } from '../support/test-driver.js';

const newKit = kitPerTest();

/** Far longer than any bounded wait below: a hand-over that waited for it would fail them. */
const DRAIN_TIMEOUT_MS = 60_000;
/** How long each step below may take; well under the drain timeout. */
const BOUND_MS = 5000;

async function readyRecord(k: Kit): Promise<{ state: string; token: string; holder: string }> {
  const admin = await k.session();
  return JSON.parse((await admin.getData(`${k.root}/elections/e/ready`)).data.toString('utf8'));
}

/** A leads, B queues behind it and records the recoveries it runs; both with a long drain timeout. */
async function leaderAThenB(k: Kit) {
  const a = k.election(await k.session(), 'A', { drainTimeoutMs: DRAIN_TIMEOUT_MS });
  const b = k.election(await k.session(), 'B', { drainTimeoutMs: DRAIN_TIMEOUT_MS });
  const recoveries: InterruptedSection[] = [];
  b.onRecovery((interrupted) => void recoveries.push(interrupted));
  a.join();
  await new Recorder(a.isLeader$).next(true);
  b.join();
  await waitFor(async () => (await a.participants()).length === 2, { timeoutMs: BOUND_MS });
  return { a, b, recoveries };
}

/** Runs a section on `a` that calls `leave` (its resign or close) and goes on after it: returns what it saw. */
async function sectionThatLeaves(a: LeaderElection, leave: () => Promise<void>) {
  return a.runAsLeader(async (section) => {
    await section.checkpoint('before leaving');
    await withTimeout(leave(), BOUND_MS, 'leaving from inside the section waited for the section itself');
    return { leadingAfter: a.isLeader, aborted: section.signal.aborted };
  });
}

describe('resign() / close() from inside a leader section', () => {
  it('resign() inside a section settles at once; the section completes, and the next participant leads with nothing to recover', async () => {
    const k = newKit();
    const { a, b, recoveries } = await leaderAThenB(k);
    const leadingB = new Recorder(b.isLeader$);
    const seen = await withTimeout(sectionThatLeaves(a, () => a.resign()), BOUND_MS, 'the section did not end');
    assert.deepEqual(seen, { leadingAfter: false, aborted: false }, 'reported false at once; the calling section may finish');
    await leadingB.next(true, 0, BOUND_MS);
    assert.equal(recoveries.length, 0, 'the section finished: nothing to recover');
    const record = await readyRecord(k);
    assert.equal(record.state, 'ready');
    assert.equal(record.holder, 'B', 'the take-over wrote its own token over a clean record');
    assert.equal(a.isParticipating, false);
    assert.deepEqual(await b.participants(), ['B']);
  });

  it("resign() inside a take-over's recovery handler settles at once; the repair is recorded once, and the next participant recovers nothing", async () => {
    const k = newKit();
    const a = k.election(await k.session(), 'A', { drainTimeoutMs: DRAIN_TIMEOUT_MS });
    const b = k.election(await k.session(), 'B', { drainTimeoutMs: DRAIN_TIMEOUT_MS });
    const c = k.election(await k.session(), 'C', { drainTimeoutMs: DRAIN_TIMEOUT_MS });
    const repairedByB: InterruptedSection[] = [];
    b.onRecovery(async (interrupted) => {
      repairedByB.push(interrupted);
      await withTimeout(b.resign(), BOUND_MS, 'resigning from the recovery handler waited for the handler itself');
    });
    const repairedByC: InterruptedSection[] = [];
    c.onRecovery((interrupted) => void repairedByC.push(interrupted));
    a.join();
    await new Recorder(a.isLeader$).next(true);
    await assert.rejects(a.runAsLeader(async (section) => {
      await section.checkpoint('half');
      throw new Error('crashed half-way');
    }), /crashed half-way/);
    b.join();
    await waitFor(async () => (await a.participants()).length === 2, { timeoutMs: BOUND_MS });
    c.join();
    await waitFor(async () => (await a.participants()).length === 3, { timeoutMs: BOUND_MS });
    const leadingC = new Recorder(c.isLeader$);
    await a.resign();
    await leadingC.next(true, 0, BOUND_MS);
    assert.deepEqual(repairedByB.map((r) => r.checkpoint), ['half'], 'B repaired what A left, once');
    assert.equal(repairedByC.length, 0, "B's repair was recorded before it handed over");
    assert.equal((await readyRecord(k)).state, 'ready');
  });

  it('close() inside a section does the same, and completes isLeader$', async () => {
    const k = newKit();
    const { a, b, recoveries } = await leaderAThenB(k);
    const leadingA = new Recorder(a.isLeader$);
    const leadingB = new Recorder(b.isLeader$);
    await withTimeout(sectionThatLeaves(a, () => a.close()), BOUND_MS, 'the section did not end');
    assert.ok(leadingA.completed);
    await leadingB.next(true, 0, BOUND_MS);
    assert.equal(recoveries.length, 0);
    assert.equal((await readyRecord(k)).state, 'ready');
  });
});

@Injectable()
class Quitter {
  readonly recovered: InterruptedSection[] = [];

  constructor(private readonly leader: LeaderService) {}

  @OnLeaderRecovery()
  repair(interrupted: InterruptedSection): void {
    this.recovered.push(interrupted);
  }

  /** Leader work that decides to hand leadership on, then finishes what it was doing. */
  @LeaderOnly()
  async workThenResign(): Promise<string> {
    await this.leader.resign();
    return 'done';
  }
}

const apps: INestApplicationContext[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await withTimeout(app.close(), 10_000, 'app.close()');
});

async function startApp(root: string, identity: string): Promise<INestApplicationContext> {
  @Module({})
  class AppModule {}
  const module: DynamicModule = {
    module: AppModule,
    imports: [ZkLockModule.forRoot(withTestDriver({ connect: sharedConnect(), root, identity, sessionTimeoutMs: 2000, drainTimeoutMs: DRAIN_TIMEOUT_MS }))],
    providers: [Quitter],
  };
  const app = await NestFactory.createApplicationContext(module, { logger: false, abortOnError: false });
  apps.push(app);
  return app;
}

describe('LeaderService.resign() from a @LeaderOnly method', () => {
  it('hands over without waiting for the method that called it; the next leader has nothing to recover', async () => {
    const root = testRoot();
    const first = await startApp(root, 'first');
    await new Recorder(first.get(LeaderService).isLeader$).next(true);
    const second = await startApp(root, 'second');
    const secondLeader = second.get(LeaderService);
    await waitFor(async () => (await secondLeader.participants()).length === 2, { timeoutMs: BOUND_MS });
    const leadingSecond = new Recorder(secondLeader.isLeader$);
    assert.equal(await withTimeout(first.get(Quitter).workThenResign(), BOUND_MS, 'resign() inside @LeaderOnly waited for the method itself'), 'done');
    await leadingSecond.next(true, 0, BOUND_MS);
    assert.deepEqual(await secondLeader.participants(), ['second']);
    assert.equal(second.get(Quitter).recovered.length, 0, 'the method finished before the hand-over: its section completed');
  });
});
