/**
 * SCALE (not in BENCHMARKS.md; asked for by the issue): the library's cost at size.
 *
 * - waiters: one holder plus N = 1,000 queued `acquire()`s on one lock (root `/bench/scale`,
 *   lock `/bench/scale/locks/bench`), all through one session and one `LockClient`, so the JS
 *   heap delta is the library's own cost per parked waiter. Then the queue drains (each waiter
 *   releases as soon as it holds): requests per acquisition, notifications per release.
 * - held_locks: 10,000 distinct lock names held at once by one `LockClient` on one session:
 *   heap per held lease and requests per acquire, first with new lock directories (the
 *   container parent is created on NONODE) and again with the directories in place.
 *
 * - idle_sessions: K connected sessions doing nothing: heap and RSS per session. The native
 *   driver's C client keeps its buffers outside the JS heap, so for it only RSS tells the cost.
 *
 * Heap figures are `heapUsed` after a forced GC (`--expose-gc`; the harness passes it).
 */
import { LockClient, ZooKeeperError, type Lease, type ZkSession } from '../src/index.js';
import { watchEventLoop } from './event-loop.js';
import { removeLeftoverDirs } from './leftover-dirs.js';
import { serverDelta } from './mntr.js';
import { driverRoot, IMPL, LOCK_NAME } from './params.js';
import { now, ratio, round3 } from './stats.js';
import { openSession } from './session.js';
import { runWorkload, sleep, withTimeout, type WorkloadContext } from './workload-main.js';

/** On the native driver `/bench/scale-native` (`driverRoot`). */
const ROOT = '/bench/scale';
const IN_FLIGHT = 256;

async function heapUsed(): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}

async function waiters({ connect, driver, params, probe, log }: WorkloadContext) {
  const n = params.scale_waiters;
  const session = await openSession(connect, params.session_timeout_ms, driver);
  try {
    const locks = new LockClient(session, { root: driverRoot(ROOT, driver) });
    await (await locks.acquire(LOCK_NAME)).release(); // creates the lock directory, unmeasured (as in W3)
    const sSetup = await probe.snapshot();
    const held = await locks.acquire(LOCK_NAME);
    const base = await probe.snapshot();
    const heapBefore = await heapUsed();
    const setupLoop = watchEventLoop();
    const tQueue = now();
    let granted = 0;
    const queued = Array.from({ length: n }, async () => {
      const lease = await locks.acquire(LOCK_NAME);
      granted++;
      await lease.release();
    });
    const all = Promise.all(queued);
    all.catch(() => undefined);
    await probe.pollUntil((s) => s.znodes >= base.znodes + n, `${n} queue nodes`, 60_000, 20);
    const s0 = await probe.settle(60_000);
    const queueSetup = (now() - tQueue) / 1000;
    const queueLoop = setupLoop.stop();
    const heapQueued = await heapUsed();
    if (granted !== 0) throw new Error(`${granted} waiters were granted while the lock was held`);

    const loop = watchEventLoop();
    const tDrain = now();
    await held.release();
    await withTimeout(all, 60_000, `${n} waiters to drain`);
    const drain = (now() - tDrain) / 1000;
    const drainLoop = loop.stop();
    const sEnd = await probe.settle(60_000);
    const total = serverDelta(sSetup, sEnd);
    const phase = serverDelta(s0, sEnd);
    log(`waiters: ${n} queued in ${queueSetup.toFixed(3)} s, drained in ${drain.toFixed(3)} s`);
    await locks.close();
    await removeLeftoverDirs([locks.pathOf(LOCK_NAME)], (path) => session.delete(path), (error) => ZooKeeperError.is(error, 'NONODE'));
    return {
      waiters: n,
      sessions: 1,
      lock_path: locks.pathOf(LOCK_NAME),
      queue_setup_s: round3(queueSetup),
      drain_s: round3(drain),
      drain_acquisitions_per_s: round3(n / drain),
      heap_per_waiter_bytes: Math.round((heapQueued - heapBefore) / n),
      watch_notifications_per_release: ratio(phase.watch_notifications, n),
      requests_per_acquisition: ratio(total.requests, n + 1),
      queue_event_loop_delay: queueLoop,
      drain_event_loop_delay: drainLoop,
      packets_received_per_acquisition: ratio(total.packets_received, n + 1),
      server_total: total,
    };
  } finally {
    session.close();
  }
}

