/**
 * The election's ready record kept current while a successor waits right behind the leader (see
 * `Succession`): a watch on the ready znode (`ReadyState.readWatched`; it also fires on the
 * record's creation) re-reads it on every change. ZooKeeper delivers one session's notifications
 * and replies in order, so when the leader's node-deleted notification arrives, every write the
 * leader made before it has notified us already and its re-read has been sent: `current()` is then
 * as fresh as a read sent after the deletion. 1 request (2 while no record exists), again after
 * each change.
 */
export class ReadyStandby {
    constructor(ready, session) {
        this.ready = ready;
        this.session = session;
    }
    standby() {
        let standing = this.standing;
        if (!standing?.armed || standing.sessionId !== this.session.sessionId) {
            standing = this.standing = { sessionId: this.session.sessionId, armed: false, active: true, latest: Promise.resolve(undefined) };
            this.rearm(standing);
        }
        const current = standing;
        current.active = true;
        return {
            current: () => current.latest,
            stop: () => void (current.active = false),
        };
    }
    rearm(standing) {
        standing.armed = true;
        const latest = (standing.latest = this.ready.readWatched(() => {
            standing.armed = false;
            if (standing.active)
                this.rearm(standing);
        }));
        // The take-over awaits it, or it was not needed. Failed: read afresh next time.
        latest.catch(() => void (standing.latest === latest && (standing.armed = false)));
    }
}
//# sourceMappingURL=ready-standby.js.map