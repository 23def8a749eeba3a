var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
/**
 * `GET /health`: the ZooKeeper session as terminus sees it (up while connected, up with a warning
 * while suspended, down once the session may be gone), with this replica's leadership.
 */
import { Controller, Get } from '@nestjs/common';
import { HealthCheck, HealthCheckService } from '@nestjs/terminus';
import { ZkLockHealthIndicator } from '../../src/health/index.js'; // your app: from 'nestjs-zk-lock/health'
let HealthController = class HealthController {
    constructor(health, zookeeper) {
        this.health = health;
        this.zookeeper = zookeeper;
    }
    check() {
        return this.health.check([() => this.zookeeper.isHealthy('zookeeper')]);
    }
};
__decorate([
    Get('health'),
    HealthCheck(),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", void 0)
], HealthController.prototype, "check", null);
HealthController = __decorate([
    Controller(),
    __metadata("design:paramtypes", [HealthCheckService,
        ZkLockHealthIndicator])
], HealthController);
export { HealthController };
//# sourceMappingURL=health.controller.js.map