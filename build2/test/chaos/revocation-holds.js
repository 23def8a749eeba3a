/**
 * Cooperative revocation in the event logs (chaos-worker.ts): the release and step-down requests
 * the workers sent, every lock tenure of every workload (one per `acquired` line: the counter's
 * sections and sets, the locks only sets take, read/write locks, semaphores) with what its holder
 * did about release requests, the step-downs the leaders reported, and each incarnation's
 * session lines.
 *
 * A tenure's times are its process's own lines: its want (the section's `want`, the call's `call`),
 * its grant, its body (`enter`..`exit` for a section of its token, `body`..`body-end` of its call),
 * its `lost` and `released` lines, and the end of its call (`done`, `call-done`). A tenure reads
 * `releaseRequested` when a `release-watch` line names its lock and token (and call), and saw a
 * request when a `release-seen` line does.
 */
import { COUNTER_KEY } from './chaos-names.js';
import { incKey } from './holds.js';
/** No reply came, or an error: a mark may have landed on whichever node headed the queue then, or none. */
export const replyUnknown = (request) => request.requested === undefined;
export function reconstructRevocation(run) {
    const requests = [];
    const tenures = [];
    const stepDowns = [];
    const sessions = new Map();
    for (const [key, events] of run.byIncarnation) {
        const death = run.deaths.get(key);
        const endOfLife = death ? death.at : (events.at(-1)?.t ?? 0);
        const lines = [];
        sessions.set(key, lines);
        const byReq = new Map();
        const callWant = new Map();
        let sectionWant;
        /** The `@WithLock` section's tenure whose call has not ended. */
        let section;
        /** The tenures of each workload call. */
        const ofCall = new Map();
        /** The latest tenure of `lock` with `token` (and `call`) in this incarnation. */
        const find = (event) => {
            const lock = event.lock ?? COUNTER_KEY;
            for (let i = tenures.length - 1; i >= 0; i--) {
                const tenure = tenures[i];
                if (incKey(tenure.w, tenure.inc) !== key)
                    continue;
                if (tenure.lock === lock && tenure.token === event.token && tenure.call === event.call)
                    return tenure;
            }
            return undefined;
        };
        for (const event of events) {
            switch (event.ev) {
                case 'ready':
                    lines.push({ at: event.t, state: 'ready', sessionId: event.sessionId });
                    break;
                case 'session':
                    lines.push({ at: event.t, state: event.state, sessionId: event.sessionId });
                    break;
                case 'want':
                    sectionWant = event.t;
                    section = undefined;
                    break;
                case 'call':
                    callWant.set(event.call, event.t);
                    break;
                case 'acquired': {
                    const tenure = {
                        w: event.w,
                        inc: event.inc,
                        lock: event.lock ?? COUNTER_KEY,
                        token: event.token,
                        ...(event.call !== undefined && { call: event.call }),
                        wantAt: (event.call !== undefined ? callWant.get(event.call) : sectionWant) ?? event.t,
                        acquiredAt: event.t,
                    };
                    tenures.push(tenure);
                    if (event.call === undefined)
                        section = tenure;
                    else
                        ofCall.set(event.call, [...(ofCall.get(event.call) ?? []), tenure]);
                    break;
                }
                case 'lost': {
                    const tenure = find(event);
                    if (tenure && tenure.lostAt === undefined) {
                        tenure.lostAt = event.t;
                        tenure.lostReason = event.reason;
                    }
                    break;
                }
                case 'released': {
                    const tenure = find(event);
                    if (tenure && tenure.releasedAt === undefined)
                        tenure.releasedAt = event.t;
                    break;
                }
                case 'enter':
                    if (section?.token !== event.token)
                        break;
                    section.bodyStartAt ??= event.t;
                    section.node ??= event.node;
                    break;
                case 'exit':
                    if (section?.token === event.token)
                        section.bodyEndAt ??= event.t;
                    break;
                case 'done':
                    if (section && section.doneAt === undefined)
                        section.doneAt = event.t;
                    section = undefined;
                    break;
                case 'body':
                    for (const tenure of ofCall.get(event.call) ?? []) {
                        tenure.bodyStartAt ??= event.t;
                        tenure.node ??= event.nodes?.[tenure.lock];
                    }
                    break;
                case 'body-end':
                    for (const tenure of ofCall.get(event.call) ?? [])
                        tenure.bodyEndAt ??= event.t;
                    break;
                case 'call-done':
                    for (const tenure of ofCall.get(event.call) ?? [])
                        tenure.doneAt ??= event.t;
                    break;
                case 'release-watch': {
                    const tenure = find(event);
                    if (!tenure)
                        break;
                    tenure.watch ??= { at: event.t, node: event.node, sessionId: event.sessionId };
                    tenure.node ??= event.node;
                    break;
                }
                case 'release-seen': {
                    const tenure = find(event);
                    // A line naming no tenure is kept as one of its own, so that the rule still sees it.
                    const target = tenure ?? pushOrphanSeen(tenures, event);
                    target.seen ??= { at: event.t, node: event.node, sessionId: event.sessionId, error: event.error };
                    break;
                }
                case 'early-end': {
                    const tenure = event.token !== undefined ? (section?.token === event.token ? section : undefined) : ofCall.get(event.call)?.find((t) => t.lock === COUNTER_KEY);
                    if (tenure)
                        tenure.earlyEnd ??= event.step;
                    break;
                }
                case 'step-down':
                    stepDowns.push({ w: event.w, inc: event.inc, at: event.t, token: event.token, ...(event.sessionId !== undefined && { sessionId: event.sessionId }) });
                    break;
                case 'request': {
                    const request = {
                        w: event.w,
                        inc: event.inc,
                        req: event.req,
                        what: event.what,
                        target: event.target,
                        start: event.t,
                        end: endOfLife,
                    };
                    byReq.set(event.req, request);
                    requests.push(request);
                    break;
                }
                case 'request-done': {
                    const request = byReq.get(event.req);
                    if (!request)
                        break;
                    request.end = event.t;
                    if (event.error !== undefined)
                        request.error = event.error;
                    else {
                        request.requested = event.requested;
                        if (event.node !== undefined)
                            request.node = event.node;
                        if (event.identity !== undefined)
                            request.identity = event.identity;
                        if (event.sessionId !== undefined)
                            request.sessionId = event.sessionId;
                        if (event.repeated !== undefined)
                            request.repeated = event.repeated;
                        if (event.reason !== undefined)
                            request.reason = event.reason;
                    }
                    break;
                }
            }
        }
    }
    tenures.sort((a, b) => a.acquiredAt - b.acquiredAt);
    requests.sort((a, b) => a.start - b.start);
    stepDowns.sort((a, b) => a.at - b.at);
    return { requests, tenures, stepDowns, sessions };
}
/** A `release-seen` line of no known tenure (no grant logged): a tenure of its own, granted then. */
function pushOrphanSeen(tenures, event) {
    const tenure = { w: event.w, inc: event.inc, lock: event.lock, token: event.token, ...(event.call !== undefined && { call: event.call }), wantAt: event.t, acquiredAt: event.t };
    tenures.push(tenure);
    return tenure;
}
//# sourceMappingURL=revocation-holds.js.map