import { ZkLockError } from './zk-lock.error.js';

/** A partition set was asked for by a name that no `partitions` entry (or `PartitionService.declare`) declared. */
export class UnknownPartitionSetError extends ZkLockError {
  constructor(
    readonly setName: string,
    readonly known: readonly string[],
  ) {
    const declared = known.length === 0 ? 'none is declared' : `declared: ${known.map((name) => `"${name}"`).join(', ')}`;
    super('ZK_UNKNOWN_PARTITION_SET', `Unknown partition set "${setName}" (${declared}); declare it in the module's \`partitions\` option`);
  }
}
