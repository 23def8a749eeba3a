/**
 * Hand-written chaos logs for checker.test.ts: a small builder that writes what workers, the store
 * and the driver would have logged, in ms from 0 (stored as ns like the real logs).
 */
import type { CheckInput, RunEnd } from './checker.js';
import { COUNTER_KEY, ELECTION_KEY } from './chaos-names.js';
import type { DriverEvent, EarlyEndStep, FaultKind, RecipeWhat, RequestWhat, StoreOp, WorkerEvent } from './event-log.js';

type WorkerLine = WorkerEvent extends infer E ? (E extends unknown ? Omit<E, 't' | 'w' | 'inc'> : never) : never;

export interface SectionPlan {
  /** When the call started waiting, was granted, and its section began (ms). */
  want?: number;
  acquired: number;
  /** Counter value it reads and checkpoints (undefined: no checkpoint). */
  v?: number;
  /** When its write reached the store (ms); omitted: no write (killed or failed before). */
  write?: number;
  /** End of the method body; omitted: it never ended (killed). */
  exit?: number;
  /** What the method body threw, if it did (the call's outcome is `outcome`). */
  bodyError?: string;
  /** Release line (ms) or lost line (ms); the call's outcome. */
  released?: number;
  lost?: number;
  outcome?: 'ok' | string;
  /** Repairs run on entry, before the section: [interrupted token, its checkpoint, repaired?]. */
  repairs?: { interrupted: string; checkpoint?: number; repaired: boolean; at: number }[];
  /** Store verdict of its write. */
  refused?: 'stale' | 'cas';
  /** Its queue node and session (on its `enter` line). */
  node?: string;
  session?: string;
  /** It reads `releaseRequested` on entry (needs `node` and `session`); it aborted at `seen` (ms). */
  watch?: boolean;
  seen?: number;
  /** Asked, it ended early at this step (logged at `seen`). */
  earlyEnd?: EarlyEndStep;
}

/** A release or step-down request of worker w.inc (ms). */
export interface RequestPlan {
  what: RequestWhat;
  /** Its `request` line. */
  at: number;
  /** Its reply's line; omitted: no reply (killed). */
  done?: number;
  /** Whom the reply names (`requested: true`), or why nobody, or the error. */
  node?: string;
  session?: string;
  identity?: string;
  reason?: string;
  error?: string;
}

/** One call of the lock-set, read/write or semaphore workload (ms). */
export interface CallPlan {
  what: RecipeWhat;
  /** The locks it is granted (`lockKey` -> token), in grant order. */
  grants: Record<string, string>;
  /** Its `call` line (default: at `acquired`). */
  want?: number;
  /** When its grants are logged (one after the other, 0.01 ms apart); omitted: never granted. */
  acquired?: number;
  /** Its body's first and last line; omitted: its fn never ran. */
  body?: [number, number];
  /** `lost` lines of every grant; `released` lines of every grant. */
  lost?: number;
  released?: number;
  /** The call's outcome (`call-done`); omitted: it never returned (killed). */
  outcome?: 'ok' | string;
  /** A semaphore call's permits. */
  take?: number;
  permits?: number;
}

/** One `@ForEachOwnedPartition` run of the partition workload (ms), as partition-workload.ts logs it. */
export interface PartitionRunPlan {
  /** The tick it belongs to; its `p-tick-done` line (omitted: never logged, e.g. killed). */
  tick: number;
  tickOk?: boolean;
  /** Repairs of its tenure's take-over, before the run: [interrupted token, its checkpoint, repaired?]. */
  repairs?: { interrupted: string; checkpoint?: number; repaired: boolean; at: number }[];
  /** A `p-owned` line listing the partition with this token (ms), before the run. */
  owned?: number;
  enter: number;
  /** Counter value it reads and checkpoints (undefined: no checkpoint). */
  v?: number;
  /** When its write reached the store; omitted: no write. */
  write?: number;
  refused?: 'stale' | 'cas';
  /** End of its body (omitted: never ended), and what it threw. */
  exit?: number;
  error?: string;
}

export class Scenario {
  readonly workers: WorkerEvent[] = [];
  readonly store: StoreOp[] = [];
  readonly driver: DriverEvent[] = [];
  end: RunEnd = { finalCounter: 0, orphans: [] };
  private counter = 0;
  /** Accepted writes per partition. */
  private readonly partitionCounts: Record<string, number> = {};
  /** The store's era: store ops logged after `newEra()` carry it. */
  private era = 0;

  static ns(ms: number): number {
    return 1e12 + ms * 1e6;
  }

  log(w: number, inc: number, ms: number, line: WorkerLine): this {
    this.workers.push({ ...line, t: Scenario.ns(ms), w, inc } as WorkerEvent);
    return this;
  }

  storeOp(ms: number, op: Omit<StoreOp, 't'>): this {
    this.store.push({ ...(this.era > 0 && { era: this.era }), ...op, t: Scenario.ns(ms) });
    return this;
  }

  /** The wipe fault told the store a new era began at `ms`: later store ops (as built) carry it. */
  newEra(ms: number): this {
    this.era++;
    return this.driverLine(ms, { ev: 'era', era: this.era });
  }

