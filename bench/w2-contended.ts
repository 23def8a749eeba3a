/**
 * W2: contended, zero hold time. C clients (8, then 32), each with its own session and its own
 * `LockClient` on root `/bench/w2` (lock `/bench/w2/locks/bench`), as concurrent async tasks on
 * one event loop. Each task takes tickets from a shared counter until `total` acquisitions
 * happened; the holder alone touches `order`, so `k` is the lock order, and the hand-off
 * `acq[k+1] - rel[k]` is the time from one release's return to the next acquire's return.
 */
import { LockClient, type ZkSession } from '../src/index.js';
import { watchEventLoop } from './event-loop.js';
import { serverDelta } from './mntr.js';
import { IMPL, implVersion, LOCK_NAME } from './params.js';
import { cpuPerOp, handoffs, now, rate, ratio, round3, summarize } from './stats.js';
import { openSession } from './session.js';
import { runWorkload, type WorkloadContext } from './workload-main.js';

const ROOT = '/bench/w2';

interface Round {
  acq: Float64Array;
  rel: Float64Array;
}

/** All clients loop until `total` acquisitions happened; resolves with the timestamps by lock order. */
async function contend(clients: readonly LockClient[], total: number): Promise<Round> {
  const acq = new Float64Array(total);
  const rel = new Float64Array(total);
  let tickets = 0;
  let order = 0;
  const loop = async (locks: LockClient) => {
    while (tickets++ < total) {
      const lease = await locks.acquire(LOCK_NAME);
      const tA = now();
      const k = order++; // only the holder gets here: k is the lock order
      await lease.release();
      const tR = now();
      acq[k] = tA;
      rel[k] = tR;
    }
  };
  await Promise.all(clients.map(loop));
  if (order !== total) throw new Error(`expected ${total} acquisitions, counted ${order}`);
  return { acq, rel };
}

async function runClients(ctx: WorkloadContext, count: number) {
  const { connect, driver, params, probe, log } = ctx;
  const sessions: ZkSession[] = [];
  try {
    for (let i = 0; i < count; i++) sessions.push(await openSession(connect, params.session_timeout_ms, driver));
    const clients = sessions.map((session) => new LockClient(session, { root: ROOT }));
    await contend(clients, params.w2_warmup);

    const total = params.w2_acquisitions;
    const s0 = await probe.snapshot();
    const loop = watchEventLoop();
    const cpu = process.cpuUsage();
    const tStart = now();
    const { acq, rel } = await contend(clients, total);
    const cpuPerAcquisition = cpuPerOp(cpu, total);
    const eventLoop = loop.stop();
    const s1 = await probe.snapshot();
    const elapsed = (Math.max(...rel) - tStart) / 1000;
    const handoffMs = handoffs(acq, rel);
    const server = serverDelta(s0, s1);
    log(`c${count}: ${total} acquisitions in ${elapsed.toFixed(3)} s`);
    return {
      impl: IMPL,
      driver,
      impl_version: implVersion(),
      recipe: 'LockClient.acquire/Lease.release (fair queue, predecessor watch)',
      session_timeout_ms: params.session_timeout_ms,
      lock_path: clients[0]!.pathOf(LOCK_NAME),
      clients: count,
      warmup_acquisitions: params.w2_warmup,
      acquisitions: total,
      hold_ms: 0,
      elapsed_s: round3(elapsed),
      acquisitions_per_s: rate(total, elapsed),
      process_cpu_ms_per_acquisition: cpuPerAcquisition,
      handoff_ms: summarize(handoffMs),
      negative_handoffs: handoffMs.filter((h) => h < 0).length,
      server,
      requests_per_acquisition: ratio(server.requests, total),
      packets_received_per_acquisition: ratio(server.packets_received, total),
      watch_notifications_per_acquisition: ratio(server.watch_notifications, total),
      event_loop_delay: eventLoop,
    };
  } finally {
    for (const session of sessions) session.close();
  }
}

runWorkload('W2', async (ctx) => {
  const result: Record<string, unknown> = {};
  for (const count of ctx.params.w2_clients) result[`c${count}`] = await runClients(ctx, count);
  return result;
});
