import { validateLockName } from '../recipes/lock-name.js';
import { PartitionService } from '../services/partition.service.js';
import { ON_PARTITION_RECOVERY_METADATA, type PartitionSetMetadata } from '../zk-lock.constants.js';
import { PARTITION_SERVICE_PROPERTY } from './for-each-owned-partition.decorator.js';
import { injectOnce, instanceMethod } from './method-decorator.js';

/**
 * Makes a provider method the recovery handler of partition set `set`: called with
 * `(partition, interrupted, successor)` when this process takes over a partition whose previous
 * owner died (or its run threw) mid-run, before the partition is reported owned; if it throws, it
 * is retried with back-off while the partition is ours. One per set (a second fails start-up with
 * `DecoratorMisuseError`); the class must see `ZkLockModule`, as for `@ForEachOwnedPartition`.
 */
export function OnPartitionRecovery(set: string): MethodDecorator {
  validateLockName(set);
  return (target, key, descriptor) => {
    const method = instanceMethod('OnPartitionRecovery', target, key, descriptor, 'static methods cannot be recovery handlers (Nest discovers instance methods)', 'recovery handlers');
    injectOnce(PartitionService, target, PARTITION_SERVICE_PROPERTY);
    const metadata: PartitionSetMetadata = { set };
    Reflect.defineMetadata(ON_PARTITION_RECOVERY_METADATA, metadata, method);
    return descriptor;
  };
}