  driverLine(ms: number, line: DriverEvent extends infer E ? (E extends unknown ? Omit<E, 't'> : never) : never): this {
    this.driver.push({ ...line, t: Scenario.ns(ms) } as DriverEvent);
    return this;
  }

  fault(kind: FaultKind, from: number, to: number, w?: number, inc = 1): this {
    return this.driverLine(to, { ev: 'fault', kind, start: Scenario.ns(from), end: Scenario.ns(to), w, inc: w === undefined ? undefined : inc });
  }

  /** A worker process from `from` to `to` (ms), exiting cleanly unless `killed` / `code` say otherwise. */
  process(w: number, inc: number, from: number, to: number, exit: { killed?: boolean; code?: number } = {}): this {
    this.driverLine(from, { ev: 'spawn', w, inc, pid: 1000 * w + inc });
    this.log(w, inc, from, { ev: 'start', pid: 1000 * w + inc });
    return this.driverLine(to, { ev: 'exit', w, inc, pid: 1000 * w + inc, code: exit.killed ? null : (exit.code ?? 0), signal: exit.killed ? 'SIGKILL' : null, killed: exit.killed ?? false });
  }

  /** One locked call of worker w.inc with `token`, logged and its store ops recorded. */
  section(w: number, inc: number, token: string, plan: SectionPlan): this {
    this.log(w, inc, plan.want ?? plan.acquired, { ev: 'want' });
    this.log(w, inc, plan.acquired, { ev: 'acquired', token });
    let t = plan.acquired;
    for (const repair of plan.repairs ?? []) {
      this.storeOp(repair.at, { w, inc, op: 'read', token, accepted: true });
      if (repair.repaired) this.increment(repair.at, w, inc, token, repair.checkpoint!, 'repair', repair.interrupted);
      this.log(w, inc, repair.at, { ev: 'recovered', token, interrupted: repair.interrupted, checkpoint: repair.checkpoint, repaired: repair.repaired });
      t = repair.at;
    }
    this.log(w, inc, t + 0.1, { ev: 'enter', token, ...(plan.node !== undefined && { node: plan.node, sessionId: plan.session }) });
    if (plan.watch) this.log(w, inc, t + 0.15, { ev: 'release-watch', token, lock: COUNTER_KEY, node: plan.node!, sessionId: plan.session! });
    if (plan.seen !== undefined) {
      this.log(w, inc, plan.seen, { ev: 'release-seen', token, lock: COUNTER_KEY, node: plan.node!, sessionId: plan.session!, error: 'ReleaseRequestedError' });
      if (plan.earlyEnd) this.log(w, inc, plan.seen + 0.01, { ev: 'early-end', token, step: plan.earlyEnd });
    }
    if (plan.v !== undefined) {
      this.storeOp(t + 0.2, { w, inc, op: 'read', token, accepted: true });
      this.log(w, inc, t + 0.3, { ev: 'checkpoint', token, v: plan.v });
    }
    if (plan.write !== undefined) {
      if (plan.refused) this.storeOp(plan.write, { w, inc, op: 'write', token, accepted: false, reason: plan.refused, expect: plan.v, value: plan.v! + 1, kind: 'section' });
      else this.increment(plan.write, w, inc, token, plan.v!, 'section');
    }
    if (plan.exit !== undefined) this.log(w, inc, plan.exit, { ev: 'exit', token, ...(plan.bodyError && { error: plan.bodyError }) });
    if (plan.lost !== undefined) this.log(w, inc, plan.lost, { ev: 'lost', token, reason: 'test' });
    if (plan.released !== undefined) this.log(w, inc, plan.released, { ev: 'released', token });
    if (plan.outcome !== undefined) {
      const at = Math.max(plan.released ?? 0, plan.lost ?? 0, plan.exit ?? 0) + 0.1;
      this.log(w, inc, at, plan.outcome === 'ok' ? { ev: 'done', ok: true } : { ev: 'done', ok: false, error: plan.outcome });
    }
    return this;
  }

  /** Call `id` of worker w.inc of a workload (`what`), logged as chaos-worker.ts logs it. */
  call(w: number, inc: number, id: number, plan: CallPlan): this {
    const locks = Object.keys(plan.grants);
    const permits = plan.what === 'semaphore' ? { take: plan.take ?? 1, permits: plan.permits ?? 3 } : {};
    this.log(w, inc, plan.want ?? plan.acquired ?? 0, { ev: 'call', call: id, what: plan.what, locks, ...permits });
    if (plan.acquired !== undefined) {
      locks.forEach((lock, i) => this.log(w, inc, plan.acquired! + 0.01 * i, { ev: 'acquired', token: plan.grants[lock]!, lock, call: id }));
    }
    if (plan.body) {
      this.log(w, inc, plan.body[0], { ev: 'body', call: id, tokens: plan.grants });
      this.log(w, inc, plan.body[1], { ev: 'body-end', call: id });
    }
    for (const lock of plan.acquired === undefined ? [] : locks) {
      if (plan.lost !== undefined) this.log(w, inc, plan.lost, { ev: 'lost', token: plan.grants[lock]!, reason: 'test', lock, call: id });
      if (plan.released !== undefined) this.log(w, inc, plan.released, { ev: 'released', token: plan.grants[lock]!, lock, call: id });
    }
    if (plan.outcome !== undefined) {
      const at = Math.max(plan.released ?? 0, plan.lost ?? 0, plan.body?.[1] ?? 0, plan.acquired ?? 0, plan.want ?? 0) + 0.1;
      this.log(w, inc, at, plan.outcome === 'ok' ? { ev: 'call-done', call: id, ok: true, ran: plan.body !== undefined } : { ev: 'call-done', call: id, ok: false, ran: plan.body !== undefined, error: plan.outcome });
    }
    return this;
  }

