/**
 * The partition workload's rules (partition-workload.ts; tenures from partition-holds.ts), per
 * partition of the set, each partition being its own lock with its own fenced counter:
 * - `partition-overlap` (invariants 1 and 2 for a partition): no two processes believe they own
 *   a partition at once (owned from its first `owned$` value listing it until its lease's loss, or
 *   the end of its runs once `owned$` dropped it, or its process's death), unless the older one
 *   was frozen (SIGSTOP, blocked event loop): it can say nothing until it runs again;
 * - `partition-cas`: no write found its partition's counter changed since its read;
 * - `partition-store-order`: the tokens of the accepted ops on a partition never go back within an
 *   era, and no token is used by two processes;
 * - `partition-recovery` (invariant 6, as recovery-rules.ts for the counter): a tenure that left
 *   its partition's ready znode dirty is repaired by the partition's next owner to take over,
 *   before its work (or by a grant between them that was lost during its take-over), and by nobody
 *   after it; a repair names an older tenure of that partition;
 * - `partition-lost-increment`: every checkpointed increment is applied exactly once, by its own
 *   run or by the repair of it;
 * - `partition-end-state`: each partition's counter is the number of writes the store accepted for
 *   it (runs' and repairs'), and no partition's ready znode is dirty at the end although a later
 *   owner took over.
 *
 * Eras (the wipe fault) as for the counter: a dirty record erased by a wipe cannot be repaired; it
 * is counted, and so is its checkpointed increment when it was never applied.
 */
import type { CheckFigures, RunEnd, Violations } from './checker.js';
import type { StoreOp } from './event-log.js';
import { eraToken, stoppedDuring, type Reconstruction } from './holds.js';
import { reconstructPartitions, tookOver, type Tenure } from './partition-holds.js';

export interface PartitionFigures {
  /** Runs entered; of them completed (their tick said so); failed by error. */
  runs: number;
  runsCompleted: number;
  runsFailed: Record<string, number>;
  storeAccepted: number;
  refusedStale: number;
  /** Tenures that became owned; of them, those whose partition's previous owner was another process. */
  ownerships: number;
  ownershipChanges: number;
  /** Ownerships that overlapped the next owner's because their process was frozen: excused. */
  excusedOverlaps: number;
  /** Owned leases whose signal aborted other than by their release: lost with the session, or revoked at shutdown. */
  leasesLost: number;
  recoveryRuns: number;
  repairsApplied: number;
  recoveryReruns: number;
  unrepairedAtEnd: number;
  sectionsWiped: number;
  incrementsLostToWipe: number;
  /** The longest time (ms) a partition had no owner, after its first owner, before the workers were stopped. */
  longestOwnerGapMs: number;
  /** The sum of the partitions' counters at the end. */
  counterTotal: number;
}

export const emptyPartitionFigures = (): PartitionFigures => ({
  runs: 0, runsCompleted: 0, runsFailed: {}, storeAccepted: 0, refusedStale: 0, ownerships: 0, ownershipChanges: 0, excusedOverlaps: 0, leasesLost: 0,
  recoveryRuns: 0, repairsApplied: 0, recoveryReruns: 0, unrepairedAtEnd: 0, sectionsWiped: 0, incrementsLostToWipe: 0, longestOwnerGapMs: 0, counterTotal: 0,
});

/** Checks the partition rules; returns the tenures by partition (for the liveness check of checker.ts). */
export function checkPartitions(run: Reconstruction, store: readonly StoreOp[], end: RunEnd, violations: Violations, figures: CheckFigures, at: (t: number) => string): Map<number, Tenure[]> {
  const f = figures.partitions;
  const byPartition = reconstructPartitions(run);
  const ops = store.filter((op) => op.partition !== undefined);
  checkPartitionStore(ops, violations, f, at);
  const partitions = new Set([...byPartition.keys(), ...ops.map((op) => op.partition!), ...Object.keys(end.partitionCounters ?? {}).map(Number)]);
  for (const p of [...partitions].sort((a, b) => a - b)) {
    const tenures = byPartition.get(p) ?? [];
    countTenures(tenures, f);
    checkOwnership(p, tenures, run, violations, f, at);
    const unrepaired = new Set<string>();
    const wiped = new Set<string>();
    checkPartitionRecovery(p, tenures, run.eraStarts.length, unrepaired, wiped, violations, f, at);
    checkIncrements(p, tenures, ops.filter((op) => op.partition === p), end, unrepaired, wiped, violations, f);
    const ready = end.partitionReady?.[p];
    const lastEra = run.eraStarts.length;
    const laterTaker = ready && tenures.find((held) => held.era === lastEra && BigInt(held.token) > BigInt(ready.token) && tookOver(held));
    if (ready?.state === 'dirty' && laterTaker) {
      violations['partition-end-state'].push(`partition ${p}: the ready znode is dirty with token ${ready.token} at the end, although w${laterTaker.w}.${laterTaker.inc} token ${laterTaker.token} took over after it`);
    }
  }
  return byPartition;
}

