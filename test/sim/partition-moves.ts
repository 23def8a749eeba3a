/**
 * **Fewest moves**, the check of every assignment a partition set's assigner writes (issue 33),
 * computed on its own rather than with the recipe's `assignPartitions`, so that a defect there
 * cannot hide in the check.
 *
 * What "minimal" can mean. Not "from the ownership when the faults stopped to the final one": the
 * assignment is sticky one change at a time, and a sequence of changes is not the fewest moves
 * from its start to its end. A member that rejoins on a new session is a new member (its node's
 * name is drawn per session), so its partitions go to the others when the old node goes and some
 * come back when the new one appears, not necessarily the same ones; a move decided before the
 * faults stopped may still be draining then, and a later change (a crashed member's session
 * expiring after the faults) can make it unneeded in hindsight; and an assigner that reads the
 * members on a lagging server computes from a list older than the assignment it replaces. Each
 * is correct, and each moves more than the fewest from that snapshot.
 *
 * What holds of every write, faults or not: the write is a compare-and-set on the version it
 * computed from, so the assignment it replaces is exactly its input, and its members are those it
 * names (each member gets at least one partition while there are no more members than partitions;
 * with more, the ones left without are those that held none). So: every write is even over the
 * members it names, and no even assignment of those members keeps more partitions of the one it
 * replaces. Together with the end check (the owners the replicas report are those of the final
 * assignment), the partitions that change hands once the faults are over are a sum of such fewest
 * steps. It assumes what the simulation's workload does: equal capacities, no `handOver`.
 */

/** Owner (member node name) of each partition, by partition number; null: nobody. */
export type AssignedOwners = readonly (string | null)[];

/** A member node's name as a message shows it: `m-` and the uuid's first eight digits tell them apart; `-` for nobody. */
export const shortMember = (member: string | null | undefined): string => member?.slice(0, 10) ?? '-';

/**
 * The fewest partitions that any even assignment of `count` partitions to `members` (equal
 * capacities) changes from `before`: each member keeps at most its quota (⌊N/M⌋, or one more for
 * N mod M of them) of what it held, best with the "+1"s on members that hold more than ⌊N/M⌋.
 */
export function fewestMoves(count: number, before: AssignedOwners, members: ReadonlySet<string>): number {
  if (members.size === 0) return Array.from({ length: count }, (_, k) => before[k] ?? null).filter((owner) => owner !== null).length;
  const floor = Math.floor(count / members.size);
  const held = new Map<string, number>();
  for (let k = 0; k < count; k++) {
    const owner = before[k] ?? null;
    if (owner !== null && members.has(owner)) held.set(owner, (held.get(owner) ?? 0) + 1);
  }
  let kept = 0;
  let above = 0;
  for (const member of members) {
    const n = held.get(member) ?? 0;
    kept += Math.min(n, floor);
    if (n > floor) above++;
  }
  return count - kept - Math.min(count % members.size, above);
}

/** Partitions whose owner differs from `before` to `after` (one that had no owner counts too). */
export function movesBetween(count: number, before: AssignedOwners, after: AssignedOwners): number {
  let moved = 0;
  for (let k = 0; k < count; k++) if ((before[k] ?? null) !== (after[k] ?? null)) moved++;
  return moved;
}

/**
 * Undefined when `after` (an assignment written in place of `before`) is complete and even over
 * the members it names and moves the fewest partitions; else what is wrong, and which rule it breaks.
 */
export function judgeAssignment(count: number, before: AssignedOwners, after: AssignedOwners): { rule: string; message: string } | undefined {
  const members = new Set(after.filter((owner): owner is string => owner !== null));
  const shown = (owners: AssignedOwners) => `[${Array.from({ length: count }, (_, k) => shortMember(owners[k])).join(', ')}]`;
  const change = `${shown(before)} → ${shown(after)}`;
  if (members.size > 0) {
    const counts = [...members].map((member) => after.filter((owner) => owner === member).length);
    const low = Math.floor(count / members.size);
    if (after.includes(null) || counts.some((n) => n < low || n > Math.ceil(count / members.size))) {
      return { rule: 'partition-assignment-uneven', message: `the assignment ${change} is not complete and even over the ${members.size} members it names` };
    }
  }
  const moved = movesBetween(count, before, after);
  const fewest = fewestMoves(count, before, members);
  if (moved > fewest) return { rule: 'partition-moves-not-fewest', message: `the assignment ${change} moves ${moved} partitions where ${fewest} suffice for its ${members.size} members` };
  return undefined;
}
