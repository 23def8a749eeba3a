/** What the driver and its workers agree on (chaos-worker.ts runs on import, so it exports nothing). */
import type { ZkDriver } from '../../src/zookeeper/open-session-handle.js';
export const LOCK_NAME = 'counter';
export const ELECTION_NAME = 'chaos';

/**
 * The `withLocks` workload: each set names the counter lock (shared with the single `@WithLock`
 * sections, so that sets and single calls contend) or not, and the two locks only sets take, in
 * caller orders that are not always canonical (`aux-*` sorts before `counter`).
 */
export const SET_LOCK_NAMES = ['aux-1', 'aux-2'] as const;
export const LOCK_SETS: readonly (readonly string[])[] = [
  [LOCK_NAME, 'aux-1'],
  ['aux-2', LOCK_NAME],
  ['aux-2', 'aux-1'],
  [LOCK_NAME, 'aux-2', 'aux-1'],
];
/** The read/write lock of the read/write workload. */
export const READ_WRITE_NAME = 'shelf';
/** The semaphore of the semaphore workload, and its capacity (calls take 1 or 2 permits). */
export const SEMAPHORE_NAME = 'pool';
export const SEMAPHORE_PERMITS = 3;
/**
 * The partition workload's set (`ZkLockModule.forRoot({ partitions })`) and its partition count:
 * small enough that each of the 5 workers owns one or two, large enough that every fault lands on
 * some partition's owner.
 */
export const PARTITION_SET = 'shards';
export const PARTITION_COUNT = 8;

/**
 * How the event logs name a lock: its directory relative to the root, as the library's events give
 * it (`locks/counter`, `rwlocks/shelf`, `semaphores/pool`): a read/write lock and a semaphore may
 * share a name with a lock and still be other locks.
 */
export const lockKey = (kind: 'lock' | 'rw' | 'semaphore', name: string): string =>
  `${kind === 'lock' ? 'locks' : kind === 'rw' ? 'rwlocks' : 'semaphores'}/${name}`;
export const COUNTER_KEY = lockKey('lock', LOCK_NAME);
/** How the event logs name the election (its directory relative to the root), as a target of step-down requests. */
export const ELECTION_KEY = `elections/${ELECTION_NAME}`;

/** The worker's configuration, passed as its one argument (JSON). */
export interface WorkerConfig {
  w: number;
  inc: number;
  connect: string;
  root: string;
  sessionTimeoutMs: number;
  driver: ZkDriver;
  logFile: string;
}
