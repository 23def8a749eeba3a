/**
 * W6: per-entity locks, many names each used a few times (BENCHMARKS.md). C = 8 clients, each
 * with its own session and its own `LockClient` on root `/bench/w6` (lock `e<n>` lives in
 * `/bench/w6/locks/e<n>`), as concurrent async tasks on one event loop. They walk one shared list
 * of 4000 entries over 1000 names, entry `i` being `e<(i × 7919) mod 1000>`: every name is used 4
 * times, a thousand entries apart, so most acquisitions meet a directory that does not exist yet
 * or that another client made. Each acquires, releases at once, and takes the next entry.
 *
 * Warm-up: 400 acquisitions over `w0` … `w99`, unmeasured. Then the timed region from the first
 * acquire to the last release, between two `mntr` snapshots. After it: the znodes left over
 * (against the count before the warm-up), right away and once the server's container sweep has
 * run (every 60 s by default): the empty lock directories are containers and must all go.
 */
import { LockClient, ZooKeeperError, type ZkSession } from '../src/index.js';
import { watchEventLoop } from './event-loop.js';
import { removeLeftoverDirs } from './leftover-dirs.js';
import type { MntrProbe } from './mntr.js';
import { serverDelta } from './mntr.js';
import { driverRoot, IMPL, implVersion } from './params.js';
import { now, rate, ratio, round3, summarize } from './stats.js';
import { openSession } from './session.js';
import { runWorkload, sleep, withTimeout } from './workload-main.js';

/** On the native driver `/bench/w6-native` (`driverRoot`). */
const ROOT = '/bench/w6';
const RUN_TIMEOUT_MS = 120_000;
/** The sweep runs once a minute (`znode.container.checkIntervalMs`); two periods bound the wait for it. */
const SWEEP_WAIT_MS = 130_000;

/** Entry `i` of the shared list of `total` acquisitions over `names` names (BENCHMARKS.md's fixed order). */
const entityName = (i: number, names: number) => `e${(i * 7919) % names}`;
const warmupName = (i: number) => `w${i % 100}`;

/** All clients walk the list together, each taking the next entry; resolves with each acquire's latency. */
async function walk(clients: readonly LockClient[], names: readonly string[]): Promise<{ acquireMs: number[]; lastRelease: number }> {
  const acquireMs: number[] = [];
  let next = 0;
  let lastRelease = Number.NEGATIVE_INFINITY;
  const loop = async (locks: LockClient) => {
    for (let i = next++; i < names.length; i = next++) {
      const t = now();
      const lease = await locks.acquire(names[i]!);
      acquireMs.push(now() - t);
      await lease.release();
      lastRelease = Math.max(lastRelease, now());
    }
  };
  await Promise.all(clients.map(loop));
  return { acquireMs, lastRelease };
}

/** Polls until the znode count is back to `baseline` (the sweep ran) or `timeoutMs` passed. */
async function awaitSweep(probe: MntrProbe, baseline: number, timeoutMs: number): Promise<{ znodes: number; waitedS: number }> {
  const started = now();
  for (;;) {
    const { znodes } = await probe.snapshot();
    const waited = now() - started;
    if (znodes <= baseline || waited >= timeoutMs) return { znodes, waitedS: round3(waited / 1000) };
    await sleep(1000);
  }
}

runWorkload('W6', async ({ connect, driver, params, probe, log }) => {
  const count = params.w6_clients;
  const total = params.w6_acquisitions;
  const sessions: ZkSession[] = [];
  try {
    for (let i = 0; i < count; i++) sessions.push(await openSession(connect, params.session_timeout_ms, driver));
    const root = driverRoot(ROOT, driver);
    const clients = sessions.map((session) => new LockClient(session, { root }));
    const before = await probe.snapshot();
    await walk(clients, Array.from({ length: params.w6_warmup }, (_, i) => warmupName(i)));

    const names = Array.from({ length: total }, (_, i) => entityName(i, params.w6_names));
    const loop = watchEventLoop();
    const s0 = await probe.snapshot();
    const tStart = now();
    const { acquireMs, lastRelease } = await withTimeout(walk(clients, names), RUN_TIMEOUT_MS, `${total} acquisitions over ${params.w6_names} names`);
    const s1 = await probe.snapshot();
    const eventLoop = loop.stop();
    const elapsed = (lastRelease - tStart) / 1000;
    const server = serverDelta(s0, s1);
    const dirsAfter = (await sessions[0]!.getChildren(`${root}/locks`)).children.length;
    log(`${total} acquisitions over ${params.w6_names} names in ${elapsed.toFixed(3)} s; ${dirsAfter} lock directories until the sweep`);
    await Promise.all(clients.map((c) => c.close()));
    const sweep = params.w6_await_sweep ? await awaitSweep(probe, before.znodes + 1, SWEEP_WAIT_MS) : undefined;
    const dirsAfterSweep = sweep ? (await sessions[0]!.getChildren(`${root}/locks`)).children.length : undefined;
    if (sweep) log(`after ${sweep.waitedS} s: ${dirsAfterSweep} lock directories left`);
    else {
      const { children } = await sessions[0]!.getChildren(`${root}/locks`);
      await removeLeftoverDirs(children.map((name) => `${root}/locks/${name}`), (path) => sessions[0]!.delete(path), (error) => ZooKeeperError.is(error, 'NONODE'));
    }
    return {
      impl: IMPL,
      driver,
      impl_version: implVersion(),
      recipe: 'LockClient.acquire/Lease.release, one lock name per entity (container directories)',
      session_timeout_ms: params.session_timeout_ms,
      lock_path: clients[0]!.pathOf(entityName(0, params.w6_names)),
      clients: count,
      names: params.w6_names,
      acquisitions: total,
      warmup_acquisitions: params.w6_warmup,
      elapsed_s: round3(elapsed),
      acquisitions_per_s: rate(total, elapsed),
      acquire_ms: summarize(acquireMs),
      server,
      requests_per_acquisition: ratio(server.requests, total),
      writes_per_acquisition: ratio(server.writes, total),
      watch_notifications_per_acquisition: ratio(server.watch_notifications, total),
      event_loop_delay: eventLoop,
      // The count before the warm-up excludes `/bench/w6/locks`, the persistent parent of every
      // lock directory, which the warm-up's first acquisition makes: 1 is the floor.
      znodes_after: s1.znodes - before.znodes,
      lock_dirs_after: dirsAfter,
      znodes_after_sweep: sweep ? sweep.znodes - before.znodes : null,
      lock_dirs_after_sweep: dirsAfterSweep ?? null,
      sweep_waited_s: sweep?.waitedS ?? null,
    };
  } finally {
    for (const session of sessions) session.close();
  }
});
