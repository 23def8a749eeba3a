/**
 * The chaos run's verdict: a pure function from the event logs (workers, fenced store, driver) to
 * violations by kind and the run's figures. Each rule names the invariant of DESIGN §8 it checks.
 * `checker.test.ts` feeds it hand-written logs with each kind of violation: a checker that cannot
 * fail proves nothing.
 */
import { COUNTER_KEY } from './chaos-names.js';
import { compareEraTokens, eraToken, reconstruct, stoppedDuring } from './holds.js';
import { checkLeadership } from './leadership-rules.js';
import { reconstructRecipes } from './recipe-holds.js';
import { checkRecipeCalls, checkRecipes } from './recipe-rules.js';
import { checkRecovery } from './recovery-rules.js';
import { reconstructRevocation } from './revocation-holds.js';
import { checkRevocation } from './revocation-rules.js';
import { checkOversize, sessionsOfServer255 } from './trust-rules.js';
export const VIOLATION_KINDS = [
    'lock-overlap', // inv. 1/2: two holders believed they held the lock at once
    'stale-success', // a holder that overlapped its successor (excused by a SIGSTOP) still reported success
    'token-order', // fencing tokens did not strictly increase in grant order (within one era)
    'store-order', // the store accepted an older token after a newer one (within one era), one token from two processes, or a token of an earlier era
    'cas-conflict', // a write found the counter changed since its read: two writers interleaved
    'lost-increment', // a checkpointed increment was never applied, or applied by someone else
    'counter', // the final counter is not the number of accepted increments
    'recovery-missing', // inv. 6: an interrupted section was not repaired by the next holder before its work
    'recovery-duplicate', // repaired twice
    'recovery-spurious', // a repair of a section that was not interrupted
    'leader-overlap', // two leaders at once
    'leader-token-order', // leadership tokens did not increase
    'stuck', // a wait, the lock or the election made no progress within the bound, or a worker did not stop
    'unexpected-exit', // a worker process died without being killed
    'orphan', // inv. 3: queue znodes left after every worker was gone (any lock's or the election's; any node under a read/write lock's or a semaphore's directory, its leases included)
    'dirty-at-end', // a ready znode is dirty at the end although a later holder (or a graceful close) came
    'oversize', // an oversized checkpoint was not refused with ZK_RECORD_TOO_LARGE, or cost its worker the session or lease
    'set-overlap', // inv. 1 for withLocks: a lock of a set held at once with another holder of that lock (a set's or a single call's)
    'rw-exclusion', // a writer's hold overlapped another hold (read or write) of its read/write lock
    'rw-token-order', // a writer's token not above every earlier holder's, or not below every later holder's
    'permits-exceeded', // a semaphore's permits held at once exceeded its capacity
    'released-on-behalf', // a holder lost its lock with its session fine and no fault on it, or was released while its body ran: something but the holder ended its tenure
    'spurious-release-request', // a holder's releaseRequested aborted, or a leader stepped down, without a request that targeted it
];
const ms = (ns) => Math.round(ns / 1e6);
export function check(input) {
    const violations = Object.fromEntries(VIOLATION_KINDS.map((kind) => [kind, []]));
    const run = reconstruct(input.workers, input.driver);
    const t0 = Math.min(...[...input.workers, ...input.driver].map((event) => event.t));
    const at = (t) => `${ms(t - t0)}ms`;
    const stopPhase = input.driver.find((event) => event.ev === 'phase' && event.name === 'stopping')?.t ?? Infinity;
    const figures = {
        acquisitions: run.holds.length,
        acquisitionsBySets: run.holds.filter((hold) => hold.call !== undefined).length,
        sectionsCompleted: run.holds.filter((hold) => hold.completed && hold.call === undefined).length,
        sectionsFailed: countBy(run.holds.filter((hold) => hold.error !== undefined && hold.call === undefined).map((hold) => hold.error)),
        sectionsOutcomeUnknown: run.holds.filter((hold) => hold.outcomeUnknown).length,
        storeAccepted: 0,
        storeRejectedStale: 0,
        storeLateAccepted: 0,
        beatsAccepted: 0,
        beatsRejectedStale: 0,
        recoveryRuns: 0,
        repairsApplied: 0,
        recoveryReruns: 0,
        unrepairedAtEnd: 0,
        excusedLockOverlaps: 0,
        excusedLeaderOverlaps: 0,
        leaderTerms: run.leaders.length,
        longestLockGapMs: ms(longestGap(run.holds.map((hold) => ({ start: hold.acquiredAt, end: hold.end })), stopPhase)),
        longestLeaderGapMs: ms(longestGap(run.leaders, stopPhase)),
        wipes: run.eraStarts.length,
        sectionsWiped: 0,
        incrementsLostToWipe: 0,
        oversizeAttempts: 0,
        oversizeRefused: 0,
        sessionsOfServer255: sessionsOfServer255(input.workers),
        setCalls: 0,
        setsCompleted: 0,
        setHolds: 0,
        readHolds: 0,
        writeHolds: 0,
        maxConcurrentReaders: 0,
        semaphoreHolds: 0,
        semaphoreMultiPermitHolds: 0,
        maxPermitsHeld: 0,
        semaphoreCapacity: 0,
        excusedRecipeOverlaps: 0,
        busyTries: 0,
        recipeCallsFailed: {},
        recipeHoldsLost: {},
        releaseRequests: {},
        stepDownRequests: {},
        holdersWatching: 0,
        holdersAsked: 0,
        holdersAskedNotWatching: 0,
        holdersSawRequest: 0,
        earlyEnds: {},
        stepDowns: 0,
        leaderChangesAfterRequest: 0,
        longestStepDownHandOverMs: 0,
        finalCounter: input.end.finalCounter,
        workerErrors: countBy(input.workers.flatMap((event) => (event.ev === 'error' ? [event.where] : []))),
    };
    // The store logs in processing order, with the driver's clock: sorting by time keeps that order.
    const store = [...input.store].sort((a, b) => a.t - b.t);
    checkHolds(run, violations, figures, at);
    checkStore(run, store, violations, figures, at);
    checkRecovery(run, store, input.end, violations, figures, at);
    checkLeadership(run, violations, figures, at);
    checkLiveness(run, input, violations, figures, at);
    checkOversize(run, input, violations, figures, at);
    const recipes = reconstructRecipes(run);
    checkRecipes(run, recipes, violations, figures, at);
    checkRecipeCalls(run, recipes, input, wipeDowntime(input.driver), violations, figures, at);
    checkRevocation(run, reconstructRevocation(run), input, violations, figures, at);
    return { violations, figures };
}
/**
 * Invariants 1, 2, 5: holds never overlap (unless the older holder was frozen: a SIGSTOP or a blocked
 * event loop excuses it); tokens grow in grant order within an era. The counter lock's holds include
 * those of lock sets that name it: an overlap with one of them is a `set-overlap`.
 */
