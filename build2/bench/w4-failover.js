/**
 * W4: leader fail-over. Per trial, three participant processes (`bench/w4-participant`, the
 * public `LeaderService` in a real Nest application context, session timeout 2000 ms) join a
 * fresh election path `/bench/w4/r<epoch>-nestjs-zk-lock-<case>-<trial>`. Once all three are
 * READY and exactly one is LEADER (+300 ms), the leader either resigns (graceful: t0 = its
 * RESIGN time) or is SIGKILLed (crash: after a spread delay, t0 = just before the kill); the
 * sample is the first LEADER time of another participant minus t0. Timestamps are epoch µs
 * printed by the processes themselves.
 *
 * `--impl node-zookeeper` runs the same trials (graceful only: a crash hand-over is the server's
 * expiry) with `bench/w4-raw-participant`, the same election on the bare client: the floor.
 * `--impl node-zookeeper-relisting`: the bare client with kazoo's and Curator's election.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { IMPL } from './params.js';
import { epochMicros, median, round3 } from './stats.js';
import { Participant } from './w4-process.js';
import { parseArgs, runWorkload, sleep } from './workload-main.js';
/** The bare client with this library's election, and with kazoo's and Curator's (a listing before leading). */
const RAW_IMPLS = {
    'node-zookeeper': { args: [], recipe: 'bare client: fair queue under <path>/elections/w4, direct succession, nothing else' },
    'node-zookeeper-relisting': {
        args: ['--relist'],
        recipe: 'bare client: fair queue under <path>/elections/w4, every waiter lists again before leading (kazoo, Curator), nothing else',
    },
};
const requested = parseArgs(process.argv.slice(2)).get('impl');
if (requested !== undefined && !(typeof requested === 'string' && (requested === IMPL || requested in RAW_IMPLS))) {
    throw new Error(`--impl must be one of ${[IMPL, ...Object.keys(RAW_IMPLS)].join(', ')}`);
}
const raw = typeof requested === 'string' && requested in RAW_IMPLS ? requested : undefined;
const impl = raw ?? IMPL;
const PARTICIPANT = path.join(path.dirname(fileURLToPath(import.meta.url)), raw ? 'w4-raw-participant.js' : 'w4-participant.js');
const IDS = ['p0', 'p1', 'p2'];
const STEP_TIMEOUT_MS = 20_000;
async function trial(connect, kind, index, trials, timeoutMs, log) {
    const electionPath = `/bench/w4/r${Date.now()}-${impl}-${kind}-${index}`;
    const extra = raw ? RAW_IMPLS[raw].args : [];
    const group = IDS.map((id) => Participant.spawn(PARTICIPANT, ['--connect', connect, '--path', electionPath, '--id', id, '--session-timeout-ms', String(timeoutMs), ...extra], id, log));
    try {
        await Promise.all(group.map((p) => p.waitFor('READY', STEP_TIMEOUT_MS)));
        const leaders = () => group.filter((p) => p.isLeader);
        await waitUntil(() => leaders().length >= 1, STEP_TIMEOUT_MS, 'a LEADER among the participants');
        await sleep(300);
        if (leaders().length !== 1)
            throw new Error(`expected exactly one leader, saw ${leaders().map((p) => p.id).join(', ')}`);
        const leader = leaders()[0];
        const others = group.filter((p) => p !== leader);
        const firstNewLeader = Promise.race(others.map((p) => p.waitFor('LEADER', STEP_TIMEOUT_MS).then((at) => ({ p, at }))));
        firstNewLeader.catch(() => undefined); // awaited below; an early failure must not go unhandled
        let t0;
        if (kind === 'graceful') {
            leader.send('resign');
            t0 = await leader.waitFor('RESIGN', STEP_TIMEOUT_MS);
        }
        else {
            // Spread the kills over one client ping interval (timeout/3): where in the ping cycle the
            // process dies moves the server-side expiry by up to a third of the timeout.
            await sleep(((index - 1) / trials) * (timeoutMs / 3));
            t0 = epochMicros();
            leader.kill();
        }
        const { p: next, at: t1 } = await firstNewLeader;
        return { ms: round3((t1 - t0) / 1000), handoff: `${leader.id}->${next.id}` };
    }
    finally {
        await Promise.all(group.map((p) => p.quit(15_000)));
    }
}
async function waitUntil(check, timeoutMs, what) {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
        if (Date.now() > deadline)
            throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
        await sleep(5);
    }
}
function summarizeCase(kind, samples, trials, timeoutMs) {
    const ms = samples.map((s) => s.ms);
    return {
        trials,
        median_ms: round3(median(ms)),
        max_ms: Math.max(...ms),
        min_ms: Math.min(...ms),
        samples_ms: ms,
        handoffs: samples.map((s) => s.handoff),
        ...(kind === 'crash' && { pre_kill_delay_ms: Array.from({ length: trials }, (_, i) => round3((i / trials) * (timeoutMs / 3))) }),
    };
}
runWorkload('W4', async ({ connect, params, log }) => {
    const trials = params.w4_trials;
    const timeoutMs = params.w4_session_timeout_ms;
    const result = {
        impl,
        recipe: raw ? RAW_IMPLS[raw].recipe : 'LeaderService (ZkLockModule.forRoot election), fair queue under <path>/elections/w4',
        participants: IDS.length,
        session_timeout_ms: timeoutMs,
    };
    for (const kind of raw ? ['graceful'] : ['graceful', 'crash']) {
        const samples = [];
        for (let i = 1; i <= trials; i++) {
            const sample = await trial(connect, kind, i, trials, timeoutMs, log);
            log(`${kind} trial ${i}: ${sample.ms} ms (${sample.handoff})`);
            samples.push(sample);
        }
        result[kind] = summarizeCase(kind, samples, trials, timeoutMs);
    }
    return result;
});
//# sourceMappingURL=w4-failover.js.map