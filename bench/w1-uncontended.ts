/**
 * W1: uncontended acquire + release. One session, one `LockClient` (root `/bench/w1`, so the
 * lock lives at `/bench/w1/locks/bench`) reused for every cycle; `w1_warmup` warm-up cycles (see params.ts), then the
 * timed cycles between two `mntr` snapshots. Target: 3.00 requests per cycle (create,
 * getChildren, delete) in two round trips.
 *
 * With `--auth` (W1A), the same on root `/bench/w1a` with digest auth and an ACL policy giving
 * every node under the root to its creator only, as `ZkLockModule`'s `auth` and `acl: 'creator'`
 * do: the default driver creates each node with that ACL (3 requests, as without auth), the
 * native one creates it open and then sets the ACL (4).
 */
import { CREATOR_ALL_ACL, LockClient } from '../src/index.js';
import { serverDelta } from './mntr.js';
import { IMPL, implVersion, LOCK_NAME } from './params.js';
import { cpuPerOp, now, rate, ratio, round3, summarize } from './stats.js';
import { openSession, type SessionSecurity } from './session.js';
import { runWorkload } from './workload-main.js';

runWorkload('W1', async ({ connect, driver, params, probe, log, args }) => {
  const withAuth = args.get('auth') === true;
  const root = withAuth ? '/bench/w1a' : '/bench/w1';
  const sessionTimeoutMs = params.session_timeout_ms;
  const security: SessionSecurity = withAuth ? { auth: [{ scheme: 'digest', credentials: 'bench:w1a-secret' }], acl: { root, acl: CREATOR_ALL_ACL } } : {};
  const session = await openSession(connect, sessionTimeoutMs, driver, security);
  try {
    const locks = new LockClient(session, { root });
    const cycle = async () => {
      const lease = await locks.acquire(LOCK_NAME);
      await lease.release();
    };
    for (let i = 0; i < params.w1_warmup; i++) await cycle();

    const cycles = params.w1_cycles;
    const latencies = new Array<number>(cycles);
    const s0 = await probe.snapshot();
    const cpu = process.cpuUsage();
    const start = now();
    for (let i = 0; i < cycles; i++) {
      const t = now();
      await cycle();
      latencies[i] = now() - t;
    }
    const elapsed = (now() - start) / 1000;
    const cpuPerCycle = cpuPerOp(cpu, cycles);
    const s1 = await probe.snapshot();
    const server = serverDelta(s0, s1);
    log(`${cycles} cycles in ${elapsed.toFixed(3)} s`);
    if (withAuth) {
      // The figure means nothing unless the nodes really were the creator's alone.
      const { acl } = await session.getAcl(locks.pathOf(LOCK_NAME));
      if (!acl.length || acl.some((entry) => entry.scheme !== 'digest')) throw new Error(`W1A's lock directory has ACL ${JSON.stringify(acl)}, not the creator's digest`);
    }
    await locks.close();
    return {
      impl: IMPL,
      driver,
      impl_version: implVersion(),
      recipe: 'LockClient.acquire/Lease.release (fair queue, pipelined getChildren)',
      auth: withAuth ? 'digest, ACL creator-only under the root' : 'none',
      session_timeout_ms: sessionTimeoutMs,
      lock_path: locks.pathOf(LOCK_NAME),
      warmup_cycles: params.w1_warmup,
      cycles,
      elapsed_s: round3(elapsed),
      cycles_per_s: rate(cycles, elapsed),
      cycle_ms: summarize(latencies),
      process_cpu_ms_per_cycle: cpuPerCycle,
      server,
      requests_per_cycle: ratio(server.requests, cycles),
      packets_received_per_cycle: ratio(server.packets_received, cycles),
    };
  } finally {
    session.close();
  }
});
