/**
 * The rules of cooperative revocation (revocation-holds.ts), each a violation kind of checker.ts.
 * A request only marks the holder's queue node: the holder decides, nothing is released for it.
 *
 * - `released-on-behalf`: a holder lost its lock while its call still ran, although its session
 *   was fine (no session line but `connected` to the session it had at its want, from its want to
 *   a moment after the loss) and no fault of the driver touched its process (a cut, stop, block or
 *   kill overlapping that time, from a session timeout before its want); or its `released` line
 *   came while its body still ran, without a loss before. Either way something but the holder
 *   ended its tenure. It concerns every tenure, whether its holder read `releaseRequested` or not:
 *   a holder that reads it ends its call itself; one that does not simply keeps the lock. A loss
 *   within a session timeout after an oversized checkpoint of its process is the `oversize` rule's
 *   (trust-rules.ts), and a process that logged no session before the want is not judged (real
 *   workers log theirs, `ready`, before any call).
 * - `spurious-release-request`: a holder's `releaseRequested` aborted (`release-seen`), or a leader
 *   stepped down (`step-down`), without a request that targeted it. A release request targets a
 *   holder when its reply names the holder's queue node and session and it was sent before the
 *   abort; a step-down request, when its reply names the leader's session and it was sent before
 *   the step-down, and its node is not one that an earlier step-down of that session already
 *   answered (every participation has its own node, so a step-down answers the requests of one).
 *   A request whose reply never came or that threw may have marked whichever node headed the
 *   queue, or none: it answers at most one abort or step-down of its target after it was sent
 *   (for a lock, of a holder that wanted it before the request ended).
 *
 * The figures: the requests by outcome; the tenures that read `releaseRequested`, were asked
 * (a reply named their node), asked but never looked, saw a request; the early ends by step; the
 * step-downs, those that handed leadership to another process, and the longest such hand-over.
 */
