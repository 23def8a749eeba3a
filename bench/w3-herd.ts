/**
 * W3: herd and request cost. A holder H and N waiters, each with its own session and
 * `LockClient` on root `/bench/w3` (lock `/bench/w3/locks/bench`). After the queue has formed
 * and the watch count settled, the lock is handed down the queue one release at a time with a
 * settle between releases, so every release happens with all remaining waiters parked: a
 * herd-free recipe fires exactly one notification per release (and none for the last).
 */
import { LockClient, type Lease, type ZkSession } from '../src/index.js';
import { serverDelta, type Snapshot } from './mntr.js';
import { IMPL, implVersion, LOCK_NAME } from './params.js';
import { now, ratio, round3, summarize } from './stats.js';
import { openSession } from './session.js';
import { runWorkload, withTimeout } from './workload-main.js';

const ROOT = '/bench/w3';
const STEP_TIMEOUT_MS = 30_000;

interface Grant {
  readonly waiter: number;
  readonly tAcq: number;
  /** Lets the waiter release. */
  permit(): void;
  /** Resolves with `now()` right after the waiter's `release()` returned. */
  readonly released: Promise<number>;
}

/** Grants in the order they happen, handed to the one consumer that awaits them. */
class GrantQueue {
  private readonly ready: Grant[] = [];
  private waiting: ((grant: Grant) => void) | undefined;
  push(grant: Grant): void {
    if (this.waiting) { const resolve = this.waiting; this.waiting = undefined; resolve(grant); }
    else this.ready.push(grant);
  }
  next(): Promise<Grant> {
    const grant = this.ready.shift();
    if (grant) return Promise.resolve(grant);
    return withTimeout(new Promise<Grant>((resolve) => { this.waiting = resolve; }), STEP_TIMEOUT_MS, 'the next waiter to be granted the lock');
  }
}

/** A waiter: acquire, record the time, wait for permission, release, record the time. */
async function waiter(index: number, locks: LockClient, grants: GrantQueue): Promise<void> {
  const lease: Lease = await locks.acquire(LOCK_NAME);
  const tAcq = now();
  let permit!: () => void;
  const permitted = new Promise<void>((resolve) => { permit = resolve; });
  let onReleased!: (t: number) => void;
  const released = new Promise<number>((resolve) => { onReleased = resolve; });
  grants.push({ waiter: index, tAcq, permit, released });
  await permitted;
  await lease.release();
  onReleased(now());
}

runWorkload('W3', async ({ connect, driver, params, probe, log }) => {
  const n = params.w3_waiters;
  const sessions: ZkSession[] = [];
  try {
    for (let i = 0; i <= n; i++) sessions.push(await openSession(connect, params.session_timeout_ms, driver));
    const [holder, ...waiters] = sessions.map((session) => new LockClient(session, { root: ROOT }));

    // The lock's directory (<root>/locks/bench, a container) is created by the first acquire on
    // NONODE; the spec's harness pre-creates the workload path, so create ours before measuring.
    await (await holder!.acquire(LOCK_NAME)).release();
    const sSetup = await probe.snapshot();
    const held = await holder!.acquire(LOCK_NAME);
    const base = await probe.snapshot();

    const grants = new GrantQueue();
    const tQueue = now();
    const tasks = waiters.map((locks, i) => waiter(i, locks, grants));
    // A failing waiter must fail the workload, not hang it.
    const failed = Promise.all(tasks).then(() => undefined);
    failed.catch(() => undefined);
    await probe.pollUntil((s) => s.znodes >= base.znodes + n, `${n} queue nodes`, STEP_TIMEOUT_MS);
    const s0 = await probe.settle(STEP_TIMEOUT_MS);
    const queueSetup = (now() - tQueue) / 1000;

    const tPhase = now();
    await held.release();
    let tRel = now();
    const wakeups: number[] = [];
    const perRelease: number[] = [];
    let previous: Snapshot = s0;
    for (let k = 1; k <= n; k++) {
      const grant = await Promise.race([grants.next(), failed.then(() => { throw new Error('waiters ended early'); })]);
      wakeups.push(grant.tAcq - tRel);
      const sK = await probe.settle(STEP_TIMEOUT_MS);
      perRelease.push(sK.watchEvents - previous.watchEvents);
      previous = sK;
      grant.permit();
      tRel = await withTimeout(grant.released, STEP_TIMEOUT_MS, `waiter ${grant.waiter} to release`);
    }
    await withTimeout(failed, STEP_TIMEOUT_MS, 'all waiters to finish');
    const sEnd = await probe.settle(STEP_TIMEOUT_MS);
    const releasePhase = (now() - tPhase) / 1000;
    const total = serverDelta(sSetup, sEnd);
    const phase = serverDelta(s0, sEnd);
    const acquisitions = n + 1;
    log(`queue of ${n} formed in ${queueSetup.toFixed(3)} s, released in ${releasePhase.toFixed(3)} s`);
    await Promise.all([holder!, ...waiters].map((locks) => locks.close()));
    return {
      impl: IMPL,
      driver,
      impl_version: implVersion(),
      recipe: 'LockClient.acquire/Lease.release (fair queue, predecessor watch)',
      session_timeout_ms: params.session_timeout_ms,
      lock_path: holder!.pathOf(LOCK_NAME),
      waiters: n,
      acquisitions,
      queue_setup_s: round3(queueSetup),
      release_phase_s: round3(releasePhase),
      watch_notifications_per_release: ratio(phase.watch_notifications, n),
      watch_notifications_per_release_max: Math.max(...perRelease),
      watch_notifications_per_release_min: Math.min(...perRelease),
      final_release_notifications: sEnd.watchEvents - previous.watchEvents,
      wakeup_ms: summarize(wakeups),
      requests_per_acquisition: ratio(total.requests, acquisitions),
      reads_per_acquisition: ratio(total.reads, acquisitions),
      writes_per_acquisition: ratio(total.writes, acquisitions),
      packets_received_per_acquisition: ratio(total.packets_received, acquisitions),
      server_total: total,
      server_release_phase: phase,
    };
  } finally {
    for (const session of sessions) session.close();
  }
});
