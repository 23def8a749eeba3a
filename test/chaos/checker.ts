/**
 * The chaos run's verdict: a pure function from the event logs (workers, fenced store, driver) to
 * violations by kind and the run's figures. Each rule names the invariant of DESIGN §8 it checks.
 * `checker.test.ts` feeds it hand-written logs with each kind of violation: a checker that cannot
 * fail proves nothing.
 */
import { COUNTER_KEY } from './chaos-names.js';
import type { DriverEvent, StoreOp, WorkerEvent } from './event-log.js';
import { compareEraTokens, eraToken, reconstruct, stoppedDuring, type Hold, type Reconstruction } from './holds.js';
import { checkLeadership } from './leadership-rules.js';
import { reconstructRecipes } from './recipe-holds.js';
import { checkRecipeCalls, checkRecipes } from './recipe-rules.js';
import { checkRecovery } from './recovery-rules.js';
import { reconstructRevocation } from './revocation-holds.js';
import { checkRevocation } from './revocation-rules.js';
import type { Tenure } from './partition-holds.js';
import { checkPartitions, emptyPartitionFigures, type PartitionFigures } from './partition-rules.js';
import { checkOversize, sessionsOfServer255 } from './trust-rules.js';

export const VIOLATION_KINDS = [
  'lock-overlap', // inv. 1/2: two holders believed they held the lock at once
  'stale-success', // a holder that overlapped its successor (excused by a SIGSTOP) still reported success
  'token-order', // fencing tokens did not strictly increase in grant order (within one era)
  'store-order', // the store accepted an older token after a newer one (within one era), one token from two processes, or a token of an earlier era
  'cas-conflict', // a write found the counter changed since its read: two writers interleaved
  'lost-increment', // a checkpointed increment was never applied, or applied by someone else
  'counter', // the final counter is not the number of accepted increments
  'recovery-missing', // inv. 6: an interrupted section was not repaired by the next holder before its work
  'recovery-duplicate', // repaired twice
  'recovery-spurious', // a repair of a section that was not interrupted
  'leader-overlap', // two leaders at once
  'leader-token-order', // leadership tokens did not increase
  'stuck', // a wait, the lock, the election or a partition (no owner) made no progress within the bound, or a worker did not stop
  'unexpected-exit', // a worker process died without being killed
  'orphan', // inv. 3: queue znodes left after every worker was gone (any lock's or the election's; any node under a read/write lock's or a semaphore's directory, its leases included)
  'dirty-at-end', // a ready znode is dirty at the end although a later holder (or a graceful close) came
  'oversize', // an oversized checkpoint was not refused with ZK_RECORD_TOO_LARGE, or cost its worker the session or lease
  'set-overlap', // inv. 1 for withLocks: a lock of a set held at once with another holder of that lock (a set's or a single call's)
  'rw-exclusion', // a writer's hold overlapped another hold (read or write) of its read/write lock
  'rw-token-order', // a writer's token not above every earlier holder's, or not below every later holder's
  'permits-exceeded', // a semaphore's permits held at once exceeded its capacity
  'released-on-behalf', // a holder lost its lock with its session fine and no fault on it, or was released while its body ran: something but the holder ended its tenure
  'spurious-release-request', // a holder's releaseRequested aborted, or a leader stepped down, without a request that targeted it
  // The partition workload (partition-rules.ts), per partition of the set:
  'partition-overlap', // inv. 1/2 for a partition: two processes believed they owned it at once
  'partition-cas', // a write found its partition's counter changed since its read
  'partition-store-order', // the store accepted an older token of a partition after a newer one (within one era), or one token from two processes
  'partition-recovery', // inv. 6: a dirty tenure not repaired by the partition's next owner before its work, repaired twice, or a repair of a tenure that is not older
  'partition-lost-increment', // a partition's checkpointed increment never applied, or applied by someone else
  'partition-end-state', // a partition's counter is not its accepted writes, or its ready znode is dirty at the end although a later owner took over
] as const;
export type ViolationKind = (typeof VIOLATION_KINDS)[number];
export type Violations = Record<ViolationKind, string[]>;