import { ELECTION_KEY } from './chaos-names.js';
import { incKey, stoppedDuring } from './holds.js';
import { replyUnknown } from './revocation-holds.js';
/** A session line this long after a loss still explains it (the lease's loss and the session's line are logged in one step, in either order). */
const SESSION_SLACK_NS = 250e6;
const tenureName = (tenure, at) => `w${tenure.w}.${tenure.inc} ${tenure.lock} token ${tenure.token} (${tenure.call === undefined ? 'section' : `call ${tenure.call}`}, ${tenure.watch ? 'read' : 'did not read'} releaseRequested; granted at ${at(tenure.acquiredAt)})`;
const requestName = (request, at) => `w${request.w}.${request.inc} request ${request.req} at ${at(request.start)}`;
export function checkRevocation(run, rev, input, violations, figures, at) {
    checkReleasedOnBehalf(run, rev, input, violations, at);
    checkSpurious(rev, violations, at);
    countRevocation(run, rev, figures);
}
function checkReleasedOnBehalf(run, rev, input, violations, at) {
    const timeout = input.sessionTimeoutMs * 1e6;
    /** The session the process had at `from`: its last `ready` or `connected` line before. */
    const sessionAt = (w, inc, from) => (rev.sessions.get(incKey(w, inc)) ?? []).filter((line) => line.at < from && line.sessionId !== undefined && (line.state === 'ready' || line.state === 'connected')).at(-1)?.sessionId;
    /** Whether a session line in [from, to] says anything but `connected` to session `had`. */
    const sessionTrouble = (w, inc, had, from, to) => (rev.sessions.get(incKey(w, inc)) ?? []).some((line) => line.at >= from && line.at <= to && !(line.state === 'connected' && line.sessionId === had));
    /** A fault of the driver on this process overlapping [from, to] (an oversized checkpoint's aftermath is for the `oversize` rule). */
    const faulted = (w, inc, from, to) => stoppedDuring(run.stops, w, inc, from, to) ||
        input.driver.some((event) => event.ev === 'fault' && event.w === w && event.inc === inc && event.start < to && event.end > from) ||
        (run.byIncarnation.get(incKey(w, inc)) ?? []).some((event) => event.ev === 'oversize' && event.t < to && event.t + timeout > from);
    for (const tenure of rev.tenures) {
        const { w, inc } = tenure;
        const stillRunning = (t) => t < (tenure.doneAt ?? Infinity);
        const had = sessionAt(w, inc, tenure.wantAt);
        if (tenure.lostAt !== undefined && stillRunning(tenure.lostAt) && had !== undefined) {
            const to = tenure.lostAt + SESSION_SLACK_NS;
            if (!sessionTrouble(w, inc, had, tenure.wantAt, to) && !faulted(w, inc, tenure.wantAt - timeout, to)) {
                violations['released-on-behalf'].push(`${tenureName(tenure, at)} lost at ${at(tenure.lostAt)} (${tenure.lostReason ?? '?'}) while its call still ran, its session fine and no fault on its process`);
            }
        }
        const bodyRan = tenure.bodyStartAt !== undefined && tenure.releasedAt !== undefined && tenure.releasedAt >= tenure.bodyStartAt;
        if (bodyRan && tenure.releasedAt < (tenure.bodyEndAt ?? Infinity) && (tenure.lostAt === undefined || tenure.lostAt > tenure.releasedAt)) {
            violations['released-on-behalf'].push(`${tenureName(tenure, at)} released at ${at(tenure.releasedAt)} while its body still ran (${tenure.bodyEndAt === undefined ? 'it never ended' : `until ${at(tenure.bodyEndAt)}`})`);
        }
    }
}
function checkSpurious(rev, violations, at) {
    /** Requests without a known target, each answering at most one observation. */
    const used = new Set();
    const unknownFor = (target, seenAt, wantedBefore) => rev.requests.find((request) => replyUnknown(request) && !used.has(request) && request.target === target && request.start < seenAt && wantedBefore < request.end);
    const observations = [
        ...rev.tenures.flatMap((tenure) => (tenure.seen ? [{ at: tenure.seen.at, tenure }] : [])),
        ...rev.stepDowns.map((stepDown) => ({ at: stepDown.at, stepDown })),
    ].sort((a, b) => a.at - b.at);
    /** Election nodes whose step-down already happened, per session. */
    const answered = new Set();
    for (const observation of observations) {
        if ('tenure' in observation) {
            const { tenure } = observation;
            const seen = tenure.seen;
            const targeted = rev.requests.some((request) => request.requested === true && request.target === tenure.lock && request.node === seen.node && request.sessionId === seen.sessionId && request.start < seen.at);
            if (targeted)
                continue;
            const unknown = unknownFor(tenure.lock, seen.at, tenure.wantAt);
            if (unknown) {
                used.add(unknown);
                continue;
            }
            violations['spurious-release-request'].push(`${tenureName(tenure, at)}: releaseRequested aborted (${seen.error}) at ${at(seen.at)} on node ${seen.node}, which no request had marked`);
        }
        else {
            const { stepDown } = observation;
            const candidates = rev.requests.filter((request) => request.requested === true && request.target === ELECTION_KEY && request.sessionId !== undefined && request.sessionId === stepDown.sessionId && request.start < stepDown.at && !answered.has(request.node ?? ''));
            const request = candidates.at(-1);
            if (request) {
                answered.add(request.node ?? '');
                continue;
            }
            const unknown = unknownFor(ELECTION_KEY, stepDown.at, -Infinity);
            if (unknown) {
                used.add(unknown);
                continue;
            }
            violations['spurious-release-request'].push(`w${stepDown.w}.${stepDown.inc} stepped down at ${at(stepDown.at)} (token ${stepDown.token}, session ${stepDown.sessionId ?? '?'}), asked by no request${describeNearest(rev, stepDown.at, at)}`);
        }
    }
}
/** The last step-down request before `t`, for the report. */
function describeNearest(rev, t, at) {
    const last = rev.requests.filter((request) => request.target === ELECTION_KEY && request.start < t).at(-1);
    return last ? `; the last step-down request before it: ${requestName(last, at)}, ${last.requested ? `node ${last.node} session ${last.sessionId}` : (last.reason ?? last.error ?? 'no reply')}` : '';
}
function countRevocation(run, rev, figures) {
    for (const request of rev.requests) {
        const outcome = request.requested === true ? (request.repeated ? 'asked again' : 'asked') : request.requested === false ? (request.reason ?? 'nobody') : (request.error ?? 'no reply');
        const counts = request.what === 'release' ? figures.releaseRequests : figures.stepDownRequests;
        counts[outcome] = (counts[outcome] ?? 0) + 1;
    }
    const marked = new Set(rev.requests.flatMap((request) => (request.requested === true && request.target !== ELECTION_KEY ? [`${request.target} ${request.node}`] : [])));
    for (const tenure of rev.tenures) {
        if (tenure.watch)
            figures.holdersWatching++;
        if (tenure.seen)
            figures.holdersSawRequest++;
        if (tenure.earlyEnd)
            figures.earlyEnds[tenure.earlyEnd] = (figures.earlyEnds[tenure.earlyEnd] ?? 0) + 1;
        if (tenure.node === undefined || !marked.has(`${tenure.lock} ${tenure.node}`))
            continue;
        figures.holdersAsked++;
        if (!tenure.watch)
            figures.holdersAskedNotWatching++;
    }
    figures.stepDowns = rev.stepDowns.length;
    let longest = 0;
    for (const stepDown of rev.stepDowns) {
        const next = run.leaders.find((leader) => leader.start > stepDown.at);
        if (!next || (next.w === stepDown.w && next.inc === stepDown.inc))
            continue;
        figures.leaderChangesAfterRequest++;
        longest = Math.max(longest, next.start - stepDown.at);
    }
    figures.longestStepDownHandOverMs = Math.round(longest / 1e6);
}
//# sourceMappingURL=revocation-rules.js.map