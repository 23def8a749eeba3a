var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { Injectable } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { DecoratorMisuseError } from '../errors/decorator-misuse.error.js';
import { LeaderService } from './leader.service.js';
import { ZkLockMetadataAccessor } from './zk-lock-metadata.accessor.js';
/**
 * Finds, at module init (before any election joins on bootstrap), the methods decorated with
 * `@OnLeaderRecovery` and registers them as their election's recovery handler, and creates the
 * elections that `@LeaderOnly` methods name, so that they join on bootstrap too.
 */
let LeaderRecoveryExplorer = class LeaderRecoveryExplorer {
    constructor(discovery, scanner, leaderService, metadata) {
        this.discovery = discovery;
        this.scanner = scanner;
        this.leaderService = leaderService;
        this.metadata = metadata;
    }
    onModuleInit() {
        const registered = new Map();
        for (const wrapper of [...this.discovery.getControllers(), ...this.discovery.getProviders()]) {
            const instance = wrapper.instance;
            // Request-scoped providers have no instance to call at recovery time.
            if (!instance || typeof instance !== 'object' || !wrapper.isDependencyTreeStatic())
                continue;
            const prototype = Object.getPrototypeOf(instance);
            if (!prototype)
                continue;
            for (const name of this.scanner.getAllMethodNames(prototype)) {
                const method = instance[name];
                if (typeof method !== 'function')
                    continue;
                const leaderOnly = this.metadata.leaderOnly(method);
                if (leaderOnly)
                    this.leaderService.election(leaderOnly.election);
                const recovery = this.metadata.onLeaderRecovery(method);
                if (!recovery)
                    continue;
                const election = this.leaderService.election(recovery.election);
                const where = `${instance.constructor.name}.${name}`;
                const previous = registered.get(election.name);
                if (previous !== undefined || election.hasRecoveryHandler) {
                    throw new DecoratorMisuseError('OnLeaderRecovery', where, `election "${election.name}" already has a recovery handler${previous ? ` (${previous})` : ''}`);
                }
                registered.set(election.name, where);
                election.onRecovery((interrupted, successor) => method.call(instance, interrupted, successor));
            }
        }
    }
};
LeaderRecoveryExplorer = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [DiscoveryService,
        MetadataScanner,
        LeaderService,
        ZkLockMetadataAccessor])
], LeaderRecoveryExplorer);
export { LeaderRecoveryExplorer };
//# sourceMappingURL=leader-recovery.explorer.js.map