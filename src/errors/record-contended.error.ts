import { ZkLockError } from './zk-lock.error.js';

/**
 * A compare-and-set of the record at `path` (a partition set's member node) lost to another
 * writer on each of `attempts` tries: the record changed between every read and write. Given up
 * rather than retried forever against a writer that never stops (a script, a tool in a loop).
 */
export class RecordContendedError extends ZkLockError {
  constructor(
    readonly path: string,
    readonly attempts: number,
  ) {
    super('ZK_RECORD_CONTENDED', `Gave up writing ${path}: another writer changed it between the read and the write on each of ${attempts} tries`);
  }
}