/** Runs `task(i)` for i < count with at most IN_FLIGHT at a time. */
async function bounded(count: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, count) }, async () => {
    while (next < count) await task(next++);
  }));
}

async function heldLocks({ connect, driver, params, probe, log }: WorkloadContext) {
  const n = params.scale_locks;
  const session = await openSession(connect, params.session_timeout_ms, driver);
  try {
    const locks = new LockClient(session, { root: driverRoot(ROOT, driver) });
    const leases = new Array<Lease | undefined>(n);
    const round = async (label: string) => {
      const heapBefore = await heapUsed();
      const s0 = await probe.snapshot();
      const loop = watchEventLoop();
      const t = now();
      await bounded(n, async (i) => { leases[i] = await locks.acquire(`k-${i}`); });
      const acquireS = (now() - t) / 1000;
      const acquireLoop = loop.stop();
      const s1 = await probe.snapshot();
      const heapHeld = await heapUsed();
      if (locks.heldLeases().length !== n) throw new Error(`expected ${n} held leases, have ${locks.heldLeases().length}`);
      const releaseLoopWatch = watchEventLoop();
      const t2 = now();
      await bounded(n, (i) => leases[i]!.release());
      const releaseS = (now() - t2) / 1000;
      const releaseLoop = releaseLoopWatch.stop();
      leases.fill(undefined); // the next round's heap baseline must not count these
      const s2 = await probe.snapshot();
      const acquire = serverDelta(s0, s1);
      const release = serverDelta(s1, s2);
      log(`held_locks (${label}): ${n} acquired in ${acquireS.toFixed(3)} s, released in ${releaseS.toFixed(3)} s`);
      return {
        acquire_s: round3(acquireS),
        release_s: round3(releaseS),
        heap_per_held_lock_bytes: Math.round((heapHeld - heapBefore) / n),
        requests_per_acquire: ratio(acquire.requests, n),
        requests_per_release: ratio(release.requests, n),
        acquire_event_loop_delay: acquireLoop,
        release_event_loop_delay: releaseLoop,
      };
    };
    // New names: each create is sent behind its directory's create (a name this client has not seen).
    const fresh = await round('new lock directories');
    // Same names again, right away: the directories are still there (the server reaps empty
    // containers only on its periodic check, 60 s by default).
    const existing = await round('existing lock directories');
    await locks.close();
    const dirs = Array.from({ length: n }, (_, i) => locks.pathOf(`k-${i}`));
    await removeLeftoverDirs(dirs, (path) => session.delete(path), (error) => ZooKeeperError.is(error, 'NONODE'));
    return { locks: n, sessions: 1, in_flight: IN_FLIGHT, lock_paths: `${driverRoot(ROOT, driver)}/locks/k-<i>`, new_dirs: fresh, existing_dirs: existing };
  } finally {
    session.close();
  }
}

/** K idle sessions opened side by side: what one costs in heap and RSS (measured after a GC, 1 s after the last connected). */
async function idleSessions({ connect, driver, params, log }: WorkloadContext) {
  const k = params.scale_idle_sessions;
  const sessions: ZkSession[] = [];
  try {
    const heapBefore = await heapUsed();
    const rssBefore = process.memoryUsage().rss;
    for (let i = 0; i < k; i++) sessions.push(await openSession(connect, params.session_timeout_ms, driver));
    await sleep(1000); // let each session's first ping timer and connection buffers settle
    const heapOpen = await heapUsed();
    const rssOpen = process.memoryUsage().rss;
    log(`idle_sessions: ${k} open`);
    return {
      sessions: k,
      heap_per_session_bytes: Math.round((heapOpen - heapBefore) / k),
      rss_per_session_bytes: Math.round((rssOpen - rssBefore) / k),
    };
  } finally {
    for (const session of sessions) session.close();
  }
}

runWorkload('SCALE', async (ctx) => ({
  impl: IMPL,
  driver: ctx.driver,
  session_timeout_ms: ctx.params.session_timeout_ms,
  idle_sessions: await idleSessions(ctx),
  waiters: await waiters(ctx),
  held_locks: await heldLocks(ctx),
}));
