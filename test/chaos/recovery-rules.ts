/**
 * Invariant 6 and the counter: a section interrupted mid-way (its holder killed, or its call failed
 * after it entered) is repaired by exactly the next holder that enters its own section, before that
 * section's work; every checkpointed increment is applied exactly once, by its own section or by
 * the repair of it; the final counter is the number of accepted increments.
 *
 * "Entered" needs care: a holder can enter the guarded section (its dirty record is written) and die
 * or lose the lock before its method body logs `enter`. The next holder's repair of it is proof
 * enough, so a hold counts as entered when it logged `enter` or somebody recovered it.
 *
 * Eras (the wipe fault): tokens are named `era:token`, and a repair names a section of its own era.
 * A section interrupted in an era that no later holder of that era entered had its dirty record
 * erased by the wipe: nobody can repair it, so it is counted (`sectionsWiped`), not a violation, and
 * its checkpointed increment, when never applied, is counted as lost to the wipe
 * (`incrementsLostToWipe`): the documented cost of wiping the ensemble's data.
 */
import type { StoreOp } from './event-log.js';
import type { CheckFigures, RunEnd, Violations } from './checker.js';
import { compareEraTokens, eraToken, type Hold, type Reconstruction } from './holds.js';

export function checkRecovery(
  run: Reconstruction,
  store: readonly StoreOp[],
  end: RunEnd,
  violations: Violations,
  figures: CheckFigures,
  at: (t: number) => string,
): void {
  const holds = [...run.holds].sort(compareEraTokens);
  const key = (hold: Hold) => eraToken(hold.era, hold.token);
  const byToken = new Map(holds.map((hold) => [key(hold), hold]));
  const recoveredNames = new Set(holds.flatMap((hold) => hold.recoveries.map((r) => eraToken(hold.era, r.interrupted))));
  const entered = (hold: Hold) => hold.enterAt !== undefined || recoveredNames.has(key(hold));
  const name = (hold: Hold) => `w${hold.w}.${hold.inc} token ${hold.token}`;

  // A repair must name a section that really was interrupted, and an older one.
  for (const hold of holds) {
    for (const recovery of hold.recoveries) {
      figures.recoveryRuns++;
      const victim = byToken.get(eraToken(hold.era, recovery.interrupted));
      if (!victim) violations['recovery-spurious'].push(`${name(hold)} repaired token ${recovery.interrupted}, which no holder logged`);
      else if (victim.completed) violations['recovery-spurious'].push(`${name(hold)} repaired ${name(victim)}, whose call had completed`);
      else if (compareTokens(victim.token, hold.token) >= 0) violations['recovery-spurious'].push(`${name(hold)} repaired a newer ${name(victim)}`);
    }
  }

  // Each interrupted section: repaired by the first later holder that entered, before its work, and by nobody after it.
  const unrepaired = new Set<string>();
  const wiped = new Set<string>();
  const lastEra = run.eraStarts.length;
  holds.forEach((victim, index) => {
    if (!entered(victim) || victim.completed || victim.outcomeUnknown) return;
    const nextIndex = holds.findIndex((hold, i) => i > index && entered(hold));
    if ((nextIndex < 0 && victim.era < lastEra) || (nextIndex >= 0 && holds[nextIndex]!.era !== victim.era)) {
      wiped.add(key(victim)); // its dirty record went with the wipe
      return;
    }
    if (nextIndex < 0) {
      unrepaired.add(key(victim));
      return;
    }
    const next = holds[nextIndex]!;
    const repair = next.recoveries.find((r) => r.interrupted === victim.token);
    if (!repair) {
      violations['recovery-missing'].push(`${name(victim)} (${victim.error ?? victim.endKind}) was not repaired by the next holder to enter, ${name(next)}`);
    } else if (next.enterAt !== undefined && repair.at > next.enterAt) {
      violations['recovery-missing'].push(`${name(next)} repaired ${name(victim)} at ${at(repair.at)}, after its own section began`);
    }
    // A repair names a token of its own holder's era: the same number in another era (zxids
    // restart after a wipe) is another section.
    const repairsOfVictim = (hold: Hold) => (hold.era === victim.era ? hold.recoveries.filter((r) => r.interrupted === victim.token) : []);
    // Holders between the two started the repair but never entered (killed, lost, or it failed): re-runs.
    for (const between of holds.slice(index + 1, nextIndex)) {
      figures.recoveryReruns += repairsOfVictim(between).length;
    }
    for (const later of holds.slice(nextIndex + 1)) {
      if (repairsOfVictim(later).length > 0) {
        violations['recovery-duplicate'].push(`${name(victim)} repaired again by ${name(later)} after ${name(next)}`);
      }
    }
  });
  figures.unrepairedAtEnd = unrepaired.size;
  figures.sectionsWiped = wiped.size;

  // The repairs' effects, as the store saw them: at most one applied per interrupted section.
  const writes = store.filter((op) => op.op === 'write' && op.accepted);
  const repairs = new Map<string, number>();
  for (const op of writes) if (op.kind === 'repair') repairs.set(eraToken(op.era ?? 0, op.interrupted!), (repairs.get(eraToken(op.era ?? 0, op.interrupted!)) ?? 0) + 1);
  figures.repairsApplied = writes.filter((op) => op.kind === 'repair').length;
  for (const [victim, count] of repairs) {
    if (count > 1) violations['recovery-duplicate'].push(`the increment of token ${victim} was repaired ${count} times`);
  }

  // Every checkpointed increment (from the section's own line, or from what its repairer was handed) is
  // applied exactly once, by that section or by the repair of it.
  const byExpect = new Map(writes.map((op) => [op.expect!, op]));
  const checkpoints = new Map<string, { era: number; token: string; v: number }>();
  for (const hold of holds) {
    for (const v of hold.checkpoints) checkpoints.set(`${key(hold)}:${v}`, { era: hold.era, token: hold.token, v });
    for (const r of hold.recoveries) if (r.checkpoint !== undefined) checkpoints.set(`${eraToken(hold.era, r.interrupted)}:${r.checkpoint}`, { era: hold.era, token: r.interrupted, v: r.checkpoint });
  }
  for (const { era, token, v } of checkpoints.values()) {
    const write = byExpect.get(v);
    const own = write !== undefined && (write.era ?? 0) === era && ((write.kind === 'section' && write.token === token) || (write.kind === 'repair' && write.interrupted === token));
    if (own) continue;
    if (wiped.has(eraToken(era, token))) {
      figures.incrementsLostToWipe++;
      continue;
    }
    if (!write && v === end.finalCounter && unrepaired.has(eraToken(era, token))) continue; // interrupted last, nobody came after
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
  if (ready?.state === 'dirty' && !unrepaired.has(eraToken(lastEra, ready.token))) {
    violations['dirty-at-end'].push(`the ready znode is dirty with token ${ready.token}, although a later holder entered`);
  }
}

export function compareTokens(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
