/**
 * The assignment of a partition set: which member should own each partition. A pure function of
 * the live members and the previous assignment, so that every replica that computes it from the
 * same inputs gets the same answer, and so that it can be tested on its own.
 *
 * - **Even**: member `i` of capacity `c_i` gets `⌊N·c_i/C⌋` or one more (C the total capacity);
 *   with equal capacities every member gets `⌊N/M⌋` or `⌈N/M⌉`.
 * - **Sticky**: a member keeps every partition it had, up to its quota; only the partitions of
 *   members that left, of nobody, and a member's excess over its quota move. The "+1"s of the
 *   remainder go first to the members that already own more than their floor, so that no
 *   partition moves only to hand one out: the fewest moves of any even assignment (64
 *   partitions, 3 → 4 members: exactly 16 move).
 * - **Deterministic**: ties are broken by member id, never by input order or chance.
 */

/** One live member of a partition set: its id (its member node's name) and weight. */
export interface PartitionMember {
  readonly id: string;
  /** Weight, a positive integer; a member of capacity 2 gets twice the partitions of one of capacity 1. */
  readonly capacity: number;
  /** Partitions this member asked to give up (`handOver`): moved to another member when there is one. */
  readonly declined?: readonly number[];
}

/** Owner (member id) of each partition, by partition number; null: nobody. */
export type Owners = readonly (string | null)[];

/**
 * How many partitions each member should own: the floor of its share, plus one for as many members
 * with a fractional share as the floors leave partitions over: first those that own more than
 * their floor now (so that no partition moves only to hand out a "+1"), then the largest
 * remainders, then the smaller id.
 */
export function quotasOf(count: number, members: readonly PartitionMember[], held: ReadonlyMap<string, number>): Map<string, number> {
  const total = members.reduce((sum, member) => sum + member.capacity, 0);
  const shares = members.map((member) => ({ id: member.id, base: Math.floor((count * member.capacity) / total), rest: (count * member.capacity) % total }));
  let left = count - shares.reduce((sum, share) => sum + share.base, 0);
  // Above its floor already: giving it the "+1" saves taking a partition away from it.
  const above = (share: { id: string; base: number }) => ((held.get(share.id) ?? 0) > share.base ? 1 : 0);
  const eligible = shares.filter((share) => share.rest > 0).sort((a, b) => above(b) - above(a) || b.rest - a.rest || compareIds(a.id, b.id));
  const quotas = new Map(shares.map((share) => [share.id, share.base]));
  for (const share of eligible) {
    if (left === 0) break;
    quotas.set(share.id, share.base + 1);
    left -= 1;
  }
  return quotas;
}

/** The assignment of `count` partitions to `members`, moving as few as possible away from `current`. */
export function assignPartitions(count: number, members: readonly PartitionMember[], current: Owners): (string | null)[] {
  if (members.length === 0) return new Array<string | null>(count).fill(null);
  const sorted = [...members].sort((a, b) => compareIds(a.id, b.id));
  const live = new Set(sorted.map((member) => member.id));
  const owners: (string | null)[] = Array.from({ length: count }, (_, k) => {
    const owner = current[k] ?? null;
    return owner !== null && live.has(owner) ? owner : null;
  });
  const pinned = handOverDeclined(owners, sorted);

  const held = new Map<string, number>();
  for (const owner of owners) if (owner !== null) held.set(owner, (held.get(owner) ?? 0) + 1);
  const quotas = quotasOf(count, sorted, held);

  // Keep: each member's partitions up to its quota (those just handed to it first, then the lowest).
  const kept = new Map<string, number>(sorted.map((member) => [member.id, 0]));
  const order = Array.from({ length: count }, (_, k) => k).sort((a, b) => Number(pinned.has(b)) - Number(pinned.has(a)) || a - b);
  const result: (string | null)[] = new Array<string | null>(count).fill(null);
  for (const k of order) {
    const owner = owners[k];
    if (owner === null || kept.get(owner)! >= quotas.get(owner)!) continue;
    result[k] = owner;
    kept.set(owner, kept.get(owner)! + 1);
  }

  // Fill: every other partition, lowest first, to the member furthest below its quota.
  const declinedBy = declinersOf(sorted);
  for (let k = 0; k < count; k++) {
    if (result[k] !== null) continue;
    const willing = sorted.filter((member) => !declinedBy.get(k)?.has(member.id));
    const from = willing.some((member) => kept.get(member.id)! < quotas.get(member.id)!) ? willing : sorted;
    let best = from[0]!;
    for (const member of from) {
      if (quotas.get(member.id)! - kept.get(member.id)! > quotas.get(best.id)! - kept.get(best.id)!) best = member;
    }
    result[k] = best.id;
    kept.set(best.id, kept.get(best.id)! + 1);
  }
  return result;
}

/** Partitions whose owner changed from `before` to `after` (a partition that had no owner counts too). */
export function movedPartitions(before: Owners, after: Owners): number[] {
  const moved: number[] = [];
  for (let k = 0; k < after.length; k++) if ((before[k] ?? null) !== after[k]) moved.push(k);
  return moved;
}

/**
 * Moves each partition a member declined (and still owns) to the willing member furthest below its
 * current share, in `owners`; returns the partitions so moved, which their receivers keep first
 * (the receiver's excess is then another partition, which can go back to the decliner).
 */
function handOverDeclined(owners: (string | null)[], sorted: readonly PartitionMember[]): Set<number> {
  const pinned = new Set<number>();
  if (sorted.length < 2) return pinned;
  const declinedBy = declinersOf(sorted);
  for (const [k, decliners] of declinedBy) {
    const owner = owners[k];
    if (owner === undefined || owner === null || !decliners.has(owner)) continue;
    const count = (id: string) => owners.filter((o) => o === id).length / sorted.find((m) => m.id === id)!.capacity;
    const willing = sorted.filter((member) => !decliners.has(member.id));
    if (willing.length === 0) continue;
    const receiver = willing.reduce((best, member) => (count(member.id) < count(best.id) ? member : best));
    owners[k] = receiver.id;
    pinned.add(k);
  }
  return pinned;
}

function declinersOf(members: readonly PartitionMember[]): Map<number, Set<string>> {
  const declinedBy = new Map<number, Set<string>>();
  for (const member of members) {
    for (const k of member.declined ?? []) declinedBy.set(k, (declinedBy.get(k) ?? new Set()).add(member.id));
  }
  return declinedBy;
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
