/**
 * The chaos run's event logs: one JSON object per line, appended with a synchronous `write(2)` so
 * that a line logged before a SIGKILL is on disk (the page cache survives the process).
 *
 * Every line has `t`: `process.hrtime.bigint()` as a decimal string, i.e. CLOCK_MONOTONIC in ns,
 * which is one clock for all processes of the machine, so lines of different processes can be
 * ordered by it. Tokens (bigint) are written as decimal strings. Readers turn `t` into a Number of
 * ns: exact to ~2 ns for an uptime below 100 days, far finer than anything compared here.
 */
import fs from 'node:fs';

/** Monotonic ns, comparable across the processes of one machine. */
export const monotonicNs = (): bigint => process.hrtime.bigint();

/** What a worker incarnation logs (`w`: worker slot, `inc`: incarnation, from 1 per slot). */
export type WorkerEvent = { t: number; w: number; inc: number } & (
  | { ev: 'start'; pid: number }
  | { ev: 'ready'; sessionId: string }
  | { ev: 'session'; state: string; sessionId?: string }
  /** About to call the locked method (waiting starts). */
  | { ev: 'want' }
  /**
   * `lock.acquired` from ZkLockEvents: the grant, before recovery and the section. `lock`: which lock
   * (`lockKey`; absent in hand-written logs: the counter lock); `call`: the workload call it belongs
   * to (absent for the counter's `@WithLock` sections).
   */
  | { ev: 'acquired'; token: string; lock?: string; call?: number }
  /** `lock.lost`: the lease's signal aborted. */
  | { ev: 'lost'; token: string; reason: string; lock?: string; call?: number }
  /** `lock.released`: the delete that hands the lock on has been sent. */
  | { ev: 'released'; token: string; lock?: string; call?: number }
  /**
   * A call of the lock-set, read/write or semaphore workload starts (waiting starts): `locks` it
   * takes (`lockKey`), and for a semaphore its `take` of `permits`. Its grants carry its `call`.
   */
  | { ev: 'call'; call: number; what: RecipeWhat; locks: string[]; take?: number; permits?: number; onBusy?: string; waitMs?: number }
  /** The call's `fn` started, holding the locks with these tokens (by lock key), through these queue nodes. */
  | { ev: 'body'; call: number; tokens: Record<string, string>; nodes?: Record<string, string> }
  /** One more step of a body that keeps working while the driver cuts or stops its worker, or that works in steps. */
  | { ev: 'body-work'; call: number }
  /** The call's `fn` ended: its last activity as the holder. `error` when it threw. */
  | { ev: 'body-end'; call: number; error?: string }
  /** The call returned (`ok`; `ran`: its `fn` ran, false for a busy try-once) or threw. */
  | { ev: 'call-done'; call: number; ok: boolean; ran: boolean; error?: string }
  | { ev: 'recovering'; token: string; interrupted: string; checkpoint?: number }
  /** The repair handler finished; `repaired`: it completed the interrupted increment. */
  | { ev: 'recovered'; token: string; interrupted: string; checkpoint?: number; repaired: boolean }
  | { ev: 'recover-failed'; token: string; interrupted: string; error: string }
  /** The locked method body started (the guarded section was entered); the lease's queue node and its session. */
  | { ev: 'enter'; token: string; node?: string; sessionId?: string }
  | { ev: 'checkpoint'; token: string; v: number }
  /** One more step of a section that keeps working while the driver cuts or stops its worker, or of a section that works in steps. */
  | { ev: 'work'; token: string }
  /** The locked method body ended: its last activity. `error` when it threw. */
  | { ev: 'exit'; token: string; error?: string }
  /** The locked call returned (`ok`) or threw. */
  | { ev: 'done'; ok: boolean; error?: string }
  /** Every `isLeader$` value, with the leadership token (while true; the ended term's when false) and, when false, why. */
  | { ev: 'leader'; value: boolean; token?: string; reason?: string }
  /**
   * `leadership.step-down`: this process was asked to step down while its node headed the election
   * under `token`; `sessionId` is its session then (the owner of that node).
   */
  | { ev: 'step-down'; token: string; sessionId?: string }
  /**
   * A release or step-down request is sent (`LockService.requestRelease` of the lock `target`, a
   * `lockKey`; `LeaderService.requestStepDown` of the election `target`, `elections/<name>`).
   */
  | { ev: 'request'; req: number; what: RequestWhat; target: string }
  /**
   * Its reply: whom it asked (`requested`: the holder's or leader's queue `node`, its `identity`
   * and `sessionId`, `repeated`: marked already) or why nobody (`reason`), or the `error` it threw
   * (the mark may have landed on the head, or not).
   */
  | { ev: 'request-done'; req: number; requested?: boolean; node?: string; identity?: string | null; sessionId?: string; repeated?: boolean; reason?: string; error?: string }
  /**
   * The holder of `token` of `lock` (of workload call `call`, if any) reads `releaseRequested` for
   * the first time (arming its watch): its queue `node` and the session that owns it.
   */
  | { ev: 'release-watch'; token: string; lock: string; call?: number; node: string; sessionId: string }
  /** That holder's `releaseRequested` aborted (`error`: its reason's name). */
  | { ev: 'release-seen'; token: string; lock: string; call?: number; node: string; sessionId: string; error: string }
  /**
   * A holder asked to let go ends early: a section before its checkpoint (nothing done, it
   * returns) or after it (`after-checkpoint`: it skips the rest of its work, writes its increment
   * and returns; `abandoned`: it throws, leaving the increment to the next holder's repair); a
   * lock set (`set`) ends its body.
   */
  | { ev: 'early-end'; token?: string; call?: number; step: EarlyEndStep }
  | { ev: 'leader-recovered'; token: string; interrupted: string }
  /** The driver's oversize-checkpoint fault: a checkpoint of `bytes` is attempted inside this section. */
  | { ev: 'oversize'; token: string; bytes: number }
  /** Its outcome: refused (`code`, the error's `code` property, e.g. ZK_RECORD_TOO_LARGE) or accepted. */
  | { ev: 'oversize-result'; token: string; accepted: boolean; code?: string; error?: string }
  /** The driver's block-worker fault: the event loop was blocked (busy-wait) from `start` to `end` (ns). */
  | { ev: 'block'; token: string; start: number; end: number }
  /**
   * The partition workload (partition-workload.ts), lines of partition `p`: every `owned$` value of
   * the set with the token of each partition in it; the loss of an owned partition's lease
   * (`ownership(p).signal` aborted, but not by our own release: lost with the session, or revoked at shutdown); the outcome of a tick of `@ForEachOwnedPartition` that ran
   * (`tick`: its id; (`ok`: every run of it completed, its guarded section marked done); a run's body
   * (`p-enter`, `p-checkpoint`, `p-exit` with `error` when it threw); the recovery handler.
   */
  | { ev: 'p-owned'; partitions: number[]; tokens: Record<string, string> }
  | { ev: 'p-lost'; p: number; token: string; error: string; reason?: string }
  | { ev: 'p-tick-done'; tick: number; ok: boolean; error?: string }
  | { ev: 'p-enter'; p: number; token: string; tick: number }
  | { ev: 'p-checkpoint'; p: number; token: string; v: number }
  | { ev: 'p-exit'; p: number; token: string; error?: string }
  | { ev: 'p-recovering'; p: number; token: string; interrupted: string; checkpoint?: number }
  | { ev: 'p-recovered'; p: number; token: string; interrupted: string; checkpoint?: number; repaired: boolean }
  | { ev: 'p-recover-failed'; p: number; token: string; interrupted: string; error: string }
  | { ev: 'error'; where: string; error: string }
  | { ev: 'stopping' }
  | { ev: 'closed' }
);

