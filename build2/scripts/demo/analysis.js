const endOf = (record, replica) => record.replicas.find((r) => r.name === replica)?.killedAt ?? record.end;
/** From each `leader: true` to the next `false`, the replica's SIGKILL, or the end. */
export function leadership(record) {
    const result = [];
    const open = new Map();
    for (const event of record.events) {
        if (event.ev !== 'leader')
            continue;
        const started = open.get(event.replica);
        if (event.value === true && !started)
            open.set(event.replica, event);
        if (event.value === false && started) {
            result.push({ replica: event.replica, start: started.t, end: event.t, token: String(started.token) });
            open.delete(event.replica);
        }
    }
    for (const [replica, started] of open)
        result.push({ replica, start: started.t, end: endOf(record, replica), token: String(started.token) });
    return result.sort((a, b) => a.start - b.start);
}
/** One hold per `batch-started`: from it (or the repair just before it) to `batch-finished`, the last sign of life, or a SIGKILL. */
export function batchHolds(record) {
    const holds = [];
    const repairs = new Map(); // a repair runs under the lock right before its holder's batch
    for (const started of record.events) {
        if (started.ev === 'batch-recovered')
            repairs.set(started.replica, started);
        if (started.ev !== 'batch-started')
            continue;
        const repair = repairs.get(started.replica);
        repairs.delete(started.replica);
        const mine = (event) => event.replica === started.replica && event.token === started.token;
        const checkpoints = record.events.filter((e) => e.ev === 'batch-checkpoint' && mine(e));
        const finished = record.events.find((e) => e.ev === 'batch-finished' && mine(e));
        const killedAt = record.replicas.find((r) => r.name === started.replica)?.killedAt;
        const crashed = !finished && killedAt !== undefined && killedAt >= started.t;
        holds.push({
            replica: started.replica,
            start: repair?.t ?? started.t,
            end: finished?.t ?? (crashed ? killedAt : (checkpoints.at(-1)?.t ?? started.t)),
            token: String(started.token),
            batch: String(started.batch),
            from: Number(started.from),
            settled: Number(checkpoints.at(-1)?.settled ?? started.from),
            total: Number(started.total),
            finished: finished !== undefined,
            crashed,
        });
    }
    return holds;
}
export function accountHolds(record) {
    return record.events
        .filter((event) => event.ev === 'transfer')
        .map((e) => ({ replica: e.replica, start: Number(e.start), end: Number(e.end), token: String(e.token), account: String(e.account) }))
        .sort((a, b) => a.start - b.start);
}
export function recoveries(record, ev) {
    return record.events
        .filter((event) => event.ev === ev)
        .map((e) => ({
        t: e.t,
        replica: e.replica,
        holder: String(e.holder),
        token: String(e.token),
        batch: (e.batch ?? e.running),
        settled: e.settled,
    }));
}
/** The largest number of intervals open at one instant (touching ends do not overlap). */
export function maxConcurrent(holds) {
    const edges = holds.flatMap((h) => [{ t: h.start, d: 1 }, { t: h.end, d: -1 }]).sort((a, b) => a.t - b.t || a.d - b.d);
    let open = 0;
    let max = 0;
    for (const edge of edges)
        max = Math.max(max, (open += edge.d));
    return max;
}
/** Tokens strictly increase in the order the holds started. */
export function increasing(holds) {
    const tokens = [...holds].sort((a, b) => a.start - b.start).map((h) => BigInt(h.token));
    return tokens.every((token, i) => i === 0 || token > tokens[i - 1]);
}
export function groupBy(items, key) {
    const groups = new Map();
    for (const item of items)
        groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
    return groups;
}
//# sourceMappingURL=analysis.js.map