/** What the driver found after every worker was gone. */
export interface RunEnd {
  /** The counter file's content. */
  readonly finalCounter: number;
  /** Queue znodes still there (after waiting up to a session timeout for killed sessions). */
  readonly orphans: readonly string[];
  /** The lock's ready record at the end, if any. */
  readonly lockReady?: { readonly state: string; readonly token: string };
  /** The election's ready record at the end: every leader closed gracefully, so it must be `ready`. */
  readonly electionReady?: { readonly state: string; readonly token: string };
  /** The partition workload: each partition's counter as the store persisted it (absent: 0), and each partition's ready record still there. */
  readonly partitionCounters?: Readonly<Record<string, number>>;
  readonly partitionReady?: Readonly<Record<string, { readonly state: string; readonly token: string }>>;
}

export interface CheckInput {
  readonly workers: readonly WorkerEvent[];
  readonly store: readonly StoreOp[];
  readonly driver: readonly DriverEvent[];
  readonly end: RunEnd;
  /** A wait (or a lock / leadership gap) longer than this is a stuck process (time with the ensemble wiped and down not counted). */
  readonly stuckBoundMs: number;
  /** The workers' session timeout: the window after an oversized checkpoint in which no loss may follow. */
  readonly sessionTimeoutMs: number;
}

export interface CheckFigures {
  /** Grants of the counter lock: to its `@WithLock` sections, and to lock sets that name it (`acquisitionsBySets`). */
  acquisitions: number;
  acquisitionsBySets: number;
  sectionsCompleted: number;
  sectionsFailed: Record<string, number>;
  /** Killed between the end of the method body and the call's return: completed or not, unknown. */
  sectionsOutcomeUnknown: number;
  storeAccepted: number;
  storeRejectedStale: number;
  /** Holds (leaderships) that overlapped a successor because their process was SIGSTOPped: excused. */
  excusedLockOverlaps: number;
  excusedLeaderOverlaps: number;
  /** Accepted ops of a holder after its successor's grant, before the successor's first op: serializable, not a violation. */
  storeLateAccepted: number;
  beatsAccepted: number;
  beatsRejectedStale: number;
  recoveryRuns: number;
  repairsApplied: number;
  recoveryReruns: number;
  unrepairedAtEnd: number;
  leaderTerms: number;
  longestLockGapMs: number;
  longestLeaderGapMs: number;
  /** Eras after the first (ensemble wipes). */
  wipes: number;
  /** Interrupted sections whose ready record a wipe erased: nobody could repair them. */
  sectionsWiped: number;
  /** Their checkpointed increments that were never applied: lost to the wipe (a figure, not a violation). */
  incrementsLostToWipe: number;
  oversizeAttempts: number;
  oversizeRefused: number;
  /** Distinct sessions created by server 255 (ids starting with `ff`): whether that case was exercised. */
  sessionsOfServer255: number;
  /** `withLocks` calls, those whose fn ran and that returned normally, and the grants of their locks (the counter's included). */
  setCalls: number;
  setsCompleted: number;
  setHolds: number;
  /** Grants of the read/write lock, and the most readers holding it at once (readers really shared). */
  readHolds: number;
  writeHolds: number;
  maxConcurrentReaders: number;
  /** Grants of semaphore permits, those of more than one permit, and the most permits held at once. */
  semaphoreHolds: number;
  semaphoreMultiPermitHolds: number;
  maxPermitsHeld: number;
  /** The semaphore's capacity, as its calls gave it (0: no call). */
  semaphoreCapacity: number;
  /** Holds of these workloads that overlapped another because their process was frozen: excused. */
  excusedRecipeOverlaps: number;
  /** Calls of these workloads that tried once and found it busy (returned without running). */
  busyTries: number;
  /** Calls of these workloads that threw, by `what:error`. */
  recipeCallsFailed: Record<string, number>;
  /** Holds of these workloads that ended lost (signal aborted) or killed with their process, by `what endKind`: how often faults met them. */
  recipeHoldsLost: Record<string, number>;
  /** Release requests of the counter lock and step-down requests of the election, by outcome (`asked`, `asked again`: the node was marked already, `free`, an error, `no reply`). */
  releaseRequests: Record<string, number>;
  stepDownRequests: Record<string, number>;
  /** Lock tenures whose holder read `releaseRequested`; those a request's reply named (asked), and of them those that never read it (they keep the lock); those that saw a request. */
  holdersWatching: number;
  holdersAsked: number;
  holdersAskedNotWatching: number;
  holdersSawRequest: number;
  /** Holders that ended early when asked, by step (`before-checkpoint`, `after-checkpoint`, `abandoned`, `set`). */
  earlyEnds: Record<string, number>;
  /** Leaders that stepped down when asked; those after which another process led, and the longest such hand-over. */
  stepDowns: number;
  leaderChangesAfterRequest: number;
  longestStepDownHandOverMs: number;
  finalCounter: number;
  workerErrors: Record<string, number>;
  /** The partition workload's counts (partition-rules.ts). */
  partitions: PartitionFigures;
}

