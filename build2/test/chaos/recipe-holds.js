export function reconstructRecipes(run) {
    const calls = [];
    const holds = [];
    const eraAt = (t) => run.eraStarts.filter((start) => start <= t).length;
    for (const [key, events] of run.byIncarnation) {
        const death = run.deaths.get(key);
        const endOfLife = death ? death.at : (events.at(-1)?.t ?? 0);
        const byId = new Map();
        /** Holds of each call, by lock. */
        const held = new Map();
        const lastActivity = new Map();
        const close = (hold, end, kind) => {
            if (!hold || hold.endKind !== 'open')
                return;
            hold.end = Math.max(hold.acquiredAt, end);
            hold.endKind = kind;
        };
        // Events are sorted by time (reconstruct sorts each incarnation's list in place).
        for (const event of events) {
            switch (event.ev) {
                case 'call': {
                    const call = { w: event.w, inc: event.inc, call: event.call, what: event.what, locks: event.locks, take: event.take ?? 1, permits: event.permits, wantAt: event.t, ran: false };
                    byId.set(event.call, call);
                    calls.push(call);
                    break;
                }
                case 'acquired': {
                    const call = event.call === undefined ? undefined : byId.get(event.call);
                    if (!call || event.lock === undefined)
                        break;
                    const hold = {
                        w: event.w,
                        inc: event.inc,
                        call: call.call,
                        what: call.what,
                        lock: event.lock,
                        token: event.token,
                        era: eraAt(event.t),
                        wantAt: call.wantAt,
                        acquiredAt: event.t,
                        take: call.what === 'semaphore' ? call.take : 1,
                        permits: call.permits,
                        end: endOfLife,
                        endKind: 'open',
                        completed: false,
                    };
                    const ofCall = held.get(call.call) ?? new Map();
                    close(ofCall.get(event.lock), lastActivity.get(call.call) ?? event.t, 'released'); // granted twice in one call: should not happen
                    ofCall.set(event.lock, hold);
                    held.set(call.call, ofCall);
                    holds.push(hold);
                    break;
                }
                case 'lost': {
                    const hold = event.call === undefined || event.lock === undefined ? undefined : held.get(event.call)?.get(event.lock);
                    if (hold?.token === event.token)
                        close(hold, event.t, 'lost');
                    break;
                }
                case 'released': {
                    const hold = event.call === undefined || event.lock === undefined ? undefined : held.get(event.call)?.get(event.lock);
                    if (hold?.token === event.token)
                        close(hold, lastActivity.get(hold.call) ?? hold.acquiredAt, 'released');
                    break;
                }
                case 'body':
                case 'body-work':
                case 'body-end':
                    if (event.ev === 'body') {
                        const call = byId.get(event.call);
                        if (call)
                            call.ran = true;
                    }
                    lastActivity.set(event.call, event.t);
                    break;
                case 'call-done': {
                    const call = byId.get(event.call);
                    if (!call)
                        break;
                    call.doneAt = event.t;
                    call.ok = event.ok;
                    call.ran ||= event.ran;
                    if (!event.ok)
                        call.error = event.error ?? 'Error';
                    for (const hold of held.get(event.call)?.values() ?? []) {
                        if (event.ok)
                            hold.completed = true;
                        else
                            hold.error = call.error;
                    }
                    break;
                }
            }
        }
        // Whatever was open when the process died lasted until its death (its session outlived it).
        for (const ofCall of held.values()) {
            for (const hold of ofCall.values()) {
                if (hold.endKind !== 'open')
                    continue;
                hold.end = endOfLife;
                hold.endKind = death?.killed ? 'killed' : 'open';
            }
        }
    }
    holds.sort((a, b) => a.acquiredAt - b.acquiredAt);
    return { calls, holds };
}
//# sourceMappingURL=recipe-holds.js.map