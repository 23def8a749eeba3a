/**
 * Invariant 6 and the counter: a section interrupted mid-way (its holder killed, or its call failed
 * after it entered) is repaired by exactly the next holder that enters its own section, before that
 * section's work; every checkpointed increment is applied exactly once, by its own section or by
 * the repair of it; the final counter is the number of accepted increments.
 *
 * "Entered" needs care: a holder can enter the guarded section (its dirty record is written) and die
 * or lose the lock before its method body logs `enter`. The next holder's repair of it is proof
 * enough, so a hold counts as entered when it logged `enter` or somebody recovered it.
 */
import type { StoreOp } from './event-log.js';
import type { CheckFigures, RunEnd, Violations } from './checker.js';
import type { Hold, Reconstruction } from './holds.js';

export function checkRecovery(
  run: Reconstruction,
  store: readonly StoreOp[],
  end: RunEnd,
  violations: Violations,
  figures: CheckFigures,
  at: (t: number) => string,
): void {
  const holds = [...run.holds].sort((a, b) => compareTokens(a.token, b.token));
  const byToken = new Map(holds.map((hold) => [hold.token, hold]));
  const recoveredNames = new Set(holds.flatMap((hold) => hold.recoveries.map((r) => r.interrupted)));
  const entered = (hold: Hold) => hold.enterAt !== undefined || recoveredNames.has(hold.token);
  const name = (hold: Hold) => `w${hold.w}.${hold.inc} token ${hold.token}`;

  // A repair must name a section that really was interrupted, and an older one.
  for (const hold of holds) {
    for (const recovery of hold.recoveries) {
      figures.recoveryRuns++;
      const victim = byToken.get(recovery.interrupted);
      if (!victim) violations['recovery-spurious'].push(`${name(hold)} repaired token ${recovery.interrupted}, which no holder logged`);
      else if (victim.completed) violations['recovery-spurious'].push(`${name(hold)} repaired ${name(victim)}, whose call had completed`);
      else if (compareTokens(victim.token, hold.token) >= 0) violations['recovery-spurious'].push(`${name(hold)} repaired a newer ${name(victim)}`);
    }
  }

  // Each interrupted section: repaired by the first later holder that entered, before its work, and by nobody after it.
  const unrepaired = new Set<string>();
  holds.forEach((victim, index) => {
    if (!entered(victim) || victim.completed || victim.outcomeUnknown) return;
    const nextIndex = holds.findIndex((hold, i) => i > index && entered(hold));
    if (nextIndex < 0) {
      unrepaired.add(victim.token);
      return;
    }
    const next = holds[nextIndex]!;
    const repair = next.recoveries.find((r) => r.interrupted === victim.token);
    if (!repair) {
      violations['recovery-missing'].push(`${name(victim)} (${victim.error ?? victim.endKind}) was not repaired by the next holder to enter, ${name(next)}`);
    } else if (next.enterAt !== undefined && repair.at > next.enterAt) {
      violations['recovery-missing'].push(`${name(next)} repaired ${name(victim)} at ${at(repair.at)}, after its own section began`);
    }
    // Holders between the two started the repair but never entered (killed, lost, or it failed): re-runs.
    for (const between of holds.slice(index + 1, nextIndex)) {
      figures.recoveryReruns += between.recoveries.filter((r) => r.interrupted === victim.token).length;
    }
    for (const later of holds.slice(nextIndex + 1)) {
      if (later.recoveries.some((r) => r.interrupted === victim.token)) {
        violations['recovery-duplicate'].push(`${name(victim)} repaired again by ${name(later)} after ${name(next)}`);
      }
    }
  });
  figures.unrepairedAtEnd = unrepaired.size;

  // The repairs' effects, as the store saw them: at most one applied per interrupted section.
  const writes = store.filter((op) => op.op === 'write' && op.accepted);
  const repairs = new Map<string, number>();
  for (const op of writes) if (op.kind === 'repair') repairs.set(op.interrupted!, (repairs.get(op.interrupted!) ?? 0) + 1);
  figures.repairsApplied = writes.filter((op) => op.kind === 'repair').length;
  for (const [victim, count] of repairs) {
    if (count > 1) violations['recovery-duplicate'].push(`the increment of token ${victim} was repaired ${count} times`);
  }

  // Every checkpointed increment (from the section's own line, or from what its repairer was handed) is
  // applied exactly once, by that section or by the repair of it.
  const byExpect = new Map(writes.map((op) => [op.expect!, op]));
  const checkpoints = new Map<string, { token: string; v: number }>();
  for (const hold of holds) {
    for (const v of hold.checkpoints) checkpoints.set(`${hold.token}:${v}`, { token: hold.token, v });
    for (const r of hold.recoveries) if (r.checkpoint !== undefined) checkpoints.set(`${r.interrupted}:${r.checkpoint}`, { token: r.interrupted, v: r.checkpoint });
  }
  for (const { token, v } of checkpoints.values()) {
    const write = byExpect.get(v);
    if (write && ((write.kind === 'section' && write.token === token) || (write.kind === 'repair' && write.interrupted === token))) continue;
    if (!write && v === end.finalCounter && unrepaired.has(token)) continue; // interrupted last, nobody came after
    violations['lost-increment'].push(
      write
        ? `token ${token} checkpointed ${v}, but ${v} -> ${v + 1} was written by token ${write.token} (${write.kind}${write.interrupted ? ` of ${write.interrupted}` : ''})`
        : `token ${token} checkpointed ${v}, and ${v} -> ${v + 1} was never written`,
    );
  }

  if (end.finalCounter !== writes.length) {
    violations.counter.push(`the counter file says ${end.finalCounter}, but the store accepted ${writes.length} increments`);
  }
  const ready = end.lockReady;
  if (ready?.state === 'dirty' && !unrepaired.has(ready.token)) {
    violations['dirty-at-end'].push(`the ready znode is dirty with token ${ready.token}, although a later holder entered`);
  }
}

export function compareTokens(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