export interface CheckResult {
  readonly violations: Violations;
  readonly figures: CheckFigures;
}

const ms = (ns: number) => Math.round(ns / 1e6);

export function check(input: CheckInput): CheckResult {
  const violations = Object.fromEntries(VIOLATION_KINDS.map((kind) => [kind, [] as string[]])) as Violations;
  const run = reconstruct(input.workers, input.driver);
  const t0 = Math.min(...[...input.workers, ...input.driver].map((event) => event.t));
  const at = (t: number) => `${ms(t - t0)}ms`;
  const stopPhase = input.driver.find((event) => event.ev === 'phase' && event.name === 'stopping')?.t ?? Infinity;
  const figures: CheckFigures = {
    acquisitions: run.holds.length,
    acquisitionsBySets: run.holds.filter((hold) => hold.call !== undefined).length,
    sectionsCompleted: run.holds.filter((hold) => hold.completed && hold.call === undefined).length,
    sectionsFailed: countBy(run.holds.filter((hold) => hold.error !== undefined && hold.call === undefined).map((hold) => hold.error!)),
    sectionsOutcomeUnknown: run.holds.filter((hold) => hold.outcomeUnknown).length,
    storeAccepted: 0,
    storeRejectedStale: 0,
    storeLateAccepted: 0,
    beatsAccepted: 0,
    beatsRejectedStale: 0,
    recoveryRuns: 0,
    repairsApplied: 0,
    recoveryReruns: 0,
    unrepairedAtEnd: 0,
    excusedLockOverlaps: 0,
    excusedLeaderOverlaps: 0,
    leaderTerms: run.leaders.length,
    longestLockGapMs: ms(longestGap(run.holds.map((hold) => ({ start: hold.acquiredAt, end: hold.end })), stopPhase)),
    longestLeaderGapMs: ms(longestGap(run.leaders, stopPhase)),
    wipes: run.eraStarts.length,
    sectionsWiped: 0,
    incrementsLostToWipe: 0,
    oversizeAttempts: 0,
    oversizeRefused: 0,
    sessionsOfServer255: sessionsOfServer255(input.workers),
    setCalls: 0,
    setsCompleted: 0,
    setHolds: 0,
    readHolds: 0,
    writeHolds: 0,
    maxConcurrentReaders: 0,
    semaphoreHolds: 0,
    semaphoreMultiPermitHolds: 0,
    maxPermitsHeld: 0,
    semaphoreCapacity: 0,
    excusedRecipeOverlaps: 0,
    busyTries: 0,
    recipeCallsFailed: {},
    recipeHoldsLost: {},
    releaseRequests: {},
    stepDownRequests: {},
    holdersWatching: 0,
    holdersAsked: 0,
    holdersAskedNotWatching: 0,
    holdersSawRequest: 0,
    earlyEnds: {},
    stepDowns: 0,
    leaderChangesAfterRequest: 0,
    longestStepDownHandOverMs: 0,
    finalCounter: input.end.finalCounter,
    workerErrors: countBy(input.workers.flatMap((event) => (event.ev === 'error' ? [event.where] : []))),
    partitions: emptyPartitionFigures(),
  };

  // The store logs in processing order, with the driver's clock: sorting by time keeps that order.
  const sorted = [...input.store].sort((a, b) => a.t - b.t);
  // The partitions' counters are other data, fenced by other tokens: their ops have rules of their own.
  const store = sorted.filter((op) => op.partition === undefined);
  checkHolds(run, violations, figures, at);
  checkStore(run, store, violations, figures, at);
  checkRecovery(run, store, input.end, violations, figures, at);
  checkLeadership(run, violations, figures, at);
  checkOversize(run, input, violations, figures, at);
  const recipes = reconstructRecipes(run);
  checkRecipes(run, recipes, violations, figures, at);
  checkRecipeCalls(run, recipes, input, wipeDowntime(input.driver), violations, figures, at);
  checkRevocation(run, reconstructRevocation(run), input, violations, figures, at);
  const tenures = checkPartitions(run, sorted, input.end, violations, figures, at);
  checkLiveness(run, input, tenures, violations, figures, at);
  return { violations, figures };
}

