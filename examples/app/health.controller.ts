/**
 * `GET /health`: the ZooKeeper session as terminus sees it (up while connected, up with a warning
 * while suspended, down once the session may be gone), with this replica's leadership.
 */
import { Controller, Get } from '@nestjs/common';
import { HealthCheck, HealthCheckService } from '@nestjs/terminus';
import { ZkLockHealthIndicator } from '../../src/health/index.js'; // your app: from 'nestjs-zk-lock/health'

@Controller()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly zookeeper: ZkLockHealthIndicator,
  ) {}

  @Get('health')
  @HealthCheck()
  check() {
    return this.health.check([() => this.zookeeper.isHealthy('zookeeper')]);
  }
}