  /** Request `req` of worker w.inc, and its reply as planned. */
  request(w: number, inc: number, req: number, plan: RequestPlan): this {
    this.log(w, inc, plan.at, { ev: 'request', req, what: plan.what, target: plan.what === 'release' ? COUNTER_KEY : ELECTION_KEY });
    if (plan.done === undefined) return this;
    if (plan.error !== undefined) return this.log(w, inc, plan.done, { ev: 'request-done', req, error: plan.error });
    if (plan.node === undefined) return this.log(w, inc, plan.done, { ev: 'request-done', req, requested: false, reason: plan.reason ?? 'free' });
    return this.log(w, inc, plan.done, { ev: 'request-done', req, requested: true, node: plan.node, identity: plan.identity ?? null, sessionId: plan.session, repeated: false });
  }

  /** Worker w.inc, leading under `token` with session `session`, was asked to step down at `ms`. */
  stepDown(w: number, inc: number, ms: number, token: string, session: string): this {
    return this.log(w, inc, ms, { ev: 'step-down', token, sessionId: session });
  }

  leader(w: number, inc: number, token: string, from: number, to?: number): this {
    this.log(w, inc, from, { ev: 'leader', value: true, token });
    return to === undefined ? this : this.log(w, inc, to, { ev: 'leader', value: false, token });
  }

  /** A run of partition `p` by worker w.inc under `token`, logged and its store ops recorded. */
  partitionRun(w: number, inc: number, p: number, token: string, plan: PartitionRunPlan): this {
    for (const repair of plan.repairs ?? []) {
      this.storeOp(repair.at, { w, inc, op: 'read', token, accepted: true, partition: p });
      if (repair.repaired) this.partitionWrite(repair.at, w, inc, p, token, repair.checkpoint!, 'repair', repair.interrupted);
      this.log(w, inc, repair.at, { ev: 'p-recovered', p, token, interrupted: repair.interrupted, checkpoint: repair.checkpoint, repaired: repair.repaired });
    }
    if (plan.owned !== undefined) this.log(w, inc, plan.owned, { ev: 'p-owned', partitions: [p], tokens: { [p]: token } });
    this.log(w, inc, plan.enter, { ev: 'p-enter', p, token, tick: plan.tick });
    if (plan.v !== undefined) {
      this.storeOp(plan.enter + 0.1, { w, inc, op: 'read', token, accepted: true, partition: p });
      this.log(w, inc, plan.enter + 0.2, { ev: 'p-checkpoint', p, token, v: plan.v });
    }
    if (plan.write !== undefined) {
      if (plan.refused) this.storeOp(plan.write, { w, inc, op: 'write', token, accepted: false, reason: plan.refused, expect: plan.v, value: plan.v! + 1, kind: 'section', partition: p });
      else this.partitionWrite(plan.write, w, inc, p, token, plan.v!, 'section');
    }
    if (plan.exit !== undefined) this.log(w, inc, plan.exit, { ev: 'p-exit', p, token, ...(plan.error !== undefined && { error: plan.error }) });
    if (plan.tickOk !== undefined) this.log(w, inc, (plan.exit ?? plan.enter) + 0.5, { ev: 'p-tick-done', tick: plan.tick, ok: plan.tickOk });
    return this;
  }

  input(stuckBoundMs = 30_000, sessionTimeoutMs = 2000): CheckInput {
    const end = { ...this.end, finalCounter: this.end.finalCounter || this.counter, partitionCounters: this.end.partitionCounters ?? this.partitionCounts };
    return { workers: this.workers, store: this.store, driver: this.driver, end, stuckBoundMs, sessionTimeoutMs };
  }

  private partitionWrite(ms: number, w: number, inc: number, p: number, token: string, v: number, kind: 'section' | 'repair', interrupted?: string): void {
    this.partitionCounts[p] = (this.partitionCounts[p] ?? 0) + 1;
    this.storeOp(ms, { w, inc, op: 'write', token, accepted: true, expect: v, value: v + 1, kind, interrupted, partition: p });
  }

  private increment(ms: number, w: number, inc: number, token: string, v: number, kind: 'section' | 'repair', interrupted?: string): void {
    this.counter++;
    this.storeOp(ms, { w, inc, op: 'write', token, accepted: true, expect: v, value: v + 1, kind, interrupted });
  }
}