/** What a workload call takes: a lock set (`withLocks`), a read or write lock, or semaphore permits. */
export type RecipeWhat = 'set' | 'read' | 'write' | 'semaphore';
/** A release request (of a lock's holder) or a step-down request (of an election's leader). */
export type RequestWhat = 'release' | 'step-down';
export type EarlyEndStep = 'before-checkpoint' | 'after-checkpoint' | 'abandoned' | 'set';

/** One operation the fenced store processed (`w`/`inc`: the sender). */
export interface StoreOp {
  t: number;
  w: number;
  inc: number;
  op: 'read' | 'write' | 'beat';
  token: string;
  accepted: boolean;
  /** Why it was refused: an older token than one already seen, or a failed compare-and-set. */
  reason?: 'stale' | 'cas';
  expect?: number;
  value?: number;
  /** For writes: the section's own increment, or a repair of `interrupted`'s. */
  kind?: 'section' | 'repair';
  interrupted?: string;
  /** The store's era when it processed the op (FencedStore.newEra); tokens compare only within one. Absent: 0. */
  era?: number;
  /** An op on that partition's counter (the partition workload), fenced by that partition's tokens; absent: the counter lock's. */
  partition?: number;
}

/** What the driver logs: worker processes and faults. Times of faults are their start and end. */
export type DriverEvent = { t: number } & (
  | { ev: 'spawn'; w: number; inc: number; pid: number }
  /** `killed`: by the driver (fault or stuck at the end). */
  | { ev: 'exit'; w: number; inc: number; pid: number; code: number | null; signal: string | null; killed: boolean }
  | { ev: 'fault'; kind: FaultKind; start: number; end: number; w?: number; inc?: number; server?: number; token?: string; note?: string }
  /** A worker that did not stop within its bound. */
  | { ev: 'stuck'; w: number; inc: number; note: string }
  | { ev: 'phase'; name: string }
  /**
   * The wipe fault told the store a new era began (FencedStore.newEra), right before restarting the
   * wiped ensemble: from here on tokens start again from small values.
   */
  | { ev: 'era'; era: number }
);

export const FAULT_KINDS = [
  'kill-worker',
  'stop-worker',
  'kill-zk-leader',
  'restart-zk-follower',
  'cut-0.5T',
  'cut-1T',
  'cut-1.5T',
  'cut-follower',
  'oversize-checkpoint',
  'block-worker',
  'wipe-ensemble',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** Appends JSON lines to one file; `t` is added to every line. */
export class EventLog {
  private readonly fd: number;

  constructor(readonly file: string, private readonly base: Record<string, unknown> = {}) {
    this.fd = fs.openSync(file, 'a');
  }

  write(fields: Record<string, unknown>): void {
    const line = JSON.stringify({ t: monotonicNs(), ...this.base, ...fields }, (_key, value: unknown) =>
      typeof value === 'bigint' ? value.toString() : value,
    );
    fs.writeSync(this.fd, `${line}\n`);
  }

  close(): void {
    fs.closeSync(this.fd);
  }
}

/** Parses a log file; a torn last line (a process killed mid-write) is dropped, any other bad line throws. */
export function readEventLog<T extends { t: number }>(file: string): T[] {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const events: T[] = [];
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    try {
      const event = JSON.parse(line) as T & { t: string | number };
      events.push({ ...event, t: Number(event.t) });
    } catch (error) {
      if (index < lines.length - 1 && lines.slice(index + 1).some((rest) => rest.trim() !== '')) {
        throw new Error(`${file}:${index + 1}: not JSON: ${line.slice(0, 200)}`, { cause: error });
      }
    }
  });
  return events;
}
