/**
 * The chaos run's faults, one at a time, each logged with its start and end (`fault` lines of the
 * driver log). Targets and timings come from a seeded RNG, so `--seed` replays the schedule (who is
 * inside a section or leads at a given moment still depends on timing).
 *
 * Section holders are picked, when one comes within RECIPE_WAIT_MS, among those that also hold a
 * read/write lock or semaphore permits at that moment (chaos-worker.ts), so that those holds meet
 * the faults too.
 *
 * - kill-worker: SIGKILL a worker inside its section (on its `in-section` message, plus 0-25 ms,
 *   so that kills land before, between and after its checkpoint and write), respawn it ~0.5-1 s later.
 * - stop-worker: SIGSTOP a worker for 1.5 session timeouts (its session expires meanwhile), then
 *   SIGCONT; alternately a worker inside its section and the current leader.
 *   Cut and stopped workers "linger": their section keeps working until the lease says it may be
 *   lost, so that a late loss signal shows up as overlapping work (and stale tokens at the store).
 * - kill-zk-leader: SIGKILL the ensemble's leader server, restart it 2-4 s later, wait for quorum.
 * - restart-zk-follower: restart (SIGTERM, start) a follower, wait for quorum.
 * - cut-xT: blackhole a worker's proxies to every server for x session timeouts, then restore;
 *   per kind alternately the leader and a worker right after its section's checkpoint.
 * - cut-follower: cut the quorum link between the ZooKeeper leader and the follower that a worker
 *   right after its checkpoint is connected to, for 1.5 session timeouts. The follower goes on
 *   answering the worker's pings and reads until it notices (syncLimit ticks, past the session
 *   timeout here) while the leader expires the session: the worker must stop before anyone else
 *   is granted what it held (issue 29, S5).
 * - oversize-checkpoint, block-worker, wipe-ensemble: see trust-faults.ts.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { withTimeout } from '../support/wait.js';
import { FAULT_KINDS, monotonicNs } from './event-log.js';
import { blockWorker, oversizeCheckpoint, wipeEnsemble } from './trust-faults.js';
/** mulberry32: small, fast, good enough to pick targets and delays reproducibly. */
export class Rng {
    constructor(seed) {
        this.state = seed >>> 0;
    }
    next() {
        let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    }
    /** Integer in [lo, hi]. */
    int(lo, hi) {
        return lo + Math.floor(this.next() * (hi - lo + 1));
    }
    pick(items) {
        return items[Math.floor(this.next() * items.length)];
    }
    shuffle(items) {
        const copy = [...items];
        for (let i = copy.length - 1; i > 0; i--) {
            const j = Math.floor(this.next() * (i + 1));
            [copy[i], copy[j]] = [copy[j], copy[i]];
        }
        return copy;
    }
}
const CUT_FACTORS = { 'cut-0.5T': 0.5, 'cut-1T': 1, 'cut-1.5T': 1.5 };
const ENTRY_WAIT_MS = 5000;
/** How long `holder` looks for a section holder that also holds a read/write lock or permits. */
const RECIPE_WAIT_MS = 2500;
/** What else the target holds, for the fault's note. */
const alsoHolding = (target) => (target.recipes.size > 0 ? `, holding ${[...target.recipes.values()].join(' + ')}` : '');
export class FaultInjector {
    constructor(ctx) {
        this.ctx = ctx;
        this.counts = Object.fromEntries(FAULT_KINDS.map((kind) => [kind, 0]));
        this.stops = 0;
        this.record = (kind, start, end, detail) => {
            this.counts[kind]++;
            this.ctx.log.write({ ev: 'fault', kind, start, end, ...detail });
            const target = detail.w !== undefined ? `w${detail.w}.${detail.inc}` : detail.server !== undefined ? `zk${detail.server}` : 'ensemble';
            this.ctx.say(`${kind.padEnd(19)} ${target}${detail.note ? ` (${detail.note})` : ''}, ${Math.round((end - start) / 1e6)} ms`);
        };
    }
    async inject(kind) {
        const cut = CUT_FACTORS[kind];
        if (cut !== undefined)
            return this.cut(kind, cut);
        switch (kind) {
            case 'kill-worker':
                return this.killWorker();
            case 'stop-worker':
                return this.stopWorker();
            case 'kill-zk-leader':
                return this.killZkLeader();
            case 'restart-zk-follower':
                return this.restartFollower();
            case 'cut-follower':
                return this.cutFollower();
            case 'oversize-checkpoint':
                return oversizeCheckpoint(this.ctx, this.record);
            case 'block-worker':
                return blockWorker(this.ctx, this.record, this.counts['block-worker']);
            case 'wipe-ensemble':
                return wipeEnsemble(this.ctx, this.record);
        }
    }
    async killWorker() {
        const target = await this.holder();
        if (!target)
            return this.ctx.say('kill-worker: no worker entered a section in time; skipped');
        await sleep(this.ctx.rng.int(0, 25));
        if (!target.alive)
            return;
        const start = Number(monotonicNs());
        this.ctx.pool.kill(target);
        const note = `${target.leading ? 'also the leader' : ''}${alsoHolding(target)}`.replace(/^, /, '');
        this.record('kill-worker', start, start, { w: target.w, inc: target.inc, token: target.section, note: note || undefined });
        await sleep(this.ctx.rng.int(500, 1000));
        await target.exited;
        const next = this.ctx.pool.spawn(target.w);
        await withTimeout(next.ready, 30_000).catch(() => this.ctx.say(`w${next.w}.${next.inc} not ready within 30 s; going on`));
    }
    async stopWorker() {
        const target = this.stops++ % 2 === 1 ? (this.ctx.pool.leader() ?? (await this.holder())) : await this.holder();
        if (!target)
            return this.ctx.say('stop-worker: no target in time; skipped');
        const note = `${target.section ? `in section ${target.section}` : 'between sections'}${target.leading ? ', leader' : ''}${alsoHolding(target)}`;
        // A holder keeps working through the stop: resumed, its next store operation carries the old token.
        this.ctx.pool.linger(target, 2.5 * this.ctx.sessionTimeoutMs);
        await sleep(this.ctx.rng.int(2, 20)); // lands anywhere in the section, after the linger message
        const start = Number(monotonicNs());
        target.child.kill('SIGSTOP');
        await sleep(1.5 * this.ctx.sessionTimeoutMs);
        target.child.kill('SIGCONT');
        this.record('stop-worker', start, Number(monotonicNs()), { w: target.w, inc: target.inc, note });
    }
    async killZkLeader() {
        const { ensemble } = this.ctx;
        const leader = await ensemble.leader(20_000);
        const start = Number(monotonicNs());
        await leader.kill();
        await sleep(this.ctx.rng.int(2000, 4000));
        await leader.restart();
        await ensemble.waitForQuorum(60_000);
        this.record('kill-zk-leader', start, Number(monotonicNs()), { server: this.ctx.serverIds[ensemble.members.indexOf(leader)] });
    }
    async restartFollower() {
        const { ensemble } = this.ctx;
        const follower = this.ctx.rng.pick(await ensemble.followers());
        const start = Number(monotonicNs());
        await follower.restart();
        await ensemble.waitForQuorum(60_000);
        this.record('restart-zk-follower', start, Number(monotonicNs()), { server: this.ctx.serverIds[ensemble.members.indexOf(follower)] });
    }
    async cutFollower() {
        const { ensemble } = this.ctx;
        // A worker whose session is on a follower (the one proxy of its own that carries a connection):
        // a few tries, since a third of them sit on the leader.
        let found;
        for (let attempt = 0; attempt < 6 && !found; attempt++) {
            const target = await this.holder('checkpointed');
            if (!target)
                continue;
            const member = this.ctx.proxies[target.w].findIndex((proxy) => proxy.connectionCount > 0);
            const leader = ensemble.members.indexOf(await ensemble.leader(20_000));
            if (member >= 0 && member !== leader)
                found = { target, member, leader };
            else
                await sleep(this.ctx.rng.int(200, 600));
        }
        if (!found)
            return this.ctx.say('cut-follower: no section holder on a follower in time; skipped');
        const { target, member, leader } = found;
        const note = `w${target.w} on server ${this.ctx.serverIds[member]}, ${target.section ? `in section ${target.section}` : 'between sections'}${target.leading ? ', leader' : ''}${alsoHolding(target)}`;
        this.ctx.pool.linger(target, 2.5 * this.ctx.sessionTimeoutMs);
        const link = ensemble.link(member, leader);
        const start = Number(monotonicNs());
        link.cut();
        await sleep(1.5 * this.ctx.sessionTimeoutMs);
        link.restore();
        await ensemble.waitForQuorum(60_000);
        this.record('cut-follower', start, Number(monotonicNs()), { w: target.w, inc: target.inc, server: this.ctx.serverIds[member], note });
    }
    async cut(kind, factor) {
        // A holder is cut right after its checkpoint, so that it keeps working (store operations, no
        // ZooKeeper request to block on) until its lease says the lock may be lost.
        // Leader and holder take turns per kind; the first 1.5T cut goes to the leader, so that even a
        // one-round run cuts a leader off past its session timeout.
        const leaderFirst = kind === 'cut-1.5T' ? 1 : 0;
        const target = (this.counts[kind] + leaderFirst) % 2 === 1 ? (this.ctx.pool.leader() ?? (await this.holder('checkpointed'))) : await this.holder('checkpointed');
        if (!target)
            return this.ctx.say(`${kind}: no target in time; skipped`);
        const note = `${target.section ? `in section ${target.section}` : 'between sections'}${target.leading ? ', leader' : ''}${alsoHolding(target)}`;
        const proxies = this.ctx.proxies[target.w];
        // A holder keeps working while cut off, until its lease's signal says stop (invariant 2).
        this.ctx.pool.linger(target, (factor + 1) * this.ctx.sessionTimeoutMs);
        const start = Number(monotonicNs());
        for (const proxy of proxies)
            proxy.cut();
        await sleep(factor * this.ctx.sessionTimeoutMs);
        for (const proxy of proxies)
            proxy.restore();
        this.record(kind, start, Number(monotonicNs()), { w: target.w, inc: target.inc, note });
    }
    /**
     * A live worker right as it reaches `step` of a section: a random slot first, then whichever comes;
     * preferably one that also holds a read/write lock or semaphore permits then (their holds meet
     * the fault too), else any.
     */
    async holder(step = 'entered') {
        const slots = this.ctx.pool.live().map((incarnation) => incarnation.w);
        if (slots.length === 0)
            return undefined;
        const slot = this.ctx.rng.pick(slots);
        const holdsMore = (incarnation) => incarnation.recipes.size > 0;
        const { pool } = this.ctx;
        return ((await pool.nextSectionStep(step, slot, RECIPE_WAIT_MS, holdsMore)) ??
            (await pool.nextSectionStep(step, undefined, RECIPE_WAIT_MS, holdsMore)) ??
            (await pool.nextSectionStep(step, slot, ENTRY_WAIT_MS)) ??
            (await pool.nextSectionStep(step, undefined, ENTRY_WAIT_MS)));
    }
}
//# sourceMappingURL=fault-injector.js.map