import { LockLostError } from '../../errors/lock-lost.error.js';
import { ZooKeeperError } from '../../errors/zookeeper.error.js';
import { holderGone } from './write-retry.js';
/** The record's version once it is deleted (no write follows a completion). */
const DELETED = -1;
/** A section in progress under the ready state: `checkpoint()` while working, `complete()` at the end. */
export class GuardedSection {
    constructor(state, record, version, 
    /** The interrupted predecessor that was repaired on entry, if any. */
    recovered, 
    /** The owner's lease (or tenure) signal: once it aborts, this section writes nothing more. */
    signal, 
    /** What completing leaves (see `Completion`). */
    completion = 'mark-ready') {
        this.state = state;
        this.record = record;
        this.version = version;
        this.recovered = recovered;
        this.signal = signal;
        this.completion = completion;
        this.finished = false;
    }
    /** Records progress (any JSON value); a holder that takes over after a crash receives the last one. */
    async checkpoint(checkpoint) {
        if (this.finished)
            throw new LockLostError(this.state.path, 'the guarded section has already ended');
        await this.update({ ...this.record, checkpoint });
    }
    /** Marks the work done: the next holder will not run recovery. */
    async complete() {
        // A section that lost the state (even if its caller swallowed that error) must not report
        // completion: the next holder has to repair it.
        if (this.lost)
            throw this.lost;
        if (this.finished)
            return;
        const ready = { v: 1, state: 'ready', token: this.record.token, holder: this.record.holder, since: Date.now() };
        if (this.completion === 'delete') {
            const { state, signal } = this;
            const gone = async () => DELETED;
            await this.update(ready, {
                through: (version) => state.deleteThroughConnectionLoss(version, signal).then(gone),
                once: (version) => state.delete(version).then(gone),
            });
        }
        else {
            await this.update(ready);
        }
        this.finished = true;
    }
    /** Writes `record` (or takes `step` on the record, standing for that write) at the version this section last wrote. */
    async update(record, step = this.writing(record)) {
        if (this.signal?.aborted) {
            // The lease ended: whoever holds next may be writing already, and must find our state dirty.
            this.finished = true;
            throw (this.lost = holderGone(this.signal, this.state.path));
        }
        try {
            try {
                this.version = await step.through(this.version);
            }
            catch (error) {
                if (!ZooKeeperError.is(error, 'BADVERSION'))
                    throw error;
                // An earlier write of ours may have been applied although its reply was lost (connection
                // loss): the record then carries our token at a newer version. Only this section writes
                // under our token while our lease lasts (a later tenure of the same leader token starts
                // after this signal aborted), so that version is ours to continue from; any other is not.
                const current = await this.state.read();
                if (current?.record.token !== this.record.token || this.signal?.aborted)
                    throw error;
                this.version = await step.once(current.version);
            }
            this.record = record;
        }
        catch (error) {
            if (ZooKeeperError.is(error, 'BADVERSION', 'NONODE')) {
                this.finished = true;
                throw (this.lost = new LockLostError(this.state.path, 'another holder has written the ready state since this section began'));
            }
            // The session the lease lived on is gone (e.g. this process was paused past the session
            // timeout and writes before it noticed): the lock is lost for certain, whatever the code.
            if (error instanceof ZooKeeperError && error.isSessionGone) {
                this.finished = true;
                throw (this.lost = sessionGone(this.state.path, error));
            }
            // The lease ended while the write waited for a reconnection: as above.
            if (this.signal?.aborted) {
                this.finished = true;
                throw (this.lost = holderGone(this.signal, this.state.path));
            }
            throw error;
        }
    }
    /** The plain step: a versioned write of `record`. */
    writing(record) {
        return {
            through: (version) => this.state.writeThroughConnectionLoss(record, version, this.signal),
            once: (version) => this.state.write(record, version),
        };
    }
}
/** What a section's write on a session that is gone rejects with: the lock went with it. */
export function sessionGone(path, error) {
    return new LockLostError(path, `the session holding the lock is gone (${error.zkCode})`);
}
//# sourceMappingURL=guarded-section.js.map