/** At most one owner at a time (a frozen older owner excused). */
function checkOwnership(p: number, tenures: readonly Tenure[], run: Reconstruction, violations: Violations, f: PartitionFigures, at: (t: number) => string): void {
  const owned = tenures.filter((held) => held.ownedAt !== undefined).sort((a, b) => a.ownedAt! - b.ownedAt!);
  const excused = new Set<Tenure>();
  owned.forEach((held, i) => {
    for (const earlier of owned.slice(0, i)) {
      if (earlier.end <= held.ownedAt!) continue;
      const [stale, newer] = earlier.era < held.era || (earlier.era === held.era && BigInt(earlier.token) < BigInt(held.token)) ? [earlier, held] : [held, earlier];
      if (stoppedDuring(run.stops, stale.w, stale.inc, stale.ownedAt!, newer.ownedAt!)) {
        excused.add(stale);
        continue;
      }
      violations['partition-overlap'].push(`partition ${p}: w${earlier.w}.${earlier.inc} token ${earlier.token} owned it [${at(earlier.ownedAt!)}..${at(earlier.end)}] and w${held.w}.${held.inc} token ${held.token} from ${at(held.ownedAt!)}`);
    }
  });
  f.excusedOverlaps += excused.size;
}

/** Fencing per partition, and no compare-and-set conflict. */
function checkPartitionStore(ops: readonly StoreOp[], violations: Violations, f: PartitionFigures, at: (t: number) => string): void {
  const newest = new Map<number, StoreOp>();
  for (const op of ops) {
    const p = op.partition!;
    if (!op.accepted) {
      if (op.reason === 'stale') f.refusedStale++;
      else violations['partition-cas'].push(`partition ${p}: w${op.w}.${op.inc} token ${op.token} write expecting ${op.expect} refused at ${at(op.t)}: the counter had changed since its read`);
      continue;
    }
    f.storeAccepted++;
    const last = newest.get(p);
    if (last && (last.era ?? 0) === (op.era ?? 0)) {
      if (BigInt(op.token) < BigInt(last.token)) violations['partition-store-order'].push(`partition ${p}: ${op.op} with token ${op.token} (w${op.w}.${op.inc}) accepted at ${at(op.t)} after token ${last.token} (w${last.w}.${last.inc})`);
      else if (op.token === last.token && (op.w !== last.w || op.inc !== last.inc)) violations['partition-store-order'].push(`partition ${p}: token ${op.token} used by w${last.w}.${last.inc} and w${op.w}.${op.inc}`);
    }
    newest.set(p, op);
  }
}

function countTenures(tenures: readonly Tenure[], f: PartitionFigures): void {
  let previousOwner: string | undefined;
  for (const held of tenures) {
    f.runs += held.runs.length;
    f.runsCompleted += held.runs.filter((r) => r.exitAt !== undefined && r.error === undefined && held.ticksOk.has(r.tick)).length;
    for (const r of held.runs) if (r.error !== undefined) f.runsFailed[r.error] = (f.runsFailed[r.error] ?? 0) + 1;
    f.recoveryRuns += held.recoveries.length;
    if (held.lostAt !== undefined) f.leasesLost++;
    if (held.ownedAt === undefined) continue;
    f.ownerships++;
    const owner = `${held.w}.${held.inc}`;
    if (previousOwner !== undefined && previousOwner !== owner) f.ownershipChanges++;
    previousOwner = owner;
  }
}

