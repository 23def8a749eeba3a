/**
 * W5: the floor. Three raw round trips per cycle (create EPHEMERAL_SEQUENTIAL → getChildren →
 * delete), each awaited before the next: what an uncontended acquire+release costs without any
 * recipe logic. Timestamps around every call give the per-op RTTs. `--driver native` (the npm
 * `zookeeper` package's promise API) or `typescript` (the library's `ProtocolHandle`, bare): see
 * `floor-client.ts`.
 */
import { openFloorClient } from './floor-client.js';
import { serverDelta } from './mntr.js';
import { cpuPerOp, now, rate, ratio, round3, summarize } from './stats.js';
import { runWorkload } from './workload-main.js';

const DIR = '/bench/w5';

runWorkload('W5', async ({ connect, driver, params, probe, log }) => {
  const sessionTimeoutMs = params.session_timeout_ms;
  const zk = await openFloorClient(driver, connect, sessionTimeoutMs);
  try {
    const probeNode = await zk.create(`${DIR}/n-`);
    await zk.remove(probeNode);
    if (!/-\d{10}$/.test(probeNode)) throw new Error(`W5 must create sequential nodes, got ${probeNode}`);
    for (let i = 0; i < params.w5_warmup; i++) await zk.cycle(DIR);

    const cycles = params.w5_cycles;
    const create = new Array<number>(cycles);
    const children = new Array<number>(cycles);
    const del = new Array<number>(cycles);
    const latencies = new Array<number>(cycles);
    const s0 = await probe.snapshot();
    const cpu = process.cpuUsage();
    const start = now();
    for (let i = 0; i < cycles; i++) {
      const [t0, t1, t2, t3] = await zk.cycle(DIR);
      create[i] = t1 - t0;
      children[i] = t2 - t1;
      del[i] = t3 - t2;
      latencies[i] = t3 - t0;
    }
    const elapsed = (now() - start) / 1000;
    const cpuPerCycle = cpuPerOp(cpu, cycles);
    const s1 = await probe.snapshot();
    const server = serverDelta(s0, s1);
    log(`${cycles} cycles in ${elapsed.toFixed(3)} s`);
    return {
      impl: zk.impl,
      driver,
      impl_version: zk.implVersion,
      api: zk.api,
      session_timeout_ms: sessionTimeoutMs,
      path: DIR,
      warmup_cycles: params.w5_warmup,
      cycles,
      elapsed_s: round3(elapsed),
      cycles_per_s: rate(cycles, elapsed),
      cycle_ms: summarize(latencies),
      process_cpu_ms_per_cycle: cpuPerCycle,
      rtt_ms: {
        create: summarize(create),
        get_children: summarize(children),
        delete: summarize(del),
        all: summarize([...create, ...children, ...del]),
      },
      server,
      requests_per_cycle: ratio(server.requests, cycles),
      packets_received_per_cycle: ratio(server.packets_received, cycles),
    };
  } finally {
    zk.close();
  }
});
