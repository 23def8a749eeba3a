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
import { Reflector } from '@nestjs/core';
import { LEADER_ONLY_METADATA, ON_LEADER_RECOVERY_METADATA } from '../zk-lock.constants.js';
/** Reads what the decorators recorded on a method (the one place that knows their metadata keys). */
let ZkLockMetadataAccessor = class ZkLockMetadataAccessor {
    constructor(reflector) {
        this.reflector = reflector;
    }
    /** The election a `@LeaderOnly` method runs for, if it is one. */
    leaderOnly(method) {
        return this.reflector.get(LEADER_ONLY_METADATA, method);
    }
    /** The election an `@OnLeaderRecovery` method repairs for, if it is one. */
    onLeaderRecovery(method) {
        return this.reflector.get(ON_LEADER_RECOVERY_METADATA, method);
    }
};
ZkLockMetadataAccessor = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [Reflector])
], ZkLockMetadataAccessor);
export { ZkLockMetadataAccessor };
//# sourceMappingURL=zk-lock-metadata.accessor.js.map