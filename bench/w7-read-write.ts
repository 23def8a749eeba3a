/**
 * W7: read/write lock, read-mostly. C = 8 clients, each with its own session and its own
 * `LockClient` on root `/bench/w7` (read/write lock `bench`, i.e. `/bench/w7/rwlocks/bench`), as
 * concurrent async tasks on one event loop. They take tickets from a shared counter until `total`
 * operations happened; ticket `k` is a write when `k % write_every == 0`, else a read. No warm-up
 * (BENCHMARKS.md defines none): the first operation creates the lock's directory.
 *
 * Exclusion is checked on the side with in-process counters of current readers and writers: a
 * holder counts itself in when its acquire returns and out just before it calls `release()`
 * (after that call the lock may be handed on before the call returns, see W2's negative
 * hand-offs). A writer holding with anyone else is a violation; violations are counted and the
 * first few described in the result, never thrown away.
 *
 * "Hold 0 ms": the holder does no work, but yields one event-loop turn (`setImmediate`) between
 * counting itself in and out. In one Node process the clients only interleave at awaits: without
 * that turn no two holders could ever be seen at once, so neither the readers' concurrency nor a
 * violation would show.
 */
import { LockClient, type ZkSession } from '../src/index.js';
import { serverDelta } from './mntr.js';
import { driverRoot, IMPL, implVersion, LOCK_NAME } from './params.js';
import { now, rate, ratio, round3, summarize } from './stats.js';
import { openSession } from './session.js';
import { runWorkload, withTimeout } from './workload-main.js';

/** On the native driver `/bench/w7-native` (`driverRoot`). */
const ROOT = '/bench/w7';
/** The timed region of a full run takes ~2 s; this bounds a hang and reports how far it got. */
const RUN_TIMEOUT_MS = 60_000;
const MAX_VIOLATION_SAMPLES = 20;

const yieldTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

interface Progress {
  started: number;
  done: number;
  readers: number;
  writers: number;
  maxReaders: number;
  violations: number;
  violationSamples: string[];
}

async function operate(clients: readonly LockClient[], total: number, writeEvery: number, progress: Progress) {
  const readMs: number[] = [];
  const writeMs: number[] = [];
  let tickets = 0;
  let lastRelease = Number.NEGATIVE_INFINITY;
  const violation = (what: string) => {
    progress.violations++;
    if (progress.violationSamples.length < MAX_VIOLATION_SAMPLES) progress.violationSamples.push(what);
  };
  const loop = async (locks: LockClient, client: number) => {
    for (;;) {
      const k = tickets++;
      if (k >= total) return;
      const write = k % writeEvery === 0;
      progress.started++;
      const t = now();
      const lease = write ? await locks.acquireWrite(LOCK_NAME) : await locks.acquireRead(LOCK_NAME);
      const tA = now();
      if (!lease) throw new Error(`${write ? 'acquireWrite' : 'acquireRead'} without waitMs resolved undefined (ticket ${k}, client ${client})`);
      (write ? writeMs : readMs).push(tA - t);
      if (write) {
        progress.writers++;
        if (progress.writers > 1 || progress.readers > 0) {
          violation(`ticket ${k} (client ${client}) got the write lock while ${progress.writers - 1} writer(s) and ${progress.readers} reader(s) held`);
        }
      } else {
        progress.readers++;
        if (progress.writers > 0) violation(`ticket ${k} (client ${client}) got a read lock while ${progress.writers} writer(s) held`);
        if (progress.readers > progress.maxReaders) progress.maxReaders = progress.readers;
      }
      await yieldTurn();
      if (write) progress.writers--;
      else progress.readers--;
      await lease.release();
      lastRelease = Math.max(lastRelease, now());
      progress.done++;
    }
  };
  await Promise.all(clients.map(loop));
  return { readMs, writeMs, lastRelease };
}

runWorkload('W7', async ({ connect, driver, params, probe, log }) => {
  const count = params.w7_clients;
  const total = params.w7_operations;
  const writeEvery = params.w7_write_every;
  const sessions: ZkSession[] = [];
  try {
    for (let i = 0; i < count; i++) sessions.push(await openSession(connect, params.session_timeout_ms, driver));
    const clients = sessions.map((session) => new LockClient(session, { root: driverRoot(ROOT, driver) }));
    const progress: Progress = { started: 0, done: 0, readers: 0, writers: 0, maxReaders: 0, violations: 0, violationSamples: [] };

    const s0 = await probe.snapshot();
    const tStart = now();
    const { readMs, writeMs, lastRelease } = await withTimeout(operate(clients, total, writeEvery, progress), RUN_TIMEOUT_MS, () =>
      `${progress.done} of ${total} operations done, ${progress.started - progress.done} in flight ` +
        `(holding now: ${progress.readers} reader(s), ${progress.writers} writer(s)); exclusion violations so far: ${progress.violations}`,
    );
    const s1 = await probe.snapshot();
    const elapsed = (lastRelease - tStart) / 1000;
    const server = serverDelta(s0, s1);
    log(`${total} operations (${writeMs.length} writes) in ${elapsed.toFixed(3)} s, max ${progress.maxReaders} readers at once, ${progress.violations} exclusion violation(s)`);
    for (const sample of progress.violationSamples) log(`EXCLUSION VIOLATION: ${sample}`);
    await Promise.all(clients.map((c) => c.close()));
    return {
      impl: IMPL,
      driver,
      impl_version: implVersion(),
      recipe: 'LockClient.acquireRead/acquireWrite, Lease.release (one fair queue of readers and writers)',
      session_timeout_ms: params.session_timeout_ms,
      lock_path: clients[0]!.pathOf(LOCK_NAME, 'read'),
      clients: count,
      operations: total,
      write_every: writeEvery,
      read_operations: readMs.length,
      write_operations: writeMs.length,
      hold_ms: 0,
      hold: 'no work; one setImmediate turn between counting in and out',
      elapsed_s: round3(elapsed),
      operations_per_s: rate(total, elapsed),
      read_acquire_ms: summarize(readMs),
      write_acquire_ms: summarize(writeMs),
      max_concurrent_readers: progress.maxReaders,
      exclusion_violations: progress.violations,
      exclusion_violation_samples: progress.violationSamples,
      server,
      requests_per_operation: ratio(server.requests, total),
      packets_received_per_operation: ratio(server.packets_received, total),
      watch_notifications_per_operation: ratio(server.watch_notifications, total),
    };
  } finally {
    for (const session of sessions) session.close();
  }
});
