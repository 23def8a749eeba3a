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
 * The partition workload's counters (one per partition of the set `shards`, persisted together as
 * JSON in `partitionFile`, the run dir's `partitions.json`) are fenced per partition: an op names
 * its `partition`, and is compared with the newest token seen for that partition only (each
 * partition is its own lock).
 *
 * Eras: a ZooKeeper ensemble restarted with wiped data starts its zxids (so the tokens) again from
 * small values. That is a documented limitation: whoever wipes the ensemble must tell the store a new
 * era began (`newEra()`), which forgets the newest tokens; fencing then holds within each era. The
 * wipe fault calls it after every lease has had to count as lost, right before the restart. Every
 * log line carries the era, and the checker compares tokens only within one.
 */
import fs from 'node:fs';
import type { EventLog, StoreOp } from './event-log.js';

/** What a worker asks of the store. */
export type StoreCall =
  | { op: 'read'; token: string; partition?: number }
  | { op: 'write'; token: string; expect: number; value: number; kind: 'section' | 'repair'; interrupted?: string; partition?: number }
  | { op: 'beat'; token: string };

export type StoreRequest = StoreCall & { type: 'store'; id: number };

export interface StoreReply {
  type: 'store-reply';
  id: number;
  accepted: boolean;
  reason?: 'stale' | 'cas';
  /** The counter after the operation (reads and accepted writes). */
  value?: number;
}

export class FencedStore {
  private value = 0;
  private newestLockToken = -1n;
  private newestLeaderToken = -1n;
  private currentEra = 0;
  /** Per partition: its counter, and the newest token seen for it (this era). */
  private readonly partitionValues = new Map<number, number>();
  private readonly newestPartitionTokens = new Map<number, bigint>();

  constructor(
    readonly counterFile: string,
    private readonly log: EventLog,
    /** Where the partition counters are persisted (JSON: partition -> value). */
    readonly partitionFile: string,
  ) {
    fs.writeFileSync(counterFile, '0');
    fs.writeFileSync(partitionFile, '{}');
  }

  get counter(): number {
    return this.value;
  }

  get era(): number {
    return this.currentEra;
  }

  /** The ensemble's data was wiped: tokens start again; returns the new era. */
  newEra(): number {
    this.newestLockToken = -1n;
    this.newestLeaderToken = -1n;
    this.newestPartitionTokens.clear();
    return ++this.currentEra;
  }

  /** Processes one request of worker `w` (incarnation `inc`); logs it, accepted or not. */
  handle(w: number, inc: number, request: StoreRequest): StoreReply {
    const token = BigInt(request.token);
    const op: Omit<StoreOp, 't'> = { w, inc, op: request.op, token: request.token, accepted: false, era: this.currentEra };
    const reply: StoreReply = { type: 'store-reply', id: request.id, accepted: false };
    if (request.op === 'beat') {
      if (token < this.newestLeaderToken) return this.done(op, reply, 'stale');
      this.newestLeaderToken = token;
      return this.done(op, reply);
    }
    if (request.op === 'write') Object.assign(op, { expect: request.expect, value: request.value, kind: request.kind, interrupted: request.interrupted });
    if (request.partition !== undefined) return this.handlePartition(request.partition, request, token, op, reply);
    // Fencing first: an older token is refused whatever it asks for.
    if (token < this.newestLockToken) return this.done(op, reply, 'stale');
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

  /** As for the counter, with partition `k`'s own counter and newest token. */
  private handlePartition(k: number, request: Exclude<StoreCall, { op: 'beat' }>, token: bigint, op: Omit<StoreOp, 't'>, reply: StoreReply): StoreReply {
    op.partition = k;
    if (token < (this.newestPartitionTokens.get(k) ?? -1n)) return this.done(op, reply, 'stale');
    this.newestPartitionTokens.set(k, token);
    const value = this.partitionValues.get(k) ?? 0;
    reply.value = value;
    if (request.op === 'read') return this.done(op, reply);
    if (value !== request.expect) return this.done(op, reply, 'cas');
    this.partitionValues.set(k, request.value);
    fs.writeFileSync(this.partitionFile, JSON.stringify(Object.fromEntries(this.partitionValues)));
    reply.value = request.value;
    return this.done(op, reply);
  }

  private done(op: Omit<StoreOp, 't'>, reply: StoreReply, reason?: 'stale' | 'cas'): StoreReply {
    const accepted = reason === undefined;
    this.log.write({ ...op, accepted, ...(reason && { reason }) });
    reply.accepted = accepted;
    if (reason) reply.reason = reason;
    return reply;
  }
}
