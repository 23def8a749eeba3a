/**
 * The invariants of partitioned leadership (`PartitionSet`, issue 33), checked as `Invariants` checks
 * locks: the workload reports take-overs, `checkStep` runs after every step, and a broken invariant
 * is recorded through `Invariants.violate`. The repairs of interrupted runs go through the guarded
 * sections of `Invariants` (scope `partition:<k>`), as a lock's do.
 */
import type { Invariants } from './invariants.js';
import { judgeAssignment, shortMember, type AssignedOwners } from './partition-moves.js';

/** The stored assignment as the leader's tree holds it now: its owners, its version, and the zxid of its create. */
export interface StoredAssignment {
  readonly owners: AssignedOwners;
  readonly version: number;
  readonly czxid: bigint;
}

/** What one process believes it owns: partition → the token it owns it under. */
export type PartitionClaims = () => ReadonlyMap<number, bigint>;

export class PartitionInvariants {
  private readonly claimants = new Map<string, { claims: PartitionClaims; alive: () => boolean; era: number }>();
  private readonly lastOwner = new Map<number, { token: bigint; process: string }>();
  /** Counts the wipes of the ensemble: a claim of an older era is not comparable (see `Invariants.newEra`). */
  private era = 0;
  /** The assignment's reader (see `followAssignment`), and the last version of it seen. */
  private assignment: { read: () => StoredAssignment | undefined; last: StoredAssignment | undefined } | undefined;
  /** Take-overs reported, runs, repairs, and assignment writes judged (see `followAssignment`). */
  readonly counts = { takeOvers: 0, runs: 0, repairs: 0, assignmentsJudged: 0 };

  constructor(private readonly invariants: Invariants) {}

  /**
   * **One believed owner** (checked after every step): at no step do two live processes of one era
   * claim a partition. A process claims partition k while its set reports k owned (`ownedNow`, the
   * lease's own synchronous answer) or while a run of k is in progress whose `signal` has not
   * aborted: a run goes on after the partition left `owned$` (it is moving and drains), and the
   * next owner must not be granted it until that run returned or was told of the loss.
   */
  watch(process: string, claims: PartitionClaims, alive: () => boolean): void {
    this.claimants.set(process, { claims, alive, era: this.era });
  }

  /**
   * **Fencing order per partition**: the token of each take-over is above the tokens of every
   * earlier owner of the partition (the same owner may report the same ownership again after a
   * suspension).
   */
  tookOver(process: string, partition: number, token: bigint): void {
    this.counts.takeOvers++;
    const last = this.lastOwner.get(partition);
    if (last && (token < last.token || (token === last.token && last.process !== process))) {
      this.invariants.violate('partition-token-order', `partition ${partition}: ${process} took it over with token ${token} after ${last.process} owned it with token ${last.token}`);
    }
    this.lastOwner.set(partition, { token, process });
  }

  /**
   * **Fewest moves** (checked after every step, see `judgeAssignment`): each assignment written is
   * complete and even over the members it names and moves no more partitions than needed from the
   * one it replaced. A step is one event, and an event applies at most one write to the node; a
   * version seen to skip one (or a node recreated other than by the first create) is not judged,
   * nor anything after a wipe, where a write computed from the old tree may land on the new one.
   */
  followAssignment(read: () => StoredAssignment | undefined): void {
    this.assignment = { read, last: undefined };
  }

  /** The ensemble was wiped: tokens start over, and claims of the old era are not compared with the new. */
  newEra(): void {
    this.era++;
    this.lastOwner.clear();
  }

  checkStep(): void {
    this.checkAssignment();
    const owners = new Map<number, string>();
    for (const [process, claimant] of this.claimants) {
      if (claimant.era !== this.era || !claimant.alive()) continue;
      for (const [partition, token] of claimant.claims()) {
        const other = owners.get(partition);
        if (other === undefined) {
          owners.set(partition, `${process} (token ${token})`);
          continue;
        }
        this.invariants.violate('partition-owners-overlap', `partition ${partition} is claimed by ${other} and ${process} (token ${token}) at once`);
        this.claimants.delete(process); // report once
        break;
      }
    }
  }

  private checkAssignment(): void {
    if (!this.assignment) return;
    const { last } = this.assignment;
    const now = this.assignment.read();
    if (now?.version === last?.version && now?.czxid === last?.czxid) return;
    this.assignment.last = now;
    if (!now || this.era > 0) return;
    const before = last === undefined ? (now.version === 0 ? [] : undefined) : last.czxid === now.czxid && now.version === last.version + 1 ? last.owners : undefined;
    if (before === undefined) return;
    this.counts.assignmentsJudged++;
    const wrong = judgeAssignment(now.owners.length, before, now.owners);
    if (wrong) this.invariants.violate(wrong.rule, `version ${now.version}: ${wrong.message}`);
  }

  /**
   * **Complete, even, and where the assignment says, once the faults are over**: every partition
   * owned by exactly one of `members` (live processes in the set), each owning ⌊N/M⌋ or ⌈N/M⌉, and
   * each owning exactly what `assigned` (the stored assignment) gives its member node: no move is
   * left half-done, and no replica owns what the assignment moved away (with `followAssignment`,
   * the ownership's changes are then the assignment's, each of the fewest moves). Undefined when
   * it holds, else what is wrong.
   */
  static unsettled(
    count: number,
    members: readonly { readonly process: string; readonly owned: readonly number[]; readonly member?: string }[],
    assigned?: AssignedOwners,
  ): string | undefined {
    if (members.length === 0) return undefined;
    const owners = new Map<number, string[]>();
    for (const { process, owned } of members) for (const k of owned) owners.set(k, [...(owners.get(k) ?? []), process]);
    const missing = Array.from({ length: count }, (_, k) => k).filter((k) => !owners.has(k));
    if (missing.length > 0) return `partitions ${missing.join(', ')} are owned by nobody`;
    const low = Math.floor(count / members.length);
    const uneven = members.filter(({ owned }) => owned.length < low || owned.length > Math.ceil(count / members.length));
    if (uneven.length > 0) return `uneven: ${members.map(({ process, owned }) => `${process} owns ${owned.length}`).join(', ')} of ${count}`;
    if (assigned === undefined) return undefined;
    const astray = members.filter(({ owned, member }) => {
      const given = Array.from({ length: count }, (_, k) => k).filter((k) => member !== undefined && assigned[k] === member);
      return given.length !== owned.length || given.some((k, i) => owned[i] !== k);
    });
    if (astray.length > 0) return `not as assigned: ${astray.map(({ process, owned, member }) => `${process} (${shortMember(member)}) owns [${owned.join(', ')}]`).join(', ')}; the assignment: [${Array.from({ length: count }, (_, k) => shortMember(assigned[k])).join(', ')}]`;
    return undefined;
  }
}
