/**
 * W8: counting semaphore. C = 16 clients, each with its own session and its own `LockClient` on
 * root `/bench/w8` (semaphore `bench` of 4 permits, i.e. `/bench/w8/semaphores/bench`, one queue
 * node per caller), as concurrent async tasks on one event loop. They take tickets from a
 * shared counter until `total` single-permit acquisitions happened, each held for 1 ms
 * (`setTimeout`). No warm-up (BENCHMARKS.md defines none): the first acquisition creates the
 * semaphore's nodes.
 *
 * The limit is checked on the side with an in-process counter of current holders: a holder counts
 * itself in when its acquire returns and out just before it calls `release()`. More than 4 at once
 * is a violation; violations are counted and the first few described in the result.
 */
import { LockClient, type ZkSession } from '../src/index.js';
import { serverDelta } from './mntr.js';
import { driverRoot, IMPL, implVersion, LOCK_NAME } from './params.js';
import { now, rate, ratio, round3, summarize } from './stats.js';
import { openSession } from './session.js';
import { runWorkload, sleep, withTimeout } from './workload-main.js';

/** On the native driver `/bench/w8-native` (`driverRoot`). */
const ROOT = '/bench/w8';
/** The timed region of a full run takes ~4 s; this bounds a hang and reports how far it got. */
const RUN_TIMEOUT_MS = 90_000;
const MAX_VIOLATION_SAMPLES = 20;

interface Progress {
  started: number;
  done: number;
  holders: number;
  maxHolders: number;
  violations: number;
  violationSamples: string[];
}

async function operate(clients: readonly LockClient[], total: number, permits: number, holdMs: number, progress: Progress) {
  const acquireMs: number[] = [];
  let tickets = 0;
  let lastRelease = Number.NEGATIVE_INFINITY;
  const loop = async (locks: LockClient, client: number) => {
    while (tickets++ < total) {
      progress.started++;
      const t = now();
      const lease = await locks.acquirePermits(LOCK_NAME, { permits, take: 1 });
      const tA = now();
      if (!lease) throw new Error(`acquirePermits without waitMs resolved undefined (client ${client})`);
      acquireMs.push(tA - t);
      progress.holders++;
      if (progress.holders > progress.maxHolders) progress.maxHolders = progress.holders;
      if (progress.holders > permits) {
        progress.violations++;
        if (progress.violationSamples.length < MAX_VIOLATION_SAMPLES) {
          progress.violationSamples.push(`client ${client} got a permit while ${progress.holders - 1} holder(s) of ${permits} permits held (acquisition ${progress.started})`);
        }
      }
      await sleep(holdMs);
      progress.holders--;
      await lease.release();
      lastRelease = Math.max(lastRelease, now());
      progress.done++;
    }
  };
  await Promise.all(clients.map(loop));
  return { acquireMs, lastRelease };
}

runWorkload('W8', async ({ connect, driver, params, probe, log }) => {
  const count = params.w8_clients;
  const permits = params.w8_max_leases;
  const total = params.w8_acquisitions;
  const holdMs = params.w8_hold_ms;
  const sessions: ZkSession[] = [];
  try {
    for (let i = 0; i < count; i++) sessions.push(await openSession(connect, params.session_timeout_ms, driver));
    const clients = sessions.map((session) => new LockClient(session, { root: driverRoot(ROOT, driver) }));
    const progress: Progress = { started: 0, done: 0, holders: 0, maxHolders: 0, violations: 0, violationSamples: [] };

    const s0 = await probe.snapshot();
    const tStart = now();
    const { acquireMs, lastRelease } = await withTimeout(operate(clients, total, permits, holdMs, progress), RUN_TIMEOUT_MS, () =>
      `${progress.done} of ${total} acquisitions done, ${progress.started - progress.done} in flight ` +
        `(holding now: ${progress.holders}); violations so far: ${progress.violations}`,
    );
    const s1 = await probe.snapshot();
    const elapsed = (lastRelease - tStart) / 1000;
    const server = serverDelta(s0, s1);
    log(`${total} acquisitions in ${elapsed.toFixed(3)} s, max ${progress.maxHolders} holders at once, ${progress.violations} violation(s)`);
    for (const sample of progress.violationSamples) log(`PERMIT LIMIT VIOLATION: ${sample}`);
    await Promise.all(clients.map((c) => c.close()));
    return {
      impl: IMPL,
      driver,
      impl_version: implVersion(),
      recipe: `LockClient.acquirePermits({ permits: ${permits}, take: 1 }), Lease.release (one queue, a node per caller, granted by the prefix sum of permits)`,
      session_timeout_ms: params.session_timeout_ms,
      lock_path: clients[0]!.pathOf(LOCK_NAME, 'semaphore'),
      clients: count,
      max_leases: permits,
      acquisitions: total,
      hold_ms: holdMs,
      elapsed_s: round3(elapsed),
      acquisitions_per_s: rate(total, elapsed),
      acquire_ms: summarize(acquireMs),
      max_concurrent_holders: progress.maxHolders,
      exclusion_violations: progress.violations,
      exclusion_violation_samples: progress.violationSamples,
      server,
      requests_per_acquisition: ratio(server.requests, total),
      packets_received_per_acquisition: ratio(server.packets_received, total),
      watch_notifications_per_acquisition: ratio(server.watch_notifications, total),
    };
  } finally {
    for (const session of sessions) session.close();
  }
});
