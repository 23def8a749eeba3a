/**
 * Partitioned leadership with real processes. A replica SIGKILLed mid-work: partitions moved
 * away from it while its work ran wait for that work (never taken by force), and after its session
 * expired every one of its partitions is re-owned and recovered exactly once, from its ready
 * znode, by its new owner. A replica SIGSTOPped past its session timeout: the partitions it had are
 * owned elsewhere meanwhile, no run of it started after another replica owned them, and once it
 * resumes it reports them all lost, its runs refused.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { InterruptedSection } from '../../src/recipes/ready/ready-state.js';
import type { ZkSession } from '../../src/zookeeper/supervised-session.js';
import { Fixture, openSession, sharedConnect, testRoot } from '../lock/lock-test-kit.js';
import { waitFor, withTimeout } from '../support/wait.js';
import { ownersOf, startReplica, stopReplica, type Replica } from './partition-kit.js';

const COUNT = 8;
const FIXTURE_TIMEOUT_MS = 2000;

/**
 * Fixtures are forked before this process opens a session (the `zookeeper` package's sockets are
 * not close-on-exec: see test/lock/crash-recovery.test.ts); each test closes what it opened.
 */
describe('partition owners that die or stall', () => {
  const fixtures: Fixture[] = [];
  const replicas: Replica[] = [];
  let observer: ZkSession | undefined;
  afterEach(async () => {
    for (const fixture of fixtures.splice(0)) {
      try { process.kill(fixture.pid, 'SIGCONT'); } catch { /* gone */ }
      await fixture.kill();
    }
    await Promise.all(replicas.splice(0).map((replica) => stopReplica(replica)));
    observer?.close();
    observer = undefined;
  });

  function startFixture(root: string, mode: 'crash' | 'pause'): Fixture {
    const fixture = new Fixture('partition-replica', {
      ZK_CONNECT: sharedConnect(),
      ROOT: root,
      MODE: mode,
      SESSION_TIMEOUT_MS: String(FIXTURE_TIMEOUT_MS),
      IDENTITY: `replica-${mode}`,
      PARTITION_COUNT: String(COUNT),
    });
    fixtures.push(fixture);
    return fixture;
  }

  it('SIGKILL mid-work: moves wait for the running work; after the session expired, each partition is recovered exactly once', async () => {
    const root = testRoot();
    const dead = startFixture(root, 'crash');
    await dead.message('owned');
    const { tokens } = await dead.message<{ tokens: Record<string, string> }>('entered');
    observer = await openSession(sharedConnect());
    const setPath = `${root}/partitions/outbox`;
    const [deadMember] = (await observer.getChildren(`${setPath}/members`)).children;

    const recoveries: { partition: number; interrupted: InterruptedSection; memberGone: boolean }[] = [];
    for (const name of ['b', 'c']) {
      const replica = await startReplica(root, name, { count: COUNT });
      replica.set.onRecovery(async (partition, interrupted) => {
        // Recovered only once the dead replica's session is gone (its member node went with it).
        const memberGone = (await observer!.exists(`${setPath}/members/${deadMember}`)) === null;
        recoveries.push({ partition, interrupted, memberGone });
      });
      replicas.push(replica);
    }
    // The assigner moved partitions away from the stuck replica: the others wait for its work.
    await waitFor(() => replicas.every((r) => r.set.assignedOwners.some((owner) => owner === r.set.memberId)), { message: 'partitions assigned to b and c' });
    assert.deepEqual(ownersOf(replicas, COUNT), new Array(COUNT).fill(null), 'nothing taken from a live owner whose work runs');

    await dead.kill();
    await waitFor(() => !ownersOf(replicas, COUNT).includes(null), { timeoutMs: 20_000, message: 'all re-owned' });
    assert.equal(recoveries.length, COUNT, 'every partition recovered once');
    assert.deepEqual(recoveries.map((r) => r.partition).sort((a, b) => a - b), Array.from({ length: COUNT }, (_, k) => k));
    for (const { partition, interrupted, memberGone } of recoveries) {
      assert.ok(memberGone, `partition ${partition} recovered after the dead session expired`);
      assert.equal(interrupted.token, BigInt(tokens[partition]!), "the dead owner's token");
      assert.deepEqual(interrupted.checkpoint, { step: 1 });
      assert.equal(interrupted.holder, 'replica-crash');
    }
    // Work after the take-over recovers nothing more.
    await Promise.all(replicas.map((r) => r.set.forEachOwned(() => undefined)));
    assert.equal(recoveries.length, COUNT, 'recovery ran exactly once per partition');
  });

  it('SIGSTOP past the session timeout: owned elsewhere meanwhile, no run started after that, and told on resume', async () => {
    const root = testRoot();
    const stalled = startFixture(root, 'pause');
    await stalled.message('owned');
    const other = await startReplica(root, 'other', { count: COUNT });
    replicas.push(other);
    const ownedAt = new Map<number, bigint>();
    other.set.owned$.subscribe((owned) => {
      for (const k of owned) if (!ownedAt.has(k)) ownedAt.set(k, process.hrtime.bigint());
    });
    await waitFor(() => other.set.ownedNow.length === COUNT / 2, { message: 'half moved to the other replica' });
    const moved = new Set(other.set.ownedNow);
    await stalled.nextMessage('progress');
    process.kill(stalled.pid, 'SIGSTOP');
    try {
      await waitFor(() => other.set.ownedNow.length === COUNT, { timeoutMs: 20_000, message: 'the other replica owns all after the expiry' });
    } finally {
      process.kill(stalled.pid, 'SIGCONT');
    }
    const lost = await withTimeout(stalled.message<{ lostAt: string; lastStart: Record<string, string>; failures: string[]; allAborted: boolean }>('lost'), 15_000, 'the stalled replica was never told');
    assert.ok(lost.allAborted, 'every run signal aborted');
    assert.ok(lost.failures.every((name) => name === 'LockLostError'), `runs refused with LockLostError: ${lost.failures.join(', ')}`);
    for (let k = 0; k < COUNT; k++) {
      if (moved.has(k)) continue;
      const started = BigInt(lost.lastStart[k]!);
      assert.ok(started < ownedAt.get(k)!, `partition ${k}: the stalled replica's last run started before the other owned it`);
    }
    assert.equal((await stalled.exited).code, 0, stalled.output.join(''));
  });
});