function checkHolds(run, violations, figures, at) {
    let open = [];
    let previous;
    const excused = new Set();
    for (const hold of run.holds) {
        // Tokens restart after a wipe: they are ordered within one era only.
        if (previous && previous.era === hold.era && BigInt(hold.token) <= BigInt(previous.token)) {
            const [stale, newer] = BigInt(hold.token) < BigInt(previous.token) ? [hold, previous] : [previous, hold];
            if (!stoppedDuring(run.stops, stale.w, stale.inc, stale.wantAt, newer.acquiredAt)) {
                violations['token-order'].push(`token ${hold.token} (w${hold.w}.${hold.inc}) granted at ${at(hold.acquiredAt)} after token ${previous.token} (w${previous.w}.${previous.inc}) at ${at(previous.acquiredAt)}`);
            }
        }
        previous = hold;
        open = open.filter((earlier) => earlier.end > hold.acquiredAt);
        for (const earlier of open) {
            const [stale, newer] = compareEraTokens(earlier, hold) < 0 ? [earlier, hold] : [hold, earlier];
            const what = `w${earlier.w}.${earlier.inc} token ${earlier.token} [${at(earlier.acquiredAt)}..${at(earlier.end)} ${earlier.endKind}] and w${hold.w}.${hold.inc} token ${hold.token} acquired at ${at(hold.acquiredAt)}`;
            if (stale !== newer && stoppedDuring(run.stops, stale.w, stale.inc, stale.wantAt, newer.acquiredAt)) {
                excused.add(stale);
                if (stale.completed)
                    violations['stale-success'].push(`${what}: the stopped holder's call returned normally`);
            }
            else if (earlier.call !== undefined || hold.call !== undefined) {
                violations['set-overlap'].push(`${COUNTER_KEY}: ${what} (${earlier.call !== undefined ? 'set' : 'section'} and ${hold.call !== undefined ? 'set' : 'section'})`);
            }
            else {
                violations['lock-overlap'].push(what);
            }
        }
        open.push(hold);
    }
    figures.excusedLockOverlaps = excused.size;
}
/**
 * The store's own record: fencing held (accepted tokens never go back within an era), no
 * compare-and-set conflict, and no token of an earlier era accepted after the store's era changed
 * (the store cannot tell such a token from a new one: only the lease's loss, signalled while the
 * ensemble was down, keeps its holder from writing).
 */
