import { Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  FOR_EACH_OWNED_PARTITION_METADATA,
  LEADER_ONLY_METADATA,
  ON_LEADER_RECOVERY_METADATA,
  ON_PARTITION_RECOVERY_METADATA,
  type LeaderOnlyMetadata,
  type OnLeaderRecoveryMetadata,
  type PartitionSetMetadata,
} from '../zk-lock.constants.js';

/** Reads what the decorators recorded on a method (the one place that knows their metadata keys). */
@Injectable()
export class ZkLockMetadataAccessor {
  constructor(private readonly reflector: Reflector) {}

  /** The election a `@LeaderOnly` method runs for, if it is one. */
  leaderOnly(method: object): LeaderOnlyMetadata | undefined {
    return this.reflector.get<LeaderOnlyMetadata | undefined>(LEADER_ONLY_METADATA, method as (...args: unknown[]) => unknown);
  }

  /** The election an `@OnLeaderRecovery` method repairs for, if it is one. */
  onLeaderRecovery(method: object): OnLeaderRecoveryMetadata | undefined {
    return this.reflector.get<OnLeaderRecoveryMetadata | undefined>(ON_LEADER_RECOVERY_METADATA, method as (...args: unknown[]) => unknown);
  }

  /** The partition set a `@ForEachOwnedPartition` method runs for, if it is one. */
  forEachOwnedPartition(method: object): PartitionSetMetadata | undefined {
    return this.reflector.get<PartitionSetMetadata | undefined>(FOR_EACH_OWNED_PARTITION_METADATA, method as (...args: unknown[]) => unknown);
  }

  /** The partition set an `@OnPartitionRecovery` method repairs for, if it is one. */
  onPartitionRecovery(method: object): PartitionSetMetadata | undefined {
    return this.reflector.get<PartitionSetMetadata | undefined>(ON_PARTITION_RECOVERY_METADATA, method as (...args: unknown[]) => unknown);
  }
}