/**
 * Invariants 1, 2, 5: holds never overlap (unless the older holder was frozen: a SIGSTOP or a blocked
 * event loop excuses it); tokens grow in grant order within an era. The counter lock's holds include
 * those of lock sets that name it: an overlap with one of them is a `set-overlap`.
 */
function checkHolds(run: Reconstruction, violations: Violations, figures: CheckFigures, at: (t: number) => string): void {
  let open: Hold[] = [];
  let previous: Hold | undefined;
  const excused = new Set<Hold>();
  for (const hold of run.holds) {
    // Tokens restart after a wipe: they are ordered within one era only.
    if (previous && previous.era === hold.era && BigInt(hold.token) <= BigInt(previous.token)) {
      const [stale, newer] = BigInt(hold.token) < BigInt(previous.token) ? [hold, previous] : [previous, hold];
      if (!stoppedDuring(run.stops, stale.w, stale.inc, stale.wantAt, newer.acquiredAt)) {
        violations['token-order'].push(`token ${hold.token} (w${hold.w}.${hold.inc}) granted at ${at(hold.acquiredAt)} after token ${previous.token} (w${previous.w}.${previous.inc}) at ${at(previous.acquiredAt)}`);
      }
    }
    previous = hold;
    open = open.filter((earlier) => earlier.end > hold.acquiredAt);
    for (const earlier of open) {
      const [stale, newer] = compareEraTokens(earlier, hold) < 0 ? [earlier, hold] : [hold, earlier];
      const what = `w${earlier.w}.${earlier.inc} token ${earlier.token} [${at(earlier.acquiredAt)}..${at(earlier.end)} ${earlier.endKind}] and w${hold.w}.${hold.inc} token ${hold.token} acquired at ${at(hold.acquiredAt)}`;
      if (stale !== newer && stoppedDuring(run.stops, stale.w, stale.inc, stale.wantAt, newer.acquiredAt)) {
        excused.add(stale);
        if (stale.completed) violations['stale-success'].push(`${what}: the stopped holder's call returned normally`);
      } else if (earlier.call !== undefined || hold.call !== undefined) {
        violations['set-overlap'].push(`${COUNTER_KEY}: ${what} (${earlier.call !== undefined ? 'set' : 'section'} and ${hold.call !== undefined ? 'set' : 'section'})`);
      } else {
        violations['lock-overlap'].push(what);
      }
    }
    open.push(hold);
  }
  figures.excusedLockOverlaps = excused.size;
}