function checkStore(run, store, violations, figures, at) {
    const sorted = [...run.holds].sort(compareEraTokens);
    const successorGrant = new Map(sorted.map((hold, i) => [eraToken(hold.era, hold.token), sorted[i + 1]?.acquiredAt ?? Infinity]));
    // The newest era in which each incarnation held (or led with) each token.
    const heldIn = new Map();
    for (const { w, inc, token, era } of [...run.holds, ...run.leaders])
        heldIn.set(`${w}.${inc}:${token}`, Math.max(era, heldIn.get(`${w}.${inc}:${token}`) ?? 0));
    let newestLock;
    let newestBeat;
    for (const op of store) {
        const era = op.era ?? 0;
        const tokenEra = heldIn.get(`${op.w}.${op.inc}:${op.token}`);
        if (op.accepted && tokenEra !== undefined && tokenEra < era) {
            violations['store-order'].push(`${op.op} with token ${op.token} of era ${tokenEra} (w${op.w}.${op.inc}) accepted at ${at(op.t)} in era ${era}`);
        }
        if (op.op === 'beat') {
            if (!op.accepted) {
                figures.beatsRejectedStale++;
                continue;
            }
            figures.beatsAccepted++;
            if (newestBeat && (newestBeat.era ?? 0) === era && BigInt(op.token) < BigInt(newestBeat.token)) {
                violations['store-order'].push(`beat with leader token ${op.token} accepted at ${at(op.t)} after token ${newestBeat.token}`);
            }
            newestBeat = op;
            continue;
        }
        if (!op.accepted) {
            if (op.reason === 'stale')
                figures.storeRejectedStale++;
            else
                violations['cas-conflict'].push(`w${op.w}.${op.inc} token ${op.token} write expecting ${op.expect} refused at ${at(op.t)}: the counter had changed since its read`);
            continue;
        }
        figures.storeAccepted++;
        const sameEra = newestLock !== undefined && (newestLock.era ?? 0) === era;
        if (newestLock && sameEra && BigInt(op.token) < BigInt(newestLock.token)) {
            violations['store-order'].push(`${op.op} with token ${op.token} accepted at ${at(op.t)} after token ${newestLock.token}`);
        }
        else if (newestLock && sameEra && op.token === newestLock.token && (op.w !== newestLock.w || op.inc !== newestLock.inc)) {
            violations['store-order'].push(`token ${op.token} used by w${newestLock.w}.${newestLock.inc} and w${op.w}.${op.inc}`);
        }
        newestLock = op;
        if (op.t > (successorGrant.get(eraToken(era, op.token)) ?? Infinity))
            figures.storeLateAccepted++;
    }
}
/**
 * No process stuck, none died on its own, nothing left behind. The time a wipe kept the ensemble
 * down (stopped, then restarting with empty data) does not count towards the stuck bound.
 */
