/**
 * The invariants of the lock-set, read/write and semaphore workloads (recipe-holds.ts), each a
 * violation kind of checker.ts:
 *
 * - `set-overlap` (invariant 1 for `withLocks`): every lock of a set is exclusive against every other
 *   holder of that lock, a set's or a single call's. The counter lock, which sets share with the
 *   `@WithLock` sections, is checked with the sections' holds by checker.ts (`checkHolds`, which
 *   reports an overlap with a set here); the locks only sets take are checked here, and their
 *   tokens must rise in grant order (`token-order`), as every lock's.
 * - `rw-exclusion`: no writer's hold overlaps any other hold (read or write) of its read/write lock.
 *   Readers do share: the most readers holding at once is a figure, to show that they did.
 * - `rw-token-order`: a writer's token exceeds that of every hold of its read/write lock granted
 *   before it, and is below that of every hold granted after it (within one era). Readers are not
 *   ordered among themselves (concurrent readers may share a token).
 * - `permits-exceeded`: at no grant do the permits held at once (each hold its `take`) exceed the
 *   semaphore's capacity. The most held at once is a figure.
 * - `stuck`: a call of these workloads that took longer than the bound (not counting the time a
 *   wipe kept the ensemble down, nor a call of a frozen process).
 *
 * The excuse is the one of every rule here: a frozen process (SIGSTOP, or its event loop blocked)
 * cannot report a loss, so an overlap is excused when the older holder (by token; for a semaphore,
 * any holder) was frozen between its want and the other's grant; and then its call must not have
 * returned normally (`stale-success`).
 */
import { COUNTER_KEY } from './chaos-names.js';
import { compareEraTokens, stoppedDuring } from './holds.js';
const name = (hold, at) => `w${hold.w}.${hold.inc} ${hold.what}${hold.what === 'semaphore' ? ` take ${hold.take}` : ''} token ${hold.token} [${at(hold.acquiredAt)}..${at(hold.end)} ${hold.endKind}]`;
/** Calls `onGrant` for each hold in grant order with the holds granted before it and still held then. */
function sweep(holds, onGrant) {
    let open = [];
    for (const hold of holds) {
        open = open.filter((earlier) => earlier.end > hold.acquiredAt);
        onGrant(hold, open);
        open.push(hold);
    }
}
function byLock(holds, keep) {
    const locks = new Map();
    for (const hold of holds) {
        if (!keep(hold))
            continue;
        const list = locks.get(hold.lock) ?? [];
        list.push(hold); // holds come sorted by grant
        locks.set(hold.lock, list);
    }
    return locks;
}
export function checkRecipes(run, recipes, violations, figures, at) {
    /** Whether the older (stale) of two overlapping holds was frozen, so that the overlap is excused; reports it if its call then returned normally. */
    const excused = new Set();
    const excuse = (stale, newer, what) => {
        if (!stoppedDuring(run.stops, stale.w, stale.inc, stale.wantAt, newer.acquiredAt))
            return false;
        excused.add(stale);
        if (stale.completed)
            violations['stale-success'].push(`${what}: the stopped holder's call returned normally`);
        return true;
    };
    const olderFirst = (a, b) => (compareEraTokens(a, b) <= 0 ? [a, b] : [b, a]);
    // Lock sets: the locks only sets take (the counter's holds are checked with the sections').
    for (const [lock, holds] of byLock(recipes.holds, (hold) => hold.what === 'set' && hold.lock !== COUNTER_KEY)) {
        let previous;
        sweep(holds, (hold, open) => {
            if (previous && previous.era === hold.era && compareEraTokens(hold, previous) <= 0) {
                const [stale, newer] = olderFirst(hold, previous);
                if (!stoppedDuring(run.stops, stale.w, stale.inc, stale.wantAt, newer.acquiredAt)) {
                    violations['token-order'].push(`${lock}: ${name(hold, at)} granted after ${name(previous, at)}`);
                }
            }
            previous = hold;
            for (const earlier of open) {
                const what = `${lock}: ${name(earlier, at)} and ${name(hold, at)}`;
                const [stale, newer] = olderFirst(earlier, hold);
                if (stale.token === newer.token || !excuse(stale, newer, what))
                    violations['set-overlap'].push(what);
            }
        });
    }
    // Read/write locks: a writer alone; the readers at once; the writers' tokens.
    for (const [lock, holds] of byLock(recipes.holds, (hold) => hold.what === 'read' || hold.what === 'write')) {
        sweep(holds, (hold, open) => {
            if (hold.what === 'read')
                figures.maxConcurrentReaders = Math.max(figures.maxConcurrentReaders, 1 + open.filter((earlier) => earlier.what === 'read').length);
            for (const earlier of open) {
                if (earlier.what === 'read' && hold.what === 'read')
                    continue;
                const what = `${lock}: ${name(earlier, at)} and ${name(hold, at)}`;
                const [stale, newer] = olderFirst(earlier, hold);
                if (stale.token === newer.token || !excuse(stale, newer, what))
                    violations['rw-exclusion'].push(what);
            }
        });
        checkWriterTokens(lock, holds, run, violations, at);
    }
    // Semaphores: the permits held at each grant.
    for (const [lock, holds] of byLock(recipes.holds, (hold) => hold.what === 'semaphore')) {
        sweep(holds, (hold, open) => {
            const permits = hold.permits ?? Infinity;
            const all = [...open, hold];
            // A frozen holder may have lost its permits (its session expired) without being able to say so.
            const frozen = all.filter((h) => stoppedDuring(run.stops, h.w, h.inc, h.wantAt, hold.acquiredAt));
            const counted = all.filter((h) => !frozen.includes(h));
            const taken = counted.reduce((sum, h) => sum + h.take, 0);
            const total = all.reduce((sum, h) => sum + h.take, 0);
            figures.maxPermitsHeld = Math.max(figures.maxPermitsHeld, taken);
            if (total <= permits)
                return;
            const what = `${lock}: ${total} of its ${permits} permits held at ${at(hold.acquiredAt)} by ${all.map((h) => name(h, at)).join(', ')}`;
            if (taken > permits)
                violations['permits-exceeded'].push(what);
            else
                for (const stale of frozen)
                    excuse(stale, hold, what);
        });
    }
    figures.excusedRecipeOverlaps = excused.size;
}
/**
 * A writer's token is above that of every hold granted before it and below that of every hold
 * granted after it, within an era; a pair out of order is excused when its stale one (the lower
 * token) was frozen between its want and the other's grant.
 */
