import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { DecoratorMisuseError } from '../errors/decorator-misuse.error.js';
import type { RecoveryHandler } from '../recipes/ready/ready-state.js';
import { forEachProviderMethod } from './decorated-methods.js';
import { LeaderService } from './leader.service.js';
import { ZkLockMetadataAccessor } from './zk-lock-metadata.accessor.js';

/**
 * Finds, at module init (before any election joins on bootstrap), the methods decorated with
 * `@OnLeaderRecovery` and registers them as their election's recovery handler, and creates the
 * elections that `@LeaderOnly` methods name, so that they join on bootstrap too.
 */
@Injectable()
export class LeaderRecoveryExplorer implements OnModuleInit {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly leaderService: LeaderService,
    private readonly metadata: ZkLockMetadataAccessor,
  ) {}

  onModuleInit(): void {
    const registered = new Map<string, string>();
    forEachProviderMethod(this.discovery, this.scanner, (instance, name, method) => {
      const leaderOnly = this.metadata.leaderOnly(method);
      if (leaderOnly) this.leaderService.election(leaderOnly.election);
      const recovery = this.metadata.onLeaderRecovery(method);
      if (!recovery) return;
      const election = this.leaderService.election(recovery.election);
      const where = `${instance.constructor.name}.${name}`;
      const previous = registered.get(election.name);
      if (previous !== undefined || election.hasRecoveryHandler) {
        throw new DecoratorMisuseError('OnLeaderRecovery', where, `election "${election.name}" already has a recovery handler${previous ? ` (${previous})` : ''}`);
      }
      registered.set(election.name, where);
      election.onRecovery((interrupted, successor) => (method as RecoveryHandler).call(instance, interrupted, successor));
    });
  }
}
