/**
 * The chaos run's report: a short table on stdout and the same as JSON (`figures.json` in the run
 * dir). Violations are listed with their first few details, so a failing run says what went wrong.
 */
import { FAULT_KINDS, type FaultKind } from './event-log.js';
import { VIOLATION_KINDS, type CheckResult } from './checker.js';
import type { PartitionFigures } from './partition-rules.js';

export interface RunReport {
  readonly seed: number;
  readonly durationS: number;
  readonly workers: number;
  readonly sessionTimeoutMs: number;
  readonly wallClockS: number;
  readonly faults: Record<FaultKind, number>;
  /** The kinds the run was to inject (`--faults`), default every kind. */
  readonly kinds?: readonly FaultKind[];
  readonly result: CheckResult;
}

/** Every violation count 0 and every fault kind injected. */
export function passed(report: RunReport): boolean {
  const clean = VIOLATION_KINDS.every((kind) => report.result.violations[kind].length === 0);
  return clean && missingFaults(report).length === 0;
}

export function missingFaults(report: RunReport): FaultKind[] {
  return (report.kinds ?? FAULT_KINDS).filter((kind) => !report.faults[kind]);
}

export function toJson(report: RunReport): unknown {
  const { violations, figures } = report.result;
  return {
    seed: report.seed,
    durationS: report.durationS,
    wallClockS: report.wallClockS,
    workers: report.workers,
    sessionTimeoutMs: report.sessionTimeoutMs,
    passed: passed(report),
    faults: report.faults,
    ...(report.kinds && { kinds: report.kinds }),
    violations: Object.fromEntries(VIOLATION_KINDS.map((kind) => [kind, violations[kind].length])),
    violationDetails: Object.fromEntries(VIOLATION_KINDS.filter((kind) => violations[kind].length > 0).map((kind) => [kind, violations[kind].slice(0, 50)])),
    figures,
  };
}

export function formatReport(report: RunReport): string {
  const { violations, figures: f } = report.result;
  const list = (counts: Record<string, number>) =>
    Object.entries(counts)
      .map(([key, count]) => `${key} ${count}`)
      .join(', ') || 'none';
  const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);
  const violationCounts = Object.fromEntries(VIOLATION_KINDS.map((kind) => [kind, violations[kind].length]));
  const violationTotal = total(violationCounts);
  const rows: [string, string][] = [
    ['run', `seed ${report.seed}, ${report.durationS} s of faults, ${report.workers} workers, session timeout ${report.sessionTimeoutMs} ms, ${report.wallClockS} s in all`],
    ['acquisitions', `${f.acquisitions} (by lock sets ${f.acquisitionsBySets}; sections completed ${f.sectionsCompleted}; failed: ${list(f.sectionsFailed)}; after the body, outcome unknown ${f.sectionsOutcomeUnknown})`],
    ['store ops', `accepted ${f.storeAccepted}, refused as stale ${f.storeRejectedStale}, accepted late but in token order ${f.storeLateAccepted}`],
    ['leader heartbeats', `accepted ${f.beatsAccepted}, refused as stale ${f.beatsRejectedStale}; leadership terms ${f.leaderTerms}`],
    ['faults', list(report.faults)],
    ['recoveries', `runs ${f.recoveryRuns}, increments repaired ${f.repairsApplied}, re-runs ${f.recoveryReruns}, unrepaired at end ${f.unrepairedAtEnd}`],
    ['longest unavailability', `lock ${f.longestLockGapMs} ms, leadership ${f.longestLeaderGapMs} ms`],
    ['excused overlaps', `lock ${f.excusedLockOverlaps}, leadership ${f.excusedLeaderOverlaps} (SIGSTOPped or blocked holder / leader)`],
    ['wipes', `${f.wipes} (interrupted sections erased ${f.sectionsWiped}, their increments lost ${f.incrementsLostToWipe})`],
    ['oversize', `attempts ${f.oversizeAttempts}, refused as too large ${f.oversizeRefused}`],
    ['server 255', `sessions created by it ${f.sessionsOfServer255}`],
    ['lock sets', `calls ${f.setCalls} (completed ${f.setsCompleted}), grants of their locks ${f.setHolds}`],
    ['read/write', `reads ${f.readHolds}, writes ${f.writeHolds}, most readers at once ${f.maxConcurrentReaders}`],
    ['semaphore', `grants ${f.semaphoreHolds} (of 2+ permits ${f.semaphoreMultiPermitHolds}), most permits held at once ${f.maxPermitsHeld} of ${f.semaphoreCapacity}`],
    ['workload calls', `busy tries ${f.busyTries}, excused overlaps ${f.excusedRecipeOverlaps} (frozen holder); failed: ${list(f.recipeCallsFailed)}`],
    ['workload holds ended', `by faults: ${list(f.recipeHoldsLost)}`],
    ['release requests', `${total(f.releaseRequests)} (${list(f.releaseRequests)}); holders that read releaseRequested ${f.holdersWatching}, asked ${f.holdersAsked} (of them never looking ${f.holdersAskedNotWatching}), saw a request ${f.holdersSawRequest}; early ends: ${list(f.earlyEnds)}`],
    ['step-down requests', `${total(f.stepDownRequests)} (${list(f.stepDownRequests)}); step-downs ${f.stepDowns}, then another leader ${f.leaderChangesAfterRequest} (longest hand-over ${f.longestStepDownHandOverMs} ms)`],
    ['counter', `${f.finalCounter}`],
    ['partitions', partitionRow(f.partitions, list)],
    ['worker errors', list(f.workerErrors)],
    ['violations', `${violationTotal === 0 ? 'none: ' : ''}${list(violationCounts)}`],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  const lines = rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`);
  for (const kind of VIOLATION_KINDS) {
    for (const detail of violations[kind].slice(0, 5)) lines.push(`  ! ${kind}: ${detail}`);
    if (violations[kind].length > 5) lines.push(`  ! ${kind}: ... ${violations[kind].length - 5} more`);
  }
  const missing = missingFaults(report);
  if (missing.length > 0) lines.push(`  ! fault kinds never injected: ${missing.join(', ')}`);
  return lines.join('\n');
}

/** The partition workload's line: its runs, store ops, ownerships and repairs. */
function partitionRow(p: PartitionFigures, list: (counts: Record<string, number>) => string): string {
  return [
    `runs ${p.runs} (completed ${p.runsCompleted}; failed: ${list(p.runsFailed)})`,
    `store ops accepted ${p.storeAccepted}, refused as stale ${p.refusedStale}`,
    `ownerships ${p.ownerships} (changed hands ${p.ownershipChanges}, leases lost ${p.leasesLost}, excused overlaps ${p.excusedOverlaps})`,
    `recoveries ${p.recoveryRuns} (increments repaired ${p.repairsApplied}, re-runs ${p.recoveryReruns}, unrepaired at end ${p.unrepairedAtEnd}, erased by wipes ${p.sectionsWiped}, their increments lost ${p.incrementsLostToWipe})`,
    `longest without an owner ${p.longestOwnerGapMs} ms`,
    `counters ${p.counterTotal} in all`,
  ].join('; ');
}
