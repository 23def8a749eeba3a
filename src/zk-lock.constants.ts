/** Injection token of the validated options (`ResolvedZkLockOptions`). */
export const ZK_LOCK_OPTIONS = Symbol('nestjs-zk-lock:options');

// The decorators write these, and `ZkLockMetadataAccessor` alone reads them.

/** On a `@WithLock` method (the wrapper): `{ name, options }`. For tools that list a class's locked methods. */
export const WITH_LOCK_METADATA = 'nestjs-zk-lock:with_lock';
/** On a `@WithLocks` method (the wrapper): `{ names, options }`. As `WITH_LOCK_METADATA`. */
export const WITH_LOCKS_METADATA = 'nestjs-zk-lock:with_locks';
/** On a `@WithReadLock` / `@WithWriteLock` method (the wrapper): `{ name, options }`. As `WITH_LOCK_METADATA`. */
export const WITH_READ_LOCK_METADATA = 'nestjs-zk-lock:with_read_lock';
export const WITH_WRITE_LOCK_METADATA = 'nestjs-zk-lock:with_write_lock';
/** On a `@WithSemaphore` method (the wrapper): `{ name, options }`. As `WITH_LOCK_METADATA`. */
export const WITH_SEMAPHORE_METADATA = 'nestjs-zk-lock:with_semaphore';

/** On a `@LeaderOnly` method (the wrapper). */
export const LEADER_ONLY_METADATA = 'nestjs-zk-lock:leader_only';

/** On an `@OnLeaderRecovery` method. */
export const ON_LEADER_RECOVERY_METADATA = 'nestjs-zk-lock:on_leader_recovery';

/** What `@LeaderOnly` records. */
export interface LeaderOnlyMetadata {
  /** undefined: the module's default election. */
  readonly election: string | undefined;
}

/** What `@OnLeaderRecovery` records. */
export interface OnLeaderRecoveryMetadata {
  /** undefined: the module's default election. */
  readonly election: string | undefined;
}

/** On a `@ForEachOwnedPartition` method (the wrapper). */
export const FOR_EACH_OWNED_PARTITION_METADATA = 'nestjs-zk-lock:for_each_owned_partition';

/** On an `@OnPartitionRecovery` method. */
export const ON_PARTITION_RECOVERY_METADATA = 'nestjs-zk-lock:on_partition_recovery';

/** What `@ForEachOwnedPartition` and `@OnPartitionRecovery` record: the partition set. */
export interface PartitionSetMetadata {
  readonly set: string;
}
