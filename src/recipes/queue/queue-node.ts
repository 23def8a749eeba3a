/**
 * Names of queue znodes: `_c_<uuid>-<marker>-<sequence>`, e.g. `_c_3f2a…-lock-0000000042`.
 *
 * The uuid prefix (Curator's "protected" mode) lets an acquire that lost the reply of its
 * create find the node it may have created. It also breaks lexical order, so the queue is
 * sorted by the numeric sequence suffix. ZooKeeper formats the parent's signed 32-bit count of
 * child creates (its internal cversion; clients read creates plus deletes, see the conformance
 * suite) with `%010d`, so after `2147483647` (2^31 acquisitions of a lock whose directory never
 * empties) comes `-2147483648`.
 * A plain numeric (or Curator's and kazoo's string) sort would put that newer node ahead of
 * every older one: it would see itself at the head while the holder still holds. So sequences
 * are compared in serial-number arithmetic (RFC 1982, modulo 2^32), which orders the queue by
 * creation across any wrap as long as the live nodes of one directory span fewer than 2^31
 * sequence numbers.
 */
export interface QueueNode {
  readonly name: string;
  readonly id: string;
  /** What the node queues for: its recipe's kind of request (a read/write lock queues both). */
  readonly marker: QueueMarker;
  readonly sequence: number;
}

/**
 * A lock's `lock`, an election's `n`, a read/write lock's `read` and `write`, a semaphore's
 * `permits` (spelt in the name as the permits the node takes of the capacity, `2of8`).
 */
export type QueueMarker = 'lock' | 'n' | 'read' | 'write' | 'permits';

/** How a node's name spells its marker: a semaphore node's says what it takes of which capacity. */
export type MarkerText = Exclude<QueueMarker, 'permits'> | `${number}of${number}`;

/** Our own node in a queue: the one a join created, or adopted after its create's reply was lost. */
export interface OwnNode {
  readonly path: string;
  /** Its name in the directory (`_c_<uuid>-<marker text>-<seq10>`). */
  readonly name: string;
  /** The session that owns it: the node dies with it. */
  readonly sessionId: string;
  /**
   * Its holder's fencing token under the `'own-node'` rule (see `fencing.ts`): its czxid, from the
   * create's reply (`create2`) or a read of its stat, or on the C client a zxid that orders it the
   * same way (`listingToken`). Learned once, never changed.
   */
  token?: bigint;
}

const QUEUE_NODE = /^_c_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-(lock|n|read|write|\d{1,9}of\d{1,9})-(-?\d{1,11})$/;

/**
 * Whether a node with this `ephemeralOwner` may be owned by a session, i.e. may be a holder.
 * Only `0` (a persistent node) is certainly not: a queue-node name on it was written by hand, and
 * it never goes away by itself, so waiting for it would block forever. The other special owners
 * are look-alikes of real sessions and must count as holders: ZooKeeper puts the server id in the
 * top byte of every session id, so a server with id 255 makes sessions `ff…` (the TTL marker) and
 * one with id 128 sessions `80…` (the container marker's byte). A TTL or container node named like
 * a queue node may delay the queue behind it (until it is removed); skipping a live holder would
 * let two in.
 */
export function isSessionOwned(ephemeralOwner: string): boolean {
  return ephemeralOwner !== '0';
}

/** The path to create (EPHEMERAL_SEQUENTIAL appends the sequence). */
export function queueNodePrefix(dir: string, id: string, marker: MarkerText): string {
  return `${dir}/_c_${id}-${marker}-`;
}

/** The queue node named `name` if it queues for one of `markers`. */
export function parseQueueNode(name: string, markers: QueueMarker | readonly QueueMarker[]): QueueNode | undefined {
  const match = QUEUE_NODE.exec(name);
  const text = match?.[2];
  const marker: QueueMarker | undefined = text === undefined ? undefined : text.includes('of') ? 'permits' : (text as QueueMarker);
  if (!match || !marker || !(typeof markers === 'string' ? marker === markers : markers.includes(marker))) return undefined;
  return { name, id: match[1]!, marker, sequence: Number(match[3]) };
}

/**
 * The queue in grant order. Children that are not queue nodes of these markers (the `ready`
 * znode, anything written by hand) are left out: they can never be taken for holders.
 */
export function sortQueue(children: readonly string[], markers: QueueMarker | readonly QueueMarker[]): QueueNode[] {
  const queue: QueueNode[] = [];
  for (const child of children) {
    const node = parseQueueNode(child, markers);
    if (node) queue.push(node);
  }
  return queue.sort(compareQueueNodes);
}

/**
 * Creation order: the sign of the difference taken modulo 2^32 (`| 0`), so `2147483647` comes
 * before `-2147483648`. Equal sequences (only possible for a node written by hand) are ordered
 * by name, so that every client sees the same order.
 */
export function compareQueueNodes(a: QueueNode, b: QueueNode): number {
  return (a.sequence - b.sequence) | 0 || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}
