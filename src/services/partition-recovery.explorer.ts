import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { DecoratorMisuseError } from '../errors/decorator-misuse.error.js';
import type { PartitionRecoveryHandler } from '../recipes/partition/partition-set.js';
import { forEachProviderMethod } from './decorated-methods.js';
import { PartitionService } from './partition.service.js';
import { ZkLockMetadataAccessor } from './zk-lock-metadata.accessor.js';

/**
 * Finds, at module init (before the sets join on bootstrap), the methods decorated with
 * `@OnPartitionRecovery` and registers each as its set's recovery handler; checks that every set
 * named by `@ForEachOwnedPartition` or `@OnPartitionRecovery` is declared (`UnknownPartitionSetError`).
 */
@Injectable()
export class PartitionRecoveryExplorer implements OnModuleInit {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly partitions: PartitionService,
    private readonly metadata: ZkLockMetadataAccessor,
  ) {}

  onModuleInit(): void {
    const registered = new Map<string, string>();
    forEachProviderMethod(this.discovery, this.scanner, (instance, name, method) => {
      const forEach = this.metadata.forEachOwnedPartition(method);
      if (forEach) this.partitions.set(forEach.set); // an undeclared set fails start-up, not the first tick
      const recovery = this.metadata.onPartitionRecovery(method);
      if (!recovery) return;
      const set = this.partitions.set(recovery.set);
      const where = `${instance.constructor.name}.${name}`;
      const previous = registered.get(set.name);
      if (previous !== undefined || set.hasRecoveryHandler) {
        throw new DecoratorMisuseError('OnPartitionRecovery', where, `partition set "${set.name}" already has a recovery handler${previous ? ` (${previous})` : ''}`);
      }
      registered.set(set.name, where);
      set.onRecovery((partition, interrupted, successor) => (method as PartitionRecoveryHandler).call(instance, partition, interrupted, successor));
    });
  }
}