function checkLiveness(run, input, violations, figures, at) {
    const bound = input.stuckBoundMs * 1e6;
    const wipes = input.driver.flatMap((event) => (event.ev === 'fault' && event.kind === 'wipe-ensemble' ? [{ start: event.start, end: event.end }] : []));
    const downWithin = wipeDowntime(input.driver);
    const longestWipeMs = ms(Math.max(0, ...wipes.map((wipe) => wipe.end - wipe.start)));
    for (const wait of run.waits) {
        const death = run.deaths.get(`${wait.w}.${wait.inc}`);
        if (!wait.granted && death?.killed && wait.until >= death.at)
            continue; // killed while waiting
        if (wait.until - wait.wantAt - downWithin(wait.wantAt, wait.until) > bound && !stoppedDuring(run.stops, wait.w, wait.inc, wait.wantAt, wait.until)) {
            violations.stuck.push(`w${wait.w}.${wait.inc} waited ${ms(wait.until - wait.wantAt)}ms from ${at(wait.wantAt)} (${wait.granted ? 'then granted' : 'never granted'})`);
        }
    }
    if (figures.longestLockGapMs > input.stuckBoundMs + longestWipeMs)
        violations.stuck.push(`nobody held the lock for ${figures.longestLockGapMs}ms`);
    if (figures.longestLeaderGapMs > input.stuckBoundMs + longestWipeMs)
        violations.stuck.push(`nobody led for ${figures.longestLeaderGapMs}ms`);
    for (const event of input.driver) {
        if (event.ev === 'stuck')
            violations.stuck.push(`w${event.w}.${event.inc}: ${event.note}`);
    }
    for (const [key, death] of run.deaths) {
        if (!death.killed && death.code !== 0)
            violations['unexpected-exit'].push(`w${key} exited with code ${death.code} signal ${death.signal} at ${at(death.at)}`);
    }
    for (const orphan of input.end.orphans)
        violations.orphan.push(orphan);
    const electionReady = input.end.electionReady;
    if (electionReady && electionReady.state !== 'ready') {
        violations['dirty-at-end'].push(`the election's ready znode is ${electionReady.state} with token ${electionReady.token} after every leader closed`);
    }
}
/** How long (ns) wipes kept the ensemble down within [from, to]. */
function wipeDowntime(driver) {
    const wipes = driver.flatMap((event) => (event.ev === 'fault' && event.kind === 'wipe-ensemble' ? [{ start: event.start, end: event.end }] : []));
    return (from, to) => wipes.reduce((sum, wipe) => sum + Math.max(0, Math.min(to, wipe.end) - Math.max(from, wipe.start)), 0);
}
/** Longest stretch inside [first start, until] covered by no interval. */
export function longestGap(intervals, until) {
    const sorted = [...intervals].sort((a, b) => a.start - b.start);
    if (sorted.length === 0)
        return 0;
    let covered = sorted[0].end;
    let longest = 0;
    for (const interval of sorted) {
        if (interval.start >= until)
            break;
        longest = Math.max(longest, interval.start - covered);
        covered = Math.max(covered, interval.end);
    }
    if (Number.isFinite(until))
        longest = Math.max(longest, until - covered);
    return Math.max(0, longest);
}
function countBy(keys) {
    const counts = {};
    for (const key of keys)
        counts[key] = (counts[key] ?? 0) + 1;
    return counts;
}
//# sourceMappingURL=checker.js.map