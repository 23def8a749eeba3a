/**
 * Turns the raw event logs of a chaos run into what the checker reasons about: lock holds (one per
 * grant), leadership intervals, and the windows during which each worker incarnation was stopped.
 *
 * A hold's interval is what its process *believed*, measured so that logging delays can only shrink
 * it, never stretch it into a false overlap: it starts at the `acquired` line (logged after the
 * grant) and ends at `lost` (the signal aborted), at its last logged activity before the release
 * (the release line itself is written after the delete is sent, so a descheduled process could log
 * it after its successor's grant), or at the process's death for a killed holder (whose session, and
 * so whose lock, outlives it by a session timeout).
 *
 * Eras: after the wipe fault (an ensemble restarted with empty data) tokens start again from small
 * values. Every hold and leadership belongs to the era in which it began (the driver's `era` lines),
 * and tokens are compared only as (era, token) pairs: a later era is newer, whatever its tokens.
 *
 * Frozen windows: a process that cannot run (SIGSTOP, or its event loop blocked by the block-worker
 * fault) cannot report that it lost a lock or leadership; overlaps with it are excused (checker.ts).
 *
 * The holds here are the counter lock's: its `@WithLock` sections and the lock sets (`withLocks`)
 * that name it. A set's call is its `call` line (its want), its body lines are its activity, its
 * `call-done` its outcome. The other locks of the workloads are reconstructed in recipe-holds.ts.
 */
