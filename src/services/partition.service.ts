import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { Observable } from 'rxjs';
import { UnknownPartitionSetError } from '../errors/unknown-partition-set.error.js';
import type { PartitionRecoveryHandler, PartitionSection, PartitionSet } from '../recipes/partition/partition-set.js';
import { ZK_LOCK_OPTIONS } from '../zk-lock.constants.js';
import type { ResolvedZkLockOptions } from '../zk-lock.options.js';
import { ZK_LOCK_BACKEND, type ZkLockBackend } from './zk-lock-backend.js';

/**
 * Partitioned leadership for Nest: the partition sets of the module's `partitions` option, each a
 * `PartitionSet` (see it for the guarantees). `owned$(set)` is to a set what `isLeader$` is to an
 * election; `@ForEachOwnedPartition(set)` what `@LeaderOnly` is.
 *
 * Lifecycle: every set joins on `onApplicationBootstrap` (after `@OnPartitionRecovery` handlers
 * were registered at module init); on shutdown each leaves (its partitions move to the other
 * replicas at once), gives running work `drainTimeoutMs`, releases its partitions' locks, and
 * `owned$` completes; the module closes the session after that.
 */
@Injectable()
export class PartitionService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('ZkLock');
  private readonly sets = new Map<string, PartitionSet>();

  constructor(
    @Inject(ZK_LOCK_BACKEND) backend: ZkLockBackend,
    @Inject(ZK_LOCK_OPTIONS) options: ResolvedZkLockOptions,
  ) {
    for (const { name, count, capacity } of options.partitions) {
      const set = backend.createPartitionSet({ root: options.root, name, count, capacity, identity: options.identity, drainTimeoutMs: options.drainTimeoutMs, logger: this.logger });
      this.sets.set(name, set);
    }
  }

  /** The partition set `name` (`UnknownPartitionSetError` unless the `partitions` option declares it). */
  set(name: string): PartitionSet {
    const set = this.sets.get(name);
    if (!set) throw new UnknownPartitionSetError(name, [...this.sets.keys()]);
    return set;
  }

  /** Names of the declared sets. */
  setNames(): string[] {
    return [...this.sets.keys()];
  }

  /** The partitions of `set` this process owns, ascending: replays, emits on change, completes on shutdown. */
  owned$(set: string): Observable<readonly number[]> {
    return this.set(set).owned$;
  }

  /** The partitions of `set` this process owns right now. */
  owned(set: string): readonly number[] {
    return this.set(set).ownedNow;
  }

  /** Partition `partition` of `set`: its fencing token and signal while this process owns it, else undefined. */
  ownership(set: string, partition: number): { readonly token: bigint; readonly signal: AbortSignal } | undefined {
    return this.set(set).ownership(partition);
  }

  /** Runs `fn` as a guarded run of `partition` if this process owns it, else resolves undefined (see `PartitionSet.run`). */
  run<T>(set: string, partition: number, fn: (section: PartitionSection) => T | Promise<T>): Promise<T | undefined> {
    return this.set(set).run(partition, fn);
  }

  /** Runs `fn` once per partition of `set` owned now, concurrently (see `PartitionSet.forEachOwned`). */
  forEachOwned<T>(set: string, fn: (section: PartitionSection) => T | Promise<T>): Promise<T[]> {
    return this.set(set).forEachOwned(fn);
  }

  /** Asks for `partition` of `set` to move to another replica (see `PartitionSet.handOver`). */
  handOver(set: string, partition: number): Promise<void> {
    return this.set(set).handOver(partition);
  }

  /** The recovery handler of `set` (one per set); returns a function that removes it. */
  onRecovery(set: string, handler: PartitionRecoveryHandler): () => void {
    return this.set(set).onRecovery(handler);
  }

  onApplicationBootstrap(): void {
    for (const set of this.sets.values()) set.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all([...this.sets.values()].map((set) => set.close()));
  }
}
