import { ZK_PERMS } from '../types.js';
import type { Member } from './server-connection.js';
import type { SimClock } from './sim-clock.js';
import { SIM_ACTOR } from './sim-scheduler.js';
import { permits, ZkFault, ZnodeTree, type Asker, type MultiFault, type MultiOpResult, type MultiWrite, type Notification, type Txn, type WriteRequest } from './znode-tree.js';

/** Entries are dropped once this many have been applied by every member. */
const COMPACT_BATCH = 1024;

/** The outcome of a write the leader committed: its log index, and its return code (0 when it applied). */
export interface CommittedWrite {
  readonly index: number;
  readonly rc: number;
  readonly txn: Txn;
}

/**
 * The leader's log in zxid order, and its application by every member's replica: the leader
 * applies an entry as it appends it (so it checks every write against the latest tree), followers
 * apply it after a random delay, or later while they lag. A reply that follows an entry waits until
 * the answering member applied it, so a client never reads behind its own write; a read from a
 * lagging member is stale until `sync`, as on a real ensemble.
 */
export class ReplicatedLog {
  /** The leader's tree: what every write is checked against. */
  private tree: ZnodeTree;
  private entries: Txn[] = [];
  /** How many entries from the start of the log were dropped (every member had applied them). */
  private dropped = 0;
  private epoch!: bigint;
  private counter = 0n;

  constructor(
    private readonly scheduler: SimClock,
    private readonly members: readonly Member[],
    /** Delay between the leader's commit and a follower applying it, ms. */
    private readonly applyRange: readonly [number, number],
    /** Where the trees' sequence counters start (see `ZnodeTree`). */
    private readonly sequenceStart = 0,
    /** Whether `member` is cut off from the leader: it applies nothing until it is back. */
    private readonly cutOff: (member: Member) => boolean = () => false,
    /** The zxid the log counts on from (its top 32 bits the epoch): see `SimulatedEnsembleOptions.zxidStart`. */
    private readonly zxidStart = 1n << 32n,
    /** The wall clock of ctime and mtime. Default: a fixed date plus the scheduler's time, the same in every run of a seed. */
    private readonly wallClock: () => number = () => Date.UTC(2026, 0, 1) + Math.floor(scheduler.now),
  ) {
    this.startCounting();
    this.tree = new ZnodeTree(sequenceStart);
    this.startTrees();
  }

  /**
   * Every tree has seen the zxid the log counts on from, before any transaction: a client that saw
   * a later one (of a previous run of the dev server, whose zxids started lower) is refused, one
   * that saw an earlier one is not.
   */
  private startTrees(): void {
    this.tree.lastZxid = this.zxidStart;
    for (const member of this.members) member.tree.lastZxid = this.zxidStart;
  }

  /** The leader's tree (for writes' checks and inspection; replicas have their own). */
  get primary(): ZnodeTree {
    return this.tree;
  }

  /** How many entries the log holds: the index of the last one. */
  get length(): number {
    return this.dropped + this.entries.length;
  }

  /** How many entries are kept in memory. */
  get retained(): number {
    return this.entries.length;
  }

  /** The entry at `index` (1-based, as `commit` returns it). */
  entry(index: number): Txn {
    return this.entries[index - 1 - this.dropped]!;
  }

  nextZxid(): bigint {
    return (this.epoch << 32n) | ++this.counter;
  }

  /** Simulated wall-clock time of a transaction (ctime/mtime). */
  wallTime(): number {
    return this.wallClock();
  }

  /** Appends the transaction `make` builds (applied to the leader's tree at once) and schedules every replica to apply it. Returns its log index (1-based). */
  commit(make: () => Txn): number {
    const txn = make();
    this.tree.apply(txn);
    this.entries.push(txn);
    for (const member of this.members) this.scheduleApply(member);
    return this.length;
  }

  /** Commits `request` as the leader checks it: a failed write is committed too, as an error transaction carrying its code. */
  commitWrite(request: WriteRequest, asker: Asker): CommittedWrite {
    let rc = 0;
    const index = this.commit(() => {
      const zxid = this.nextZxid();
      const txn = this.tree.prepare(request, asker, zxid, this.wallTime());
      if (!(txn instanceof ZkFault)) return txn;
      rc = txn.rc;
      return { type: 'error', zxid, time: this.wallTime(), rc };
    });
    return { index, rc, txn: this.entry(index) };
  }

  private startCounting(): void {
    this.epoch = this.zxidStart >> 32n;
    this.counter = this.zxidStart & 0xffffffffn;
  }

