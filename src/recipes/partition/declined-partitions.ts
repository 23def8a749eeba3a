/** The member node's declined list as this replica last wrote or read it. */
interface Seen {
  /** The member node's name: a new session makes a new node, and a read of the old one says nothing about it. */
  readonly node: string;
  readonly version: number;
  readonly declined: readonly number[];
}

/**
 * The partitions one replica asks to give up, and how they meet its member node's `declined` list.
 *
 * Two writers put partitions into that list: the replica itself (`PartitionSet.handOver`) and an
 * operator (`requestHandOver`, the CLI's `hand-over`), who only ever adds, and only while the
 * replica owns the partition. Only the replica takes a partition out, once it went elsewhere. So
 * what an operator asked is what the node lists beyond what the replica last wrote or read there
 * (`stored − seen`): it is taken into this set, and leaves it the same way as the replica's own
 * requests. Writing `stored ∪ ours` instead would keep every partition ever declined in the node
 * for the life of the session, and none of them could be assigned back to this replica.
 */
export class DeclinedPartitions {
  private readonly asked = new Set<number>();
  private seen: Seen | undefined;

  /** The partitions declined now, ascending: what the next write of the member node lists. */
  get list(): number[] {
    return [...this.asked].sort((a, b) => a - b);
  }

  has(partition: number): boolean {
    return this.asked.has(partition);
  }

  /** Declines `partition`; false when it was declined already. */
  add(partition: number): boolean {
    if (this.asked.has(partition)) return false;
    this.asked.add(partition);
    return true;
  }

  /** No longer declines `partitions` (they went elsewhere). */
  delete(partitions: readonly number[]): void {
    for (const k of partitions) this.asked.delete(k);
  }

  /** Forgets a request of ours that could not be written, unless the node lists it (an operator asked the same). */
  forget(partition: number): void {
    if (!this.seen?.declined.includes(partition)) this.asked.delete(partition);
  }

  /** We wrote `declined` into `node` (made it with them: version 0); the node now has `version`. */
  wrote(node: string, version: number, declined: readonly number[]): void {
    this.seen = { node, version, declined: [...declined] };
  }

  /**
   * A read of `node` at `version` listed `stored`: takes in what an operator added since we last
   * wrote or read it. Returns whether that declined anything new. A read of another node (one an
   * earlier session made) or of an older version than we saw tells nothing, and is ignored.
   */
  merge(node: string, version: number, stored: readonly number[]): boolean {
    const seen = this.seen;
    if (seen === undefined || seen.node !== node || version <= seen.version) return false;
    this.seen = { node, version, declined: [...stored] };
    const added = stored.filter((k) => !seen.declined.includes(k) && !this.asked.has(k));
    for (const k of added) this.asked.add(k);
    return added.length > 0;
  }
}
