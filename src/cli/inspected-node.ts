/** One queue node: a holder or waiter of a lock, a participant of an election. */
export interface InspectedNode {
  /** The znode's name, `_c_<uuid>-lock-<seq>` or `_c_<uuid>-n-<seq>`. */
  readonly node: string;
  /** Its sequence number: the queue order. */
  readonly sequence: number;
  /** The data of the node: who created it (`identity` option, `<hostname>:<pid>` by default); null if empty. */
  readonly identity: string | null;
  /** Hex id of the session that owns the (ephemeral) node. */
  readonly sessionId: string;
  /** When the node was created (server clock), ISO 8601. */
  readonly createdAt: string;
  /** Now (this machine's clock) minus `createdAt`, at least 0. */
  readonly ageMs: number;
  /**
   * The node's czxid, decimal: the fencing token of a lock holder, either side of a read/write
   * lock, or a leader (`queueNodeToken`; on `driver: 'native'` a lock holder's may be a little
   * above it, `listingToken`). A semaphore holder's is the directory's pzxid in the listing that
   * granted it (`permitToken`): at least this value, not recoverable from outside.
   */
  readonly zxid: string;
  /** Someone asked this holder (leader) to let go (`nestjs-zk-lock release`, `step-down`): its node carries the mark. */
  readonly releaseRequested: boolean;
}

/** The `ready` znode of a lock or election with recovery (see the README, "Recovery"). */
export type InspectedReady =
  | {
      /** `dirty`: a guarded section is running, or its holder died (or threw) half-way. */
      readonly state: 'ready' | 'dirty';
      /** Fencing token (decimal) of the holder that wrote the record. */
      readonly token: string;
      /** Identity of that holder. */
      readonly holder: string;
      /** When it entered (dirty) or finished (ready) its section, ISO 8601. */
      readonly since: string;
      /** Its last `checkpoint()` value; present only when it recorded one. */
      readonly checkpoint?: unknown;
    }
  | { readonly state: 'corrupt'; readonly problem: string };