function checkWriterTokens(lock, holds, run, violations, at) {
    const eras = new Map();
    for (const hold of holds)
        eras.set(hold.era, [...(eras.get(hold.era) ?? []), hold]);
    for (const list of eras.values()) {
        const tokens = list.map((hold) => BigInt(hold.token));
        const prefixMax = [];
        const suffixMin = [];
        tokens.forEach((token, i) => (prefixMax[i] = i === 0 ? token : token > prefixMax[i - 1] ? token : prefixMax[i - 1]));
        for (let i = tokens.length - 1; i >= 0; i--)
            suffixMin[i] = i === tokens.length - 1 ? tokens[i] : tokens[i] < suffixMin[i + 1] ? tokens[i] : suffixMin[i + 1];
        const reported = new Set();
        const report = (earlier, later) => {
            const pair = `${earlier}:${later}`;
            if (reported.has(pair))
                return;
            reported.add(pair);
            const [first, second] = [list[earlier], list[later]];
            // The stale one is the lower token (the later grant, unless they are equal).
            const [stale, newer] = tokens[later] < tokens[earlier] ? [second, first] : [first, second];
            if (stoppedDuring(run.stops, stale.w, stale.inc, stale.wantAt, newer.acquiredAt))
                return;
            violations['rw-token-order'].push(`${lock}: ${name(second, at)} granted after ${name(first, at)}`);
        };
        list.forEach((hold, i) => {
            if (hold.what !== 'write')
                return;
            if (i > 0 && prefixMax[i - 1] >= tokens[i])
                for (let j = 0; j < i; j++)
                    if (tokens[j] >= tokens[i])
                        report(j, i);
            if (i < list.length - 1 && suffixMin[i + 1] <= tokens[i])
                for (let j = i + 1; j < list.length; j++)
                    if (tokens[j] <= tokens[i])
                        report(i, j);
        });
    }
}
/**
 * Every call of these workloads ends within the bound (`downWithin`: how long a wipe kept the
 * ensemble down in a window), unless its process was killed while it ran or was frozen meanwhile.
 * Also the figures of the calls.
 */
export function checkRecipeCalls(run, recipes, input, downWithin, violations, figures, at) {
    const bound = input.stuckBoundMs * 1e6;
    for (const call of recipes.calls) {
        const key = `${call.w}.${call.inc}`;
        const death = run.deaths.get(key);
        const until = call.doneAt ?? death?.at ?? run.byIncarnation.get(key)?.at(-1)?.t ?? call.wantAt;
        if (call.doneAt === undefined && death?.killed)
            continue;
        if (until - call.wantAt - downWithin(call.wantAt, until) > bound && !stoppedDuring(run.stops, call.w, call.inc, call.wantAt, until)) {
            violations.stuck.push(`w${call.w}.${call.inc} ${call.what} call ${call.call} on ${call.locks.join(', ')} took ${Math.round((until - call.wantAt) / 1e6)}ms from ${at(call.wantAt)}${call.doneAt === undefined ? ' (never ended)' : ''}`);
        }
        const failed = call.ok === false ? call.error : undefined;
        if (failed !== undefined)
            figures.recipeCallsFailed[`${call.what}:${failed}`] = (figures.recipeCallsFailed[`${call.what}:${failed}`] ?? 0) + 1;
        if (call.ok && !call.ran)
            figures.busyTries++;
        if (call.what === 'set') {
            figures.setCalls++;
            if (call.ok && call.ran)
                figures.setsCompleted++;
        }
    }
    for (const hold of recipes.holds) {
        if (hold.endKind === 'lost' || hold.endKind === 'killed')
            figures.recipeHoldsLost[`${hold.what} ${hold.endKind}`] = (figures.recipeHoldsLost[`${hold.what} ${hold.endKind}`] ?? 0) + 1;
        if (hold.what === 'set')
            figures.setHolds++;
        else if (hold.what === 'read')
            figures.readHolds++;
        else if (hold.what === 'write')
            figures.writeHolds++;
        else {
            figures.semaphoreHolds++;
            figures.semaphoreCapacity = Math.max(figures.semaphoreCapacity, hold.permits ?? 0);
            if (hold.take > 1)
                figures.semaphoreMultiPermitHolds++;
        }
    }
}
//# sourceMappingURL=recipe-rules.js.map