/** Each dirty tenure: repaired by the next owner to take over, before its work, and by nobody after; no repair of a tenure that is not older. */
function checkPartitionRecovery(p: number, tenures: readonly Tenure[], lastEra: number, unrepaired: Set<string>, wiped: Set<string>, violations: Violations, f: PartitionFigures, at: (t: number) => string): void {
  const name = (held: Tenure) => `partition ${p}: w${held.w}.${held.inc} token ${held.token}`;
  const known = new Map(tenures.map((held) => [eraToken(held.era, held.token), held]));
  for (const held of tenures) {
    for (const r of held.recoveries) {
      const victim = known.get(eraToken(held.era, r.interrupted));
      if (!victim) violations['partition-recovery'].push(`${name(held)} repaired token ${r.interrupted}, which no owner of the partition logged`);
      else if (BigInt(victim.token) >= BigInt(held.token)) violations['partition-recovery'].push(`${name(held)} repaired a newer ${name(victim)}`);
    }
  }
  tenures.forEach((victim, index) => {
    if (victim.state !== 'interrupted' && victim.state !== 'unknown') return;
    const nextIndex = tenures.findIndex((held, i) => i > index && tookOver(held));
    const key = eraToken(victim.era, victim.token);
    // Its body ended cleanly (its increment written): a repair of it is optional, nothing of it can be lost.
    if (victim.state === 'unknown' && (nextIndex < 0 || tenures[nextIndex]!.era !== victim.era)) return;
    if ((nextIndex < 0 && victim.era < lastEra) || (nextIndex >= 0 && tenures[nextIndex]!.era !== victim.era)) {
      wiped.add(key); // its dirty record went with the wipe
      return;
    }
    if (nextIndex < 0) {
      unrepaired.add(key);
      return;
    }
    const next = tenures[nextIndex]!;
    const repair = next.recoveries.find((r) => r.interrupted === victim.token);
    const firstRun = next.runs[0]?.enterAt;
    const repairsOfVictim = (held: Tenure) => (held.era === victim.era ? held.recoveries.filter((r) => r.interrupted === victim.token).length : 0);
    // A grant between them that repaired it and was lost before it was owned may have completed its
    // take-over (the record deleted) or not: then the next owner repairs it again, or finds it clean.
    const between = tenures.slice(index + 1, nextIndex);
    const repairedBetween = between.some((held) => repairsOfVictim(held) > 0);
    if (!repair && !repairedBetween && victim.state === 'interrupted') {
      const last = victim.runs.at(-1);
      const why = last ? (last.error ?? (last.exitAt === undefined ? 'its run never ended' : 'its run ended')) : 'repaired by a later owner';
      violations['partition-recovery'].push(`${name(victim)} (${why}) was not repaired by the partition's next owner to take over, ${name(next)}`);
    } else if (repair && firstRun !== undefined && repair.at > firstRun) {
      violations['partition-recovery'].push(`${name(next)} repaired ${name(victim)} at ${at(repair.at)}, after its own run began`);
    }
    for (const held of between) f.recoveryReruns += repairsOfVictim(held);
    for (const later of tenures.slice(nextIndex + 1)) {
      if (repairsOfVictim(later) > 0) violations['partition-recovery'].push(`${name(victim)} repaired again by ${name(later)} after ${name(next)}`);
    }
  });
  f.unrepairedAtEnd += unrepaired.size;
  f.sectionsWiped += wiped.size;
}

/** Every checkpointed increment of the partition applied exactly once (by its run or by the repair of it); the counter is the accepted writes. */
function checkIncrements(p: number, tenures: readonly Tenure[], ops: readonly StoreOp[], end: RunEnd, unrepaired: Set<string>, wiped: Set<string>, violations: Violations, f: PartitionFigures): void {
  const writes = ops.filter((op) => op.op === 'write' && op.accepted);
  const repairs = new Map<string, number>();
  for (const op of writes) {
    if (op.kind !== 'repair') continue;
    f.repairsApplied++;
    const victim = eraToken(op.era ?? 0, op.interrupted!);
    repairs.set(victim, (repairs.get(victim) ?? 0) + 1);
  }
  for (const [victim, count] of repairs) {
    if (count > 1) violations['partition-recovery'].push(`partition ${p}: the increment of token ${victim} was repaired ${count} times`);
  }
  const final = end.partitionCounters?.[p] ?? 0;
  f.counterTotal += final;
  const byExpect = new Map(writes.map((op) => [op.expect!, op]));
  const checkpoints = new Map<string, { era: number; token: string; v: number }>();
  for (const held of tenures) {
    for (const r of held.runs) for (const v of r.checkpoints) checkpoints.set(`${eraToken(held.era, held.token)}:${v}`, { era: held.era, token: held.token, v });
    for (const r of held.recoveries) if (r.checkpoint !== undefined) checkpoints.set(`${eraToken(held.era, r.interrupted)}:${r.checkpoint}`, { era: held.era, token: r.interrupted, v: r.checkpoint });
  }
  for (const { era, token, v } of checkpoints.values()) {
    const write = byExpect.get(v);
    const own = write !== undefined && (write.era ?? 0) === era && ((write.kind === 'section' && write.token === token) || (write.kind === 'repair' && write.interrupted === token));
    if (own) continue;
    if (wiped.has(eraToken(era, token))) {
      f.incrementsLostToWipe++;
      continue;
    }
    if (!write && v === final && unrepaired.has(eraToken(era, token))) continue; // interrupted last, nobody came after
    violations['partition-lost-increment'].push(
      write
        ? `partition ${p}: token ${token} checkpointed ${v}, but ${v} -> ${v + 1} was written by token ${write.token} (${write.kind}${write.interrupted ? ` of ${write.interrupted}` : ''})`
        : `partition ${p}: token ${token} checkpointed ${v}, and ${v} -> ${v + 1} was never written`,
    );
  }
  if (final !== writes.length) violations['partition-end-state'].push(`partition ${p}: its counter says ${final}, but the store accepted ${writes.length} writes for it`);
}
