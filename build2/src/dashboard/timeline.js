const token = (value) => (value === undefined ? '' : `token ${value.toString()}`);
const join = (...parts) => parts.filter((part) => part !== '').join(', ');
/** A duration for people: whole milliseconds (the events carry `performance.now()` differences). */
const ms = (value) => `${Math.round(value)} ms`;
const reasonOf = (reason) => (reason instanceof Error ? reason.message : String(reason));
/** A lock event names its lock, a leadership event its election. */
const nameOf = (event) => ('name' in event ? event.name : event.election);
/** The timeline's line for one of this process's events. */
export function timelineEntryOf(event) {
    const at = new Date().toISOString();
    switch (event.type) {
        case 'session.state':
            return { at, type: event.type, name: 'session', detail: join(`${event.previous} → ${event.state}`, event.sessionId ? `session 0x${event.sessionId}` : '') };
        case 'lock.acquired':
            return { at, type: event.type, name: event.name, detail: join(token(event.token), `waited ${ms(event.waitMs)}`) };
        case 'lock.released':
            return { at, type: event.type, name: event.name, detail: join(token(event.token), `held ${ms(event.holdMs)}`) };
        case 'lock.lost':
            return { at, type: event.type, name: event.name, detail: join(token(event.token), event.reason) };
        case 'lock.recovery':
        case 'leadership.recovery':
            return { at, type: event.type, name: nameOf(event), detail: join(token(event.token), `repairing ${event.interrupted.holder}'s section (token ${event.interrupted.token.toString()})`, 'outcome' in event ? event.outcome : '') };
        case 'lock.timeout':
            return { at, type: event.type, name: event.name, detail: `gave up after ${ms(event.waitMs)}` };
        case 'lock.aborted':
        case 'lock.failed':
            return { at, type: event.type, name: event.name, detail: reasonOf('reason' in event ? event.reason : event.error) };
        case 'lock.release-requested':
        case 'leadership.gained':
        case 'leadership.step-down':
            return { at, type: event.type, name: nameOf(event), detail: token(event.token) };
        case 'leadership.lost':
            return { at, type: event.type, name: event.election, detail: join(token(event.token), event.reason) };
        default:
            return { at, type: event.type, name: event.name, detail: '' };
    }
}
/** The timeline's line for a change of a lock's holder or an election's leader, seen by the dashboard's watches. */
export function successionEntry(kind, name, now) {
    const who = now ? (now.identity ?? now.node) : undefined;
    const detail = kind === 'lock' ? (who === undefined ? 'free' : `held by ${who}`) : who === undefined ? 'no leader' : `led by ${who}`;
    return { at: new Date().toISOString(), type: kind === 'lock' ? 'lock.holder' : 'election.leader', name, detail };
}
//# sourceMappingURL=timeline.js.map