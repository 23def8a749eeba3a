const TOO_LARGE = 'ZK_RECORD_TOO_LARGE';
const LOSS_STATES = new Set(['suspended', 'lost', 'expired']);
export function checkOversize(run, input, violations, figures, at) {
    const windowNs = input.sessionTimeoutMs * 1e6;
    const faults = input.driver.flatMap((event) => (event.ev === 'fault' && event.kind !== 'oversize-checkpoint' ? [event] : []));
    for (const events of run.byIncarnation.values()) {
        events.forEach((attempt, index) => {
            if (attempt.ev !== 'oversize')
                return;
            figures.oversizeAttempts++;
            const who = `w${attempt.w}.${attempt.inc} token ${attempt.token}: the oversized checkpoint at ${at(attempt.t)}`;
            const later = events.slice(index + 1);
            const result = later.find((event) => event.ev === 'oversize-result' && event.token === attempt.token);
            if (result?.ev !== 'oversize-result')
                return void violations.oversize.push(`${who} never settled`);
            if (result.accepted)
                return void violations.oversize.push(`${who} was accepted (no size bound)`);
            if (result.code !== TOO_LARGE)
                return void violations.oversize.push(`${who} failed with ${result.error ?? '?'} (code ${result.code ?? 'none'}), not ${TOO_LARGE}`);
            figures.oversizeRefused++;
            const end = attempt.t + windowNs;
            const explained = faults.some((fault) => (fault.w === undefined || (fault.w === attempt.w && fault.inc === attempt.inc)) && fault.start < end && fault.end + windowNs > attempt.t);
            if (explained)
                return;
            const sessionBefore = lastSessionId(events.slice(0, index));
            const loss = later.find((event) => event.t <= end &&
                ((event.ev === 'session' && (LOSS_STATES.has(event.state) || (event.sessionId !== undefined && sessionBefore !== undefined && event.sessionId !== sessionBefore))) ||
                    (event.ev === 'lost' && event.token === attempt.token)));
            if (loss)
                violations.oversize.push(`${who} was refused, but then ${describeLoss(loss)} at ${at(loss.t)}`);
        });
    }
}
function lastSessionId(events) {
    for (let i = events.length - 1; i >= 0; i--) {
        const event = events[i];
        if ((event.ev === 'session' || event.ev === 'ready') && event.sessionId)
            return event.sessionId;
    }
    return undefined;
}
function describeLoss(event) {
    if (event.ev === 'lost')
        return `its lease was lost (${event.reason})`;
    if (event.ev === 'session')
        return `its session went ${event.state}${event.sessionId ? ` (0x${event.sessionId})` : ''}`;
    return event.ev;
}
/** Distinct sessions created by server 255: their ids start with `ff` (the server id is the top byte). */
export function sessionsOfServer255(workers) {
    const ids = new Set();
    for (const event of workers) {
        if ((event.ev === 'session' || event.ev === 'ready') && event.sessionId && /^(0x)?ff/i.test(event.sessionId.padStart(16, '0')))
            ids.add(event.sessionId);
    }
    return ids.size;
}
//# sourceMappingURL=trust-rules.js.map