/**
 * The downstream storage of the chaos run, owned by the driver process: one counter, persisted to a
 * file in the run dir, that workers read and write over IPC, fenced the way README "Locks" tells
 * users to fence: it remembers the newest token it has seen and refuses any operation carrying an
 * older one. This is how invariant 1 ("at most one holder, as seen by anything that checks the
 * fencing token") is observed: a holder that resumes after a SIGSTOP, or that kept working while
 * cut off, is refused here once its successor has been seen. A write is a compare-and-set, so an
 * update that would overwrite someone else's is refused too (and is a violation: with working
 * fencing it cannot happen).
 *
 * Leader heartbeats are fenced the same way, separately, with the election's tokens.
 *
 * Eras: a ZooKeeper ensemble restarted with wiped data starts its zxids (so the tokens) again from
 * small values. That is a documented limitation: whoever wipes the ensemble must tell the store a new
 * era began (`newEra()`), which forgets the newest tokens; fencing then holds within each era. The
 * wipe fault calls it after every lease has had to count as lost, right before the restart. Every
 * log line carries the era, and the checker compares tokens only within one.
 */
import fs from 'node:fs';
export class FencedStore {
    constructor(counterFile, log) {
        this.counterFile = counterFile;
        this.log = log;
        this.value = 0;
        this.newestLockToken = -1n;
        this.newestLeaderToken = -1n;
        this.currentEra = 0;
        fs.writeFileSync(counterFile, '0');
    }
    get counter() {
        return this.value;
    }
    get era() {
        return this.currentEra;
    }
    /** The ensemble's data was wiped: tokens start again; returns the new era. */
    newEra() {
        this.newestLockToken = -1n;
        this.newestLeaderToken = -1n;
        return ++this.currentEra;
    }
    /** Processes one request of worker `w` (incarnation `inc`); logs it, accepted or not. */
    handle(w, inc, request) {
        const token = BigInt(request.token);
        const op = { w, inc, op: request.op, token: request.token, accepted: false, era: this.currentEra };
        const reply = { type: 'store-reply', id: request.id, accepted: false };
        if (request.op === 'beat') {
            if (token < this.newestLeaderToken)
                return this.done(op, reply, 'stale');
            this.newestLeaderToken = token;
            return this.done(op, reply);
        }
        if (request.op === 'write')
            Object.assign(op, { expect: request.expect, value: request.value, kind: request.kind, interrupted: request.interrupted });
        // Fencing first: an older token is refused whatever it asks for.
        if (token < this.newestLockToken)
            return this.done(op, reply, 'stale');
        this.newestLockToken = token;
        if (request.op === 'read') {
            reply.value = this.value;
            return this.done(op, reply);
        }
        if (this.value !== request.expect) {
            reply.value = this.value;
            return this.done(op, reply, 'cas');
        }
        this.value = request.value;
        // Persisted before the reply: what a worker was told is written is written.
        fs.writeFileSync(this.counterFile, String(this.value));
        reply.value = this.value;
        return this.done(op, reply);
    }
    done(op, reply, reason) {
        const accepted = reason === undefined;
        this.log.write({ ...op, accepted, ...(reason && { reason }) });
        reply.accepted = accepted;
        if (reason)
            reply.reason = reason;
        return reply;
    }
}
//# sourceMappingURL=fenced-store.js.map