/**
 * Hand-written chaos logs for checker.test.ts: a small builder that writes what workers, the store
 * and the driver would have logged, in ms from 0 (stored as ns like the real logs).
 */
import type { CheckInput, RunEnd } from './checker.js';
import type { DriverEvent, FaultKind, StoreOp, WorkerEvent } from './event-log.js';

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
}

export class Scenario {
  readonly workers: WorkerEvent[] = [];
  readonly store: StoreOp[] = [];
  readonly driver: DriverEvent[] = [];
  end: RunEnd = { finalCounter: 0, orphans: [] };
  private counter = 0;
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
    this.log(w, inc, t + 0.1, { ev: 'enter', token });
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

  leader(w: number, inc: number, token: string, from: number, to?: number): this {
    this.log(w, inc, from, { ev: 'leader', value: true, token });
    return to === undefined ? this : this.log(w, inc, to, { ev: 'leader', value: false, token });
  }

  input(stuckBoundMs = 30_000, sessionTimeoutMs = 2000): CheckInput {
    return { workers: this.workers, store: this.store, driver: this.driver, end: { ...this.end, finalCounter: this.end.finalCounter || this.counter }, stuckBoundMs, sessionTimeoutMs };
  }

  private increment(ms: number, w: number, inc: number, token: string, v: number, kind: 'section' | 'repair', interrupted?: string): void {
    this.counter++;
    this.storeOp(ms, { w, inc, op: 'write', token, accepted: true, expect: v, value: v + 1, kind, interrupted });
  }
}
