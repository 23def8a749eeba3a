/**
 * W5: the floor. Three raw round trips per cycle with the npm `zookeeper` package's promise API
 * (`create` EPHEMERAL_SEQUENTIAL → `get_children` → `delete_`), each awaited before the next:
 * what an uncontended acquire+release costs without any recipe logic. Timestamps around every
 * call give the per-op RTTs.
 */
import { serverDelta } from './mntr.js';
import { connectRaw, RAW_EPHEMERAL_SEQUENTIAL, rawCycle, rawZooKeeperVersion } from './raw-zookeeper.js';
import { now, rate, ratio, round3, summarize } from './stats.js';
import { runWorkload } from './workload-main.js';
const DIR = '/bench/w5';
runWorkload('W5', async ({ connect, params, probe, log }) => {
    const sessionTimeoutMs = params.session_timeout_ms;
    const zk = await connectRaw(connect, sessionTimeoutMs);
    try {
        const flags = RAW_EPHEMERAL_SEQUENTIAL();
        const probeNode = await zk.create(`${DIR}/n-`, '', flags);
        await zk.delete_(probeNode, -1);
        if (!/-\d{10}$/.test(probeNode))
            throw new Error(`W5 must create sequential nodes, got ${probeNode}`);
        for (let i = 0; i < params.w5_warmup; i++)
            await rawCycle(zk, DIR, flags);
        const cycles = params.w5_cycles;
        const create = new Array(cycles);
        const children = new Array(cycles);
        const del = new Array(cycles);
        const latencies = new Array(cycles);
        const s0 = await probe.snapshot();
        const start = now();
        for (let i = 0; i < cycles; i++) {
            const [t0, t1, t2, t3] = await rawCycle(zk, DIR, flags);
            create[i] = t1 - t0;
            children[i] = t2 - t1;
            del[i] = t3 - t2;
            latencies[i] = t3 - t0;
        }
        const elapsed = (now() - start) / 1000;
        const s1 = await probe.snapshot();
        const server = serverDelta(s0, s1);
        log(`${cycles} cycles in ${elapsed.toFixed(3)} s`);
        return {
            impl: 'node-zookeeper',
            impl_version: rawZooKeeperVersion(),
            api: 'zookeeper (npm) promise API: create(EPHEMERAL_SEQUENTIAL) / get_children(no watch) / delete_(-1)',
            session_timeout_ms: sessionTimeoutMs,
            path: DIR,
            warmup_cycles: params.w5_warmup,
            cycles,
            elapsed_s: round3(elapsed),
            cycles_per_s: rate(cycles, elapsed),
            cycle_ms: summarize(latencies),
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
    }
    finally {
        zk.close();
    }
});
//# sourceMappingURL=w5-raw-floor.js.map