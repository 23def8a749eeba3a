/**
 * The chaos run's faults from issue 14 ("Trust"), the ones that found its bugs; see fault-injector.ts
 * for the rest. (The fourth, a member with server id 255, is not a fault but the ensemble's make-up:
 * run.ts starts it with server ids 1, 2, 255, so that sessions created by that member start with `ff`.)
 *
 * - oversize-checkpoint: a worker attempts, inside its next section, one checkpoint of 2 MiB of JSON
 *   (over the library's record bound and ZooKeeper's 1 MB jute.maxbuffer). It must be refused with
 *   code ZK_RECORD_TOO_LARGE before it is sent, and the worker must keep its session and lease; the
 *   fault lasts one more session timeout after the outcome, so that nothing else happens while the
 *   checker looks for a loss. A worker whose attempt does not settle within two session timeouts is
 *   killed (so that one wedged connection does not stall the rest of the run) and respawned.
 * - block-worker: a worker blocks its event loop (busy-wait) for 0.8 session timeouts inside its
 *   next section, right after its checkpoint; alternately after half a session timeout of quiet
 *   work and at once (the first is unsafe: the server may expire the session meanwhile, and the
 *   loss clock must say so). Like a SIGSTOP, a blocked process cannot report a loss: the checker
 *   excuses overlaps exactly as for stop-worker.
 * - wipe-ensemble: stop every member; wait 1.5 session timeouts plus a margin (every lease must count
 *   as lost by then); tell the store a new era began (FencedStore.newEra: tokens start again); delete
 *   every member's data except `myid`; start them all; wait for a quorum. ZooKeeper has forgotten
 *   every session, queue node and ready record; workers must open new sessions.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { monotonicNs } from './event-log.js';
/** Over the library's bound and over ZooKeeper's default jute.maxbuffer (1 MB). */
export const OVERSIZE_BYTES = 2 * 1024 * 1024;
/** How long a worker may take to reach its next section (it queues behind the others). */
const NEXT_SECTION_MS = 10_000;
export async function oversizeCheckpoint(ctx, record) {
    const target = ctx.rng.pick(ctx.pool.live());
    if (!target)
        return ctx.say('oversize-checkpoint: no live worker; skipped');
    const attempt = ctx.pool.nextMessage(target, 'oversize-attempt', NEXT_SECTION_MS);
    ctx.pool.send(target, { type: 'oversize', bytes: OVERSIZE_BYTES });
    const start = Number(monotonicNs());
    if (!(await attempt)) {
        ctx.pool.send(target, { type: 'cancel' });
        return ctx.say(`oversize-checkpoint: w${target.w}.${target.inc} entered no section in time; skipped`);
    }
    const result = await ctx.pool.nextMessage(target, 'oversize-result', 2 * ctx.sessionTimeoutMs);
    let note;
    if (result) {
        note = result.accepted ? 'accepted' : `refused ${String(result.code ?? 'without a code')}`;
        // Quiet for a session timeout: a loss of the session or lease now is the attempt's doing.
        await sleep(ctx.sessionTimeoutMs);
    }
    else if (target.alive) {
        note = `not settled within ${2 * ctx.sessionTimeoutMs} ms: killed`;
        ctx.pool.kill(target);
        await target.exited;
    }
    else {
        note = 'the worker died';
    }
    record('oversize-checkpoint', start, Number(monotonicNs()), { w: target.w, inc: target.inc, note });
    if (!target.alive) {
        const next = ctx.pool.spawn(target.w);
        await Promise.race([next.ready, sleep(30_000)]);
    }
}
/** `nth`: how many blocks were injected before this one. */
export async function blockWorker(ctx, record, nth) {
    const target = ctx.rng.pick(ctx.pool.live());
    if (!target)
        return ctx.say('block-worker: no live worker; skipped');
    // The unsafe block first, so that even a one-round run has the loss clock call it.
    const idleMs = nth % 2 === 0 ? Math.round(ctx.sessionTimeoutMs / 2) : 0;
    const blockMs = Math.round(0.8 * ctx.sessionTimeoutMs);
    const blocked = ctx.pool.nextMessage(target, 'blocked', NEXT_SECTION_MS + idleMs + blockMs);
    ctx.pool.send(target, { type: 'block', idleMs, blockMs });
    const done = await blocked;
    if (!done) {
        ctx.pool.send(target, { type: 'cancel' });
        return ctx.say(`block-worker: w${target.w}.${target.inc} did not block in time; skipped`);
    }
    // The worker's own clock (CLOCK_MONOTONIC, shared by the machine): exactly when its loop was blocked.
    const note = `${idleMs > 0 ? `after ${idleMs} ms of quiet work` : 'right after the checkpoint'}${target.leading ? ', leader' : ''}`;
    record('block-worker', Number(done.start), Number(done.end), { w: target.w, inc: target.inc, note });
}
export async function wipeEnsemble(ctx, record) {
    const { ensemble } = ctx;
    const start = Number(monotonicNs());
    await Promise.all(ensemble.members.map((member) => member.stop()));
    // Every lease must count as lost before the tokens restart: nobody may still believe it holds.
    await sleep(1.5 * ctx.sessionTimeoutMs + 500);
    const era = ctx.store.newEra();
    ctx.log.write({ ev: 'era', era });
    for (const member of ensemble.members) {
        for (const entry of fs.readdirSync(member.dataDir)) {
            if (entry !== 'myid')
                fs.rmSync(path.join(member.dataDir, entry), { recursive: true, force: true });
        }
    }
    // Started together: no member can serve before a quorum is up.
    await Promise.all(ensemble.members.map((member) => member.restart({ waitReady: false })));
    await Promise.all(ensemble.members.map((member) => member.waitReady(60_000)));
    await ensemble.waitForQuorum(60_000);
    record('wipe-ensemble', start, Number(monotonicNs()), { note: `era ${era}` });
}
//# sourceMappingURL=trust-faults.js.map