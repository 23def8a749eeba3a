import { LockLostError } from '../../errors/lock-lost.error.js';
import { RecoveryFailedError } from '../../errors/recovery-failed.error.js';
import { ZooKeeperError } from '../../errors/zookeeper.error.js';
import { GuardedSection, sessionGone } from './guarded-section.js';
import { encode, parseRecord } from './ready-record.js';
import { WriteRetry } from './write-retry.js';
import { znodePaths } from '../znode-paths.js';
/**
 * The ZooKeeper paper's "ready" znode, made safe against stale holders with versioned writes.
 *
 * A holder entering a guarded section marks the state `dirty` with its token; it records
 * progress with `checkpoint()`, and marks it `ready` (or deletes it, see `Completion`) when the
 * section completes. A holder that finds the state `dirty` under another token knows its
 * predecessor died (or threw) half-way and runs the recovery handler with what that predecessor
 * recorded, before its own section.
 *
 * Every write names the version it read, so a holder that lost its lease without knowing
 * (paused past the session timeout) cannot overwrite the state of the holder after it: its write
 * fails with BADVERSION and its section ends with `LockLostError`.
 */
export class ReadyState {
    constructor(client, dir, completion = 'mark-ready') {
        this.client = client;
        this.completion = completion;
        this.path = znodePaths.ready(dir);
    }
    /**
     * Enters a guarded section: recovers an interrupted predecessor first (rejecting with
     * `RecoveryFailedError` if the handler throws; the state stays dirty for the next holder),
     * then marks the state dirty under `owner`. Rides through connection loss on the same session,
     * within the bounds of `WriteRetry` (the owner's signal, a replaced session, repeated losses).
     *
     * Every write of the section is sent only while the owner's signal is quiet, and a lease's
     * signal aborts before its session can be replaced (`LeaseRegistry`): so it goes out on the
     * session of the holder's queue node, and the server applies it only while that session lives
     * (it refuses a closing session's requests), that is, while the node exists and nobody else holds.
     */
    async enter(owner, recover) {
        const token = owner.token.toString();
        const retry = new WriteRetry(this.supervised, this.path, owner.signal);
        let recovered;
        let createUnanswered = false;
        for (;;) {
            // The lease may have ended while we waited for a reconnection or ran the recovery.
            retry.checkHeld();
            let creating = false;
            try {
                const current = await this.read();
                // Our create whose reply was lost may have landed, without the ACL that follows a create
                // (see `ZkSession.create`): give the node its ACL before anything else.
                if (current && createUnanswered)
                    await this.secure();
                createUnanswered = false;
                if (current && BigInt(current.record.token) > owner.token) {
                    throw new LockLostError(this.path, `a newer holder (token ${current.record.token}) owns the ready state`);
                }
                if (current?.record.state === 'dirty' && current.record.token !== token && recovered?.token.toString() !== current.record.token) {
                    const interrupted = {
                        holder: current.record.holder,
                        token: BigInt(current.record.token),
                        since: current.record.since,
                        checkpoint: current.record.checkpoint,
                    };
                    if (recover) {
                        try {
                            await recover(interrupted, { token: owner.token });
                        }
                        catch (error) {
                            throw new RecoveryFailedError(this.path, error);
                        }
                    }
                    recovered = interrupted;
                    retry.checkHeld(); // the lease may have ended while the handler ran
                }
                const record = { v: 1, state: 'dirty', token, holder: owner.holder, since: Date.now() };
                retry.checkHeld(); // the write goes out on the lease's session (see above)
                try {
                    creating = !current;
                    const version = await retry.attempt(current ? this.write(record, current.version) : this.create(record));
                    return new GuardedSection(this, record, version, recovered, owner.signal, this.completion);
                }
                catch (error) {
                    // Someone wrote between our read and our write: an older holder that did not know it
                    // had lost the lock, or a newer one. Read again and decide by token.
                    if (!ZooKeeperError.is(error, 'BADVERSION', 'NODEEXISTS', 'NONODE'))
                        throw error;
                    retry.settled();
                }
            }
            catch (error) {
                // A dropped connection: look again once the same session is back. A dirty write of ours
                // that landed unanswered then reads back under our own token, and is simply written again;
                // a recovery that already ran is not run twice (`recovered`).
                if (creating && error instanceof ZooKeeperError && error.isConnectionError)
                    createUnanswered = true;
                // As for the section's later writes: the lock (or leadership) went with its session.
                if (error instanceof ZooKeeperError && error.isSessionGone)
                    throw sessionGone(this.path, error);
                if (!(await retry.again(error)))
                    throw error;
            }
        }
    }
    /** Applies the session's ACL policy to the ready znode (nothing without one, or without a supervised session). */
    async secure() {
        await this.supervised?.secure(this.path);
    }
    /** The current record, or undefined when no section ever ran. Malformed data: `CorruptStateError`. */
    async read() {
        try {
            const { data, stat } = await this.client.getData(this.path);
            return { record: parseRecord(this.path, data), version: stat.version };
        }
        catch (error) {
            if (ZooKeeperError.is(error, 'NONODE'))
                return undefined;
            throw error;
        }
    }
    /**
     * `read`, leaving one watch that fires on the record's next change, deletion or creation: a
     * `getData` watch when the record exists (1 request), else an `exists` one (getData leaves no
     * watch on a missing node), after which a record created in between is read without another.
     */
    async readWatched(watcher) {
        try {
            const { data, stat } = await this.client.getData(this.path, watcher);
            return { record: parseRecord(this.path, data), version: stat.version };
        }
        catch (error) {
            if (!ZooKeeperError.is(error, 'NONODE'))
                throw error;
        }
        return (await this.client.exists(this.path, watcher)) ? this.read() : undefined;
    }
    /** Versioned write; BADVERSION becomes `LockLostError` for callers inside a section. */
    async write(record, version) {
        const stat = await this.client.setData(this.path, encode(record), version);
        return stat.version;
    }
    /**
     * `write`, tried again when the connection drops before its reply: once the *same* session is
     * back (the one the lock or leadership lives on), the same versioned write goes out again, and
     * a BADVERSION then tells the caller the first one was applied. `WriteRetry` bounds it: the
     * holder's `signal`, a replaced session (the lock died with the old one), repeated losses.
     * Without a supervised session, the error is the caller's.
     */
    async writeThroughConnectionLoss(record, version, signal) {
        const retry = new WriteRetry(this.supervised, this.path, signal);
        for (;;) {
            try {
                return await retry.attempt(this.write(record, version));
            }
            catch (error) {
                if (!(await retry.again(error)))
                    throw error;
            }
        }
    }
    /**
     * Versioned delete, tried again through connection loss as `writeThroughConnectionLoss`. A retry
     * that finds no record found the first try applied: nobody else writes it while we hold (see `enter`).
     */
    async deleteThroughConnectionLoss(version, signal) {
        const retry = new WriteRetry(this.supervised, this.path, signal);
        for (let retried = false;; retried = true) {
            try {
                await retry.attempt(this.client.delete(this.path, version));
                return;
            }
            catch (error) {
                if (retried && ZooKeeperError.is(error, 'NONODE'))
                    return;
                if (!(await retry.again(error)))
                    throw error;
            }
        }
    }
    /** Versioned delete, once. */
    async delete(version) {
        await this.client.delete(this.path, version);
    }
    /** The client as a supervised session, when it is one (it is for locks and elections; the inspector only reads). */
    get supervised() {
        return 'waitForConnection' in this.client ? this.client : undefined;
    }
    async create(record) {
        await this.client.create(this.path, encode(record), 'persistent');
        return 0;
    }
}
//# sourceMappingURL=ready-state.js.map