import { COUNTER_KEY } from './chaos-names.js';
export const incKey = (w, inc) => `${w}.${inc}`;
export function reconstruct(workers, driver) {
    const stops = new Map();
    const deaths = new Map();
    const freeze = (w, inc, window) => stops.set(incKey(w, inc), [...(stops.get(incKey(w, inc)) ?? []), window]);
    const eraStarts = driver.flatMap((event) => (event.ev === 'era' ? [event.t] : [])).sort((a, b) => a - b);
    const eraAt = (t) => eraStarts.filter((start) => start <= t).length;
    for (const event of driver) {
        const frozen = event.ev === 'fault' && (event.kind === 'stop-worker' || event.kind === 'block-worker');
        if (frozen && event.w !== undefined && event.inc !== undefined)
            freeze(event.w, event.inc, { start: event.start, end: event.end });
        if (event.ev === 'fault' && event.kind === 'kill-worker' && event.w !== undefined && event.inc !== undefined) {
            const key = incKey(event.w, event.inc);
            const known = deaths.get(key);
            deaths.set(key, { at: Math.min(event.start, known?.at ?? Infinity), killed: true, code: null, signal: 'SIGKILL' });
        }
        if (event.ev === 'exit') {
            const key = incKey(event.w, event.inc);
            const known = deaths.get(key);
            deaths.set(key, { at: Math.min(event.t, known?.at ?? Infinity), killed: event.killed || (known?.killed ?? false), code: event.code, signal: event.signal });
        }
    }
    const byIncarnation = new Map();
    for (const event of workers) {
        // The blocked process's own account of its block (the driver's fault line may be missing).
        if (event.ev === 'block')
            freeze(event.w, event.inc, { start: Number(event.start), end: Number(event.end) });
        const key = incKey(event.w, event.inc);
        const list = byIncarnation.get(key) ?? [];
        list.push(event);
        byIncarnation.set(key, list);
    }
    const holds = [];
    const leaders = [];
    const waits = [];
    for (const [key, events] of byIncarnation) {
        events.sort((a, b) => a.t - b.t);
        const death = deaths.get(key);
        const lastAt = events.at(-1).t;
        const endOfLife = death ? death.at : lastAt;
        let hold;
        let lastActivity = 0;
        let wantAt;
        /** The lock set whose want `wantAt` is (undefined: a `@WithLock` section's). */
        let wantCall;
        let leader;
        const closeHold = (end, kind) => {
            if (!hold || hold.endKind !== 'open')
                return;
            hold.end = end;
            hold.endKind = kind;
        };
        /** The locked call that holds `hold` ended (a section's `done`, a set's `call-done`). */
        const settle = (held, ok, error) => {
            if (held.completed || held.error !== undefined)
                return;
            if (ok)
                held.completed = true;
            else
                held.error = error ?? 'Error';
            // The body ran to its end and the completion write then died with the connection: it may
            // have been applied (ready) or not (dirty, the next holder repairs). The logs cannot tell.
            if (held.exitedCleanly && /^ZooKeeperError:(CONNECTIONLOSS|OPERATIONTIMEOUT)$/.test(held.error ?? ''))
                held.outcomeUnknown = true;
            // The lease was lost only after the body ended: the completion write had gone out (it
            // rides through a dropped connection) and may have landed before the session came back
            // or went; the call says LockLostError either way (it cannot vouch for exclusivity).
            if (held.exitedCleanly && held.error === 'LockLostError' && held.endKind === 'lost' && held.exitAt !== undefined && held.end > held.exitAt)
                held.outcomeUnknown = true;
        };
        /** Lines of other locks (sets, read/write, semaphore: recipe-holds.ts) are not the counter's. */
        const counterLine = (event) => event.lock === undefined || event.lock === COUNTER_KEY;
        for (const event of events) {
            switch (event.ev) {
                case 'want':
                    wantAt = event.t;
                    wantCall = undefined;
                    break;
                case 'call':
                    if (!event.locks.includes(COUNTER_KEY))
                        break;
                    wantAt = event.t;
                    wantCall = event.call;
                    break;
                case 'acquired':
                    if (!counterLine(event))
                        break;
                    closeHold(lastActivity, 'released'); // a grant before the last hold's release line: should not happen
                    hold = { w: event.w, inc: event.inc, token: event.token, era: eraAt(event.t), wantAt: wantAt ?? event.t, acquiredAt: event.t, end: endOfLife, endKind: 'open', completed: false, exitedCleanly: false, outcomeUnknown: false, ...(event.call !== undefined && { call: event.call }), recoveries: [], checkpoints: [] };
                    holds.push(hold);
                    if (wantAt !== undefined)
                        waits.push({ w: event.w, inc: event.inc, wantAt, until: event.t, granted: true });
                    wantAt = undefined;
                    wantCall = undefined;
                    lastActivity = event.t;
                    break;
                case 'lost':
                    if (counterLine(event) && hold?.token === event.token)
                        closeHold(event.t, 'lost');
                    break;
                case 'released':
                    if (counterLine(event) && hold?.token === event.token)
                        closeHold(lastActivity, 'released');
                    break;
                case 'body':
                case 'body-work':
                case 'body-end':
                    if (hold !== undefined && hold.call === event.call)
                        lastActivity = event.t;
                    break;
                case 'call-done':
                    if (wantAt !== undefined && wantCall === event.call) {
                        waits.push({ w: event.w, inc: event.inc, wantAt, until: event.t, granted: false }); // the set failed before the counter's grant
                        wantAt = undefined;
                        wantCall = undefined;
                    }
                    else if (hold !== undefined && hold.call === event.call) {
                        settle(hold, event.ok, event.error);
                    }
                    break;
                case 'enter':
                case 'checkpoint':
                case 'work':
                case 'exit':
                case 'recovering':
                case 'recovered':
                case 'recover-failed':
                    if (hold?.token !== event.token)
                        break;
                    lastActivity = event.t;
                    if (event.ev === 'enter')
                        hold.enterAt = event.t;
                    if (event.ev === 'checkpoint')
                        hold.checkpoints.push(event.v);
                    if (event.ev === 'exit') {
                        hold.exitedCleanly = event.error === undefined;
                        hold.exitAt = event.t;
                    }
                    if (event.ev === 'recovered')
                        hold.recoveries.push({ interrupted: event.interrupted, at: event.t, repaired: event.repaired, checkpoint: event.checkpoint });
                    break;
                case 'done':
                    if (wantAt !== undefined) {
                        waits.push({ w: event.w, inc: event.inc, wantAt, until: event.t, granted: false }); // failed before any grant
                        wantAt = undefined;
                    }
                    else if (hold && hold.call === undefined) {
                        settle(hold, event.ok, event.error);
                    }
                    break;
                case 'leader':
                    if (event.value && !leader) {
                        leader = { w: event.w, inc: event.inc, token: event.token ?? '-1', era: eraAt(event.t), start: event.t, end: endOfLife, endKind: 'open' };
                        leaders.push(leader);
                    }
                    else if (!event.value && leader) {
                        leader.end = event.t;
                        leader.endKind = 'false';
                        leader = undefined;
                    }
                    break;
            }
        }
        if (hold?.exitedCleanly && hold.endKind !== 'lost' && !hold.completed && hold.error === undefined && death?.killed)
            hold.outcomeUnknown = true;
        // Whatever was open when the process died lasted until its death (its session outlived it).
        if (hold?.endKind === 'open') {
            hold.end = endOfLife;
            hold.endKind = death?.killed ? 'killed' : 'open';
        }
        if (leader) {
            leader.end = endOfLife;
            leader.endKind = death ? 'died' : 'open';
        }
        if (wantAt !== undefined)
            waits.push({ w: events[0].w, inc: events[0].inc, wantAt, until: endOfLife, granted: false });
    }
    holds.sort((a, b) => a.acquiredAt - b.acquiredAt);
    leaders.sort((a, b) => a.start - b.start);
    return { holds, leaders, stops, eraStarts, deaths, waits, byIncarnation };
}
/** Orders (era, token) pairs: a later era is newer whatever its tokens (they restart after a wipe). */
export function compareEraTokens(a, b) {
    if (a.era !== b.era)
        return a.era < b.era ? -1 : 1;
    const x = BigInt(a.token);
    const y = BigInt(b.token);
    return x < y ? -1 : x > y ? 1 : 0;
}
/** A token's name, unique over the run: `era:token`. */
export const eraToken = (era, token) => `${era}:${token}`;
/** Whether incarnation `w.inc` was stopped at some moment inside [from, to]. */
export function stoppedDuring(stops, w, inc, from, to) {
    return (stops.get(incKey(w, inc)) ?? []).some((stop) => stop.start < to && stop.end > from);
}
//# sourceMappingURL=holds.js.map