  /** Commits a `multi` as the leader checks it: all its ops in one transaction, or an error transaction and the op that failed. */
  commitMulti(ops: readonly MultiWrite[], asker: Asker): { index: number; outcome: { results: MultiOpResult[] } | { fault: MultiFault } } {
    let outcome!: { results: MultiOpResult[] } | { fault: MultiFault };
    const index = this.commit(() => {
      const zxid = this.nextZxid();
      const prepared = this.tree.prepareMulti(ops, asker, zxid, this.wallTime());
      if ('txn' in prepared) {
        outcome = { results: prepared.results };
        return prepared.txn;
      }
      outcome = { fault: prepared };
      return { type: 'error', zxid, time: this.wallTime(), rc: prepared.rc };
    });
    return { index, outcome };
  }

  /** `release` runs once `member` applied the entry at `index` (at once if it has). */
  afterApply(member: Member, index: number, release: () => void): void {
    if (member.applied >= index) return release();
    member.held.push({ index, release });
    this.scheduleApply(member);
  }

  /** `member` applies what it has not yet, after the apply delay (and its lag). */
  scheduleApply(member: Member): void {
    if (!member.up) return;
    const [min, max] = this.applyRange;
    const delay = Math.max(member.lagUntil - this.scheduler.now, 0) + min + this.scheduler.random.float() * (max - min);
    this.scheduler.schedule(delay, () => this.catchUp(member), 'apply', SIM_ACTOR);
  }

  /** `member` joins (a reconfig): it syncs from a snapshot of the leader's tree (a SNAP), then applies the log from here on. */
  join(member: Member): void {
    member.tree = this.tree.copy();
    member.applied = this.length;
  }

  /**
   * Every tree's `/zookeeper/config` holds `data(zxid)`, the membership as of the zxid the log
   * counts from, written outside the log: each server writes its configuration into its database
   * as it starts, versioned by the first leader's NEWLEADER zxid (`Leader.lead`, `ZKDatabase.initConfigInZKDatabase`).
   */
  seedConfig(data: (version: bigint) => Buffer): void {
    const txn: Txn = { type: 'reconfig', zxid: this.zxidStart, time: this.wallTime(), data: data(this.zxidStart) };
    for (const tree of [this.tree, ...this.members.map((member) => member.tree)]) tree.apply(txn);
  }

  /** Every member restarts with an empty data directory: the log and the trees are gone, zxids start over. */
  wipe(): void {
    this.tree = new ZnodeTree(this.sequenceStart);
    this.entries = [];
    this.dropped = 0;
    this.startCounting();
    for (const member of this.members) {
      member.held.length = 0;
      member.applied = 0;
      member.tree = new ZnodeTree(this.sequenceStart);
    }
    this.startTrees();
  }

  /** `member` applies the log as far as it goes (unless it lags), fires its watches, releases held replies. */
  private catchUp(member: Member): void {
    if (!member.up || member.lagUntil > this.scheduler.now || this.cutOff(member)) return;
    while (member.applied < this.length) {
      this.deliver(member, member.tree.apply(this.entries[member.applied++ - this.dropped]!));
    }
    this.compact();
    const ready = member.held.filter((h) => h.index <= member.applied);
    member.held.splice(0, member.held.length, ...member.held.filter((h) => h.index > member.applied));
    for (const h of ready) h.release();
  }

  /**
   * Drops the entries every member has applied (a member that is down holds them back: it catches
   * up from the log), in batches, so that a long run (the dev server's) keeps a bounded log.
   */
  private compact(): void {
    const appliedByAll = Math.min(...this.members.map((m) => m.applied));
    const droppable = appliedByAll - this.dropped;
    if (droppable < COMPACT_BATCH) return;
    this.entries.splice(0, droppable);
    this.dropped = appliedByAll;
  }

  /**
   * The watches an applied entry fired go to the sessions connected to this member, each only if
   * the connection may read the node the event is about (`NIOServerCnxn.process`: a watch, above
   * all a recursive one, must not tell of a node its session cannot read).
   */
  private deliver(member: Member, notifications: readonly Notification[]): void {
    for (const n of notifications) {
      for (const connection of member.connections) {
        if (connection.session !== n.session) continue;
        if (n.acl && !permits(n.acl, ZK_PERMS.READ, { session: n.session, ids: connection.ids })) continue;
        connection.reply(() => connection.handle.notify(n.type, n.path));
      }
    }
  }
}
