import { randomUUID } from 'node:crypto';
import { ZooKeeperError } from '../errors/zookeeper.error.js';
import { LockClient } from '../recipes/lock/lock-client.js';
import { ensurePath } from '../recipes/queue/ensure-path.js';
import { queueNodePrefix } from '../recipes/queue/queue-node.js';
import { ReadyState } from '../recipes/ready/ready-state.js';
import { basenameOf } from '../zookeeper/znode-path.js';
/** The identity of stand-in participants and holders (`leader$`, `participants()`, the inspector). */
export const STAND_IN = 'stand-in';
const UNREPORTED = { wants: () => false, emit() { } };
/**
 * What other processes do on the testing ensemble, done through its operator's session:
 *
 * - a stand-in leader is a bare participant node in an election's queue (the recipe's name and
 *   format), which never acts: while one is ahead of this process, this process does not lead;
 *   deleting it is what hands leadership over;
 * - an interrupted stand-in (leader or holder) is one whose guarded section was left dirty under
 *   its own fencing token, as a process that died mid-section leaves it.
 *
 * The steps on one election run one after the other, in call order: a `join()` that queues a
 * stand-in first and a `setLeader(true)` that removes it cannot overtake each other.
 */
export class StandIns {
    constructor(zk, options) {
        this.zk = zk;
        this.turns = new Map();
        this.locks = new LockClient(zk.operator, { root: options.root, identity: STAND_IN, events: UNREPORTED, logger: { error() { }, warn() { } } });
    }
    /** A stand-in is queued in election `dir`: at the back, unless one is queued already. */
    ensureLeader(dir) {
        return this.inTurn(dir, async () => {
            if (!this.standIns(dir).length)
                await this.queueStandIn(dir);
        });
    }
    /** Removes every stand-in of election `dir`: whoever queued behind them moves up. */
    dismiss(dir) {
        return this.inTurn(dir, () => this.remove(this.standIns(dir)));
    }
    /**
     * Puts a stand-in ahead of session `sessionId` in election `dir`: queues one (behind it) unless
     * one is queued, then deletes the nodes of `sessionId` ahead of the first stand-in. The election
     * sees its node deleted, stops leading, and joins again at the back, behind the stand-in.
     */
    depose(dir, sessionId) {
        return this.inTurn(dir, async () => {
            if (!this.standIns(dir).length)
                await this.queueStandIn(dir);
            const queue = this.zk.queue(dir, 'n');
            const first = queue.findIndex((node) => node.owner === this.operatorId);
            await this.remove(queue.slice(0, first).filter((node) => node.owner === sessionId));
        });
    }
    /**
     * Leaves election `dir`'s ready state dirty under the token of the stand-in at the head of the
     * queue (queued first if the queue is empty), as that leader would leave it by dying mid-section:
     * whoever leads after it recovers it. Refused while `sessionId` heads the queue.
     */
    interruptLeader(dir, sessionId, left) {
        return this.inTurn(dir, async () => {
            if (this.zk.queue(dir, 'n').length === 0)
                await this.queueStandIn(dir);
            const head = this.zk.queue(dir, 'n')[0];
            if (head.owner === sessionId) {
                throw new Error(`this process leads election "${basenameOf(dir)}" (or is taking it over): interruptLeader() stands for an earlier leader; setLeader(false) first`);
            }
            return this.leaveDirty(dir, head.czxid, left);
        });
    }
    /**
     * A stand-in holder takes lock `name` (it must be free), enters its guarded section, records
     * the checkpoint and leaves without completing: the next guarded holder recovers it.
     */
    interruptLock(name, left) {
        const dir = this.locks.pathOf(name);
        return this.inTurn(dir, async () => {
            const lease = await this.locks.tryAcquire(name);
            if (!lease) {
                throw new Error(`lock "${name}" is held right now: interruptLock() stands for an earlier holder; use loseLock() to make the current holder lose it`);
            }
            try {
                return await this.leaveDirty(dir, lease.fencingToken, left);
            }
            finally {
                await lease.release();
            }
        });
    }
    /** Enters the guarded section of `dir` under `token` and leaves it dirty; what its successor's recovery will receive. */
    async leaveDirty(dir, token, left) {
        const ready = new ReadyState(this.zk.operator, dir);
        const section = await ready.enter({ token, holder: left.holder }, undefined);
        if (left.checkpoint !== undefined)
            await section.checkpoint(left.checkpoint);
        // Read back: the checkpoint as stored (JSON), as the recovery handler will receive it.
        const { record } = (await ready.read());
        return { holder: record.holder, token: BigInt(record.token), since: record.since, checkpoint: record.checkpoint };
    }
    get operatorId() {
        return this.zk.operator.sessionId;
    }
    standIns(dir) {
        return this.zk.queue(dir, 'n').filter((node) => node.owner === this.operatorId);
    }
    async queueStandIn(dir) {
        const node = queueNodePrefix(dir, randomUUID(), 'n');
        const data = Buffer.from(STAND_IN);
        try {
            await this.zk.operator.create(node, data, 'ephemeral_sequential');
        }
        catch (error) {
            if (!ZooKeeperError.is(error, 'NONODE'))
                throw error;
            await ensurePath(this.zk.operator, dir, 'container');
            await this.zk.operator.create(node, data, 'ephemeral_sequential');
        }
    }
    async remove(nodes) {
        for (const { path } of nodes) {
            await this.zk.operator.delete(path, -1).catch((error) => {
                if (!ZooKeeperError.is(error, 'NONODE'))
                    throw error;
            });
        }
    }
    /** Runs `step` after every earlier step on `dir` has settled. */
    inTurn(dir, step) {
        const next = (this.turns.get(dir) ?? Promise.resolve()).then(step);
        this.turns.set(dir, next.catch(() => undefined));
        return next;
    }
}
//# sourceMappingURL=stand-ins.js.map