/**
 * The store's own record: fencing held (accepted tokens never go back within an era), no
 * compare-and-set conflict, and no token of an earlier era accepted after the store's era changed
 * (the store cannot tell such a token from a new one: only the lease's loss, signalled while the
 * ensemble was down, keeps its holder from writing).
 */
function checkStore(run: Reconstruction, store: readonly StoreOp[], violations: Violations, figures: CheckFigures, at: (t: number) => string): void {
  const sorted = [...run.holds].sort(compareEraTokens);
  const successorGrant = new Map(sorted.map((hold, i) => [eraToken(hold.era, hold.token), sorted[i + 1]?.acquiredAt ?? Infinity]));
  // The newest era in which each incarnation held (or led with) each token.
  const heldIn = new Map<string, number>();
  for (const { w, inc, token, era } of [...run.holds, ...run.leaders]) heldIn.set(`${w}.${inc}:${token}`, Math.max(era, heldIn.get(`${w}.${inc}:${token}`) ?? 0));
  let newestLock: StoreOp | undefined;
  let newestBeat: StoreOp | undefined;
  for (const op of store) {
    const era = op.era ?? 0;
    const tokenEra = heldIn.get(`${op.w}.${op.inc}:${op.token}`);
    if (op.accepted && tokenEra !== undefined && tokenEra < era) {
      violations['store-order'].push(`${op.op} with token ${op.token} of era ${tokenEra} (w${op.w}.${op.inc}) accepted at ${at(op.t)} in era ${era}`);
    }
    if (op.op === 'beat') {
      if (!op.accepted) { figures.beatsRejectedStale++; continue; }
      figures.beatsAccepted++;
      if (newestBeat && (newestBeat.era ?? 0) === era && BigInt(op.token) < BigInt(newestBeat.token)) {
        violations['store-order'].push(`beat with leader token ${op.token} accepted at ${at(op.t)} after token ${newestBeat.token}`);
      }
      newestBeat = op;
      continue;
    }
    if (!op.accepted) {
      if (op.reason === 'stale') figures.storeRejectedStale++;
      else violations['cas-conflict'].push(`w${op.w}.${op.inc} token ${op.token} write expecting ${op.expect} refused at ${at(op.t)}: the counter had changed since its read`);
      continue;
    }
    figures.storeAccepted++;
    const sameEra = newestLock !== undefined && (newestLock.era ?? 0) === era;
    if (newestLock && sameEra && BigInt(op.token) < BigInt(newestLock.token)) {
      violations['store-order'].push(`${op.op} with token ${op.token} accepted at ${at(op.t)} after token ${newestLock.token}`);
    } else if (newestLock && sameEra && op.token === newestLock.token && (op.w !== newestLock.w || op.inc !== newestLock.inc)) {
      violations['store-order'].push(`token ${op.token} used by w${newestLock.w}.${newestLock.inc} and w${op.w}.${op.inc}`);
    }
    newestLock = op;
    if (op.t > (successorGrant.get(eraToken(era, op.token)) ?? Infinity)) figures.storeLateAccepted++;
  }
}

/**
 * No process stuck, none died on its own, nothing left behind. The time a wipe kept the ensemble
 * down (stopped, then restarting with empty data) does not count towards the stuck bound.
 */
