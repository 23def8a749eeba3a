import type { Member } from './server-connection.js';
import type { SimClock } from './sim-clock.js';
import { SIM_ACTOR } from './sim-scheduler.js';

export interface SessionRecord {
  readonly id: bigint;
  readonly password: string;
  readonly timeoutMs: number;
  /** The server's session tracker expires it at this tick. */
  expiresAt: number;
  /** The member whose connection owns the session (requests relayed by another are SESSIONMOVED). */
  owner: Member | undefined;
  ended: boolean;
}

/**
 * The leader's session tracker (ZooKeeper's `SessionTrackerImpl` with its `ExpiryQueue`): session
 * ids that carry the id of the server that made them in their top byte, and expiry on the first
 * tick after a session's timeout passed without traffic. A leaderless ensemble expires nothing,
 * and a new leader gives every session a fresh timeout.
 */
export class SessionTracker {
  private readonly records = new Map<bigint, SessionRecord>();
  private counter = 0n;

  constructor(
    private readonly scheduler: SimClock,
    private readonly tickMs: number,
    /** Whether a quorum (so a leader) is up. */
    private readonly hasQuorum: () => boolean,
    /** The tracker found `record` timed out: end it (a closeSession transaction). */
    private readonly expire: (record: SessionRecord) => void,
  ) {
    this.tick();
  }

  get(id: bigint): SessionRecord | undefined {
    return this.records.get(id);
  }

  /** A new client session, made by server `serverId`. */
  open(serverId: number, timeoutMs: number): SessionRecord {
    const id = (BigInt(serverId) << 56n) | (0x5e55_0000n + ++this.counter);
    const record: SessionRecord = { id, password: this.scheduler.random.uuid().replaceAll('-', ''), timeoutMs, expiresAt: 0, owner: undefined, ended: false };
    this.records.set(id, record);
    return record;
  }

  /** A session that never expires (see `SimulatedEnsemble.operatorSession`). */
  openOperator(serverId: number): SessionRecord {
    const id = (BigInt(serverId) << 56n) | (0x0be0_0000n + ++this.counter);
    const record: SessionRecord = { id, password: '', timeoutMs: Infinity, expiresAt: Infinity, owner: undefined, ended: false };
    this.records.set(id, record);
    return record;
  }

  /** The session was heard from: its deadline moves to the tick after its timeout from now. */
  touch(record: SessionRecord): void {
    // ZooKeeper's ExpiryQueue: the deadline rounded up to the next tick.
    record.expiresAt = (Math.floor((this.scheduler.now + record.timeoutMs) / this.tickMs) + 1) * this.tickMs;
  }

  /** Sessions the server considers alive. */
  live(): SessionRecord[] {
    return [...this.records.values()].filter((r) => !r.ended);
  }

  /** Forgets every session (a restart with an empty data directory). */
  clear(): void {
    this.records.clear();
  }

  private tick(): void {
    this.scheduler.schedule(this.tickMs, () => {
      this.tick();
      if (!this.hasQuorum()) {
        for (const record of this.records.values()) this.touch(record);
        return;
      }
      for (const record of this.records.values()) if (!record.ended && record.expiresAt <= this.scheduler.now) this.expire(record);
    }, 'session tick', SIM_ACTOR);
  }
}
