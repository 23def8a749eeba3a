import { DecoratorMisuseError } from '../errors/decorator-misuse.error.js';
import { validateLockName } from '../recipes/lock-name.js';
import { PartitionService } from '../services/partition.service.js';
import { FOR_EACH_OWNED_PARTITION_METADATA, type PartitionSetMetadata } from '../zk-lock.constants.js';
import { copyMetadata, describeMethod, injectOnce, instanceMethod, missingServiceReason } from './method-decorator.js';

/**
 * Property under which Nest injects PartitionService into classes that use @ForEachOwnedPartition or
 * @OnPartitionRecovery; its description is what Nest's start-up error shows when it is missing.
 */
export const PARTITION_SERVICE_PROPERTY = Symbol(
  'PartitionService for @ForEachOwnedPartition / @OnPartitionRecovery: import ZkLockModule.forRoot(...) or forRootAsync(...) in the module that provides this class, or in a module it imports (or make ZkLockModule isGlobal)',
);

/**
 * Runs the method once for every partition of `set` this process owns at the call (concurrently;
 * none when it owns none), as a guarded run of that partition (`PartitionSet.run`): the method
 * receives the partition number and the run (`token`, `signal`, `checkpoint()`), then the call's
 * own arguments. If this process dies mid-run, the partition's next owner runs the set's recovery
 * handler (`@OnPartitionRecovery`) first. Resolves with the runs' results; rejects when a run threw
 * (several: `AggregateError`) after the others finished. Composes with `@Cron` / `@Interval` in
 * either order.
 *
 * ```ts
 * @Cron('* * * * * *')
 * @ForEachOwnedPartition('outbox')
 * async relay(partition: number, run: PartitionSection) { ... }
 * ```
 */
export function ForEachOwnedPartition(set: string): MethodDecorator {
  validateLockName(set);
  return (target, key, descriptor) => {
    const where = describeMethod(target, key);
    const original = instanceMethod('ForEachOwnedPartition', target, key, descriptor, 'static methods cannot run per partition (no instance to inject PartitionService into)', 'run per partition');
    injectOnce(PartitionService, target, PARTITION_SERVICE_PROPERTY);
    const wrapper = function (this: Record<symbol, unknown>, ...args: unknown[]) {
      const partitions = this?.[PARTITION_SERVICE_PROPERTY];
      if (!(partitions instanceof PartitionService)) {
        // Never run without knowing which partitions we own.
        return Promise.reject(new DecoratorMisuseError('ForEachOwnedPartition', where, missingServiceReason('PartitionService', where)));
      }
      return partitions.forEachOwned(set, (section) => original.call(this, section.partition, section, ...args));
    };
    Object.defineProperty(wrapper, 'name', { value: original.name });
    copyMetadata(original, wrapper);
    const metadata: PartitionSetMetadata = { set };
    Reflect.defineMetadata(FOR_EACH_OWNED_PARTITION_METADATA, metadata, wrapper);
    descriptor.value = wrapper as typeof descriptor.value;
    return descriptor;
  };
}