function checkLiveness(run: Reconstruction, input: CheckInput, tenures: Map<number, Tenure[]>, violations: Violations, figures: CheckFigures, at: (t: number) => string): void {
  const bound = input.stuckBoundMs * 1e6;
  const wipes = input.driver.flatMap((event) => (event.ev === 'fault' && event.kind === 'wipe-ensemble' ? [{ start: event.start, end: event.end }] : []));
  const downWithin = wipeDowntime(input.driver);
  const longestWipeMs = ms(Math.max(0, ...wipes.map((wipe) => wipe.end - wipe.start)));
  for (const wait of run.waits) {
    const death = run.deaths.get(`${wait.w}.${wait.inc}`);
    if (!wait.granted && death?.killed && wait.until >= death.at) continue; // killed while waiting
    if (wait.until - wait.wantAt - downWithin(wait.wantAt, wait.until) > bound && !stoppedDuring(run.stops, wait.w, wait.inc, wait.wantAt, wait.until)) {
      violations.stuck.push(`w${wait.w}.${wait.inc} waited ${ms(wait.until - wait.wantAt)}ms from ${at(wait.wantAt)} (${wait.granted ? 'then granted' : 'never granted'})`);
    }
  }
  if (figures.longestLockGapMs > input.stuckBoundMs + longestWipeMs) violations.stuck.push(`nobody held the lock for ${figures.longestLockGapMs}ms`);
  if (figures.longestLeaderGapMs > input.stuckBoundMs + longestWipeMs) violations.stuck.push(`nobody led for ${figures.longestLeaderGapMs}ms`);
  // Every partition is owned again within the bound after its owner goes (a replica left, died or lost it).
  const stopPhase = input.driver.find((event) => event.ev === 'phase' && event.name === 'stopping')?.t ?? Infinity;
  for (const [p, list] of tenures) {
    const owned = list.flatMap((held) => (held.ownedAt === undefined ? [] : [{ start: held.ownedAt, end: held.end }]));
    const gap = ms(longestGap(owned, stopPhase));
    figures.partitions.longestOwnerGapMs = Math.max(figures.partitions.longestOwnerGapMs, gap);
    if (gap > input.stuckBoundMs + longestWipeMs) violations.stuck.push(`partition ${p} had no owner for ${gap}ms`);
  }
  for (const event of input.driver) {
    if (event.ev === 'stuck') violations.stuck.push(`w${event.w}.${event.inc}: ${event.note}`);
  }
  for (const [key, death] of run.deaths) {
    if (!death.killed && death.code !== 0) violations['unexpected-exit'].push(`w${key} exited with code ${death.code} signal ${death.signal} at ${at(death.at)}`);
  }
  for (const orphan of input.end.orphans) violations.orphan.push(orphan);
  const electionReady = input.end.electionReady;
  if (electionReady && electionReady.state !== 'ready') {
    violations['dirty-at-end'].push(`the election's ready znode is ${electionReady.state} with token ${electionReady.token} after every leader closed`);
  }
}

/** How long (ns) wipes kept the ensemble down within [from, to]. */
function wipeDowntime(driver: readonly DriverEvent[]): (from: number, to: number) => number {
  const wipes = driver.flatMap((event) => (event.ev === 'fault' && event.kind === 'wipe-ensemble' ? [{ start: event.start, end: event.end }] : []));
  return (from, to) => wipes.reduce((sum, wipe) => sum + Math.max(0, Math.min(to, wipe.end) - Math.max(from, wipe.start)), 0);
}

/** Longest stretch inside [first start, until] covered by no interval. */
export function longestGap(intervals: readonly { start: number; end: number }[], until: number): number {
  const sorted = [...intervals].sort((a, b) => a.start - b.start);
  if (sorted.length === 0) return 0;
  let covered = sorted[0]!.end;
  let longest = 0;
  for (const interval of sorted) {
    if (interval.start >= until) break;
    longest = Math.max(longest, interval.start - covered);
    covered = Math.max(covered, interval.end);
  }
  if (Number.isFinite(until)) longest = Math.max(longest, until - covered);
  return Math.max(0, longest);
}

function countBy(keys: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const key of keys) counts[key] = (counts[key] ?? 0) + 1;
  return counts;
}
