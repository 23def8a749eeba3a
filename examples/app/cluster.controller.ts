/**
 * `GET /status`: this replica's view of the cluster (who leads, the queue, the locks it holds).
 * `POST /batches {"batch":"b-1"}`: asks the leader's scheduler to run a settlement batch; a
 * follower answers 409 and names the leader.
 */
import { BadRequestException, Body, ConflictException, Controller, Get, HttpCode, Inject, Post } from '@nestjs/common';
import { firstValueFrom, timeout } from 'rxjs';
import { LeaderService, LockService } from '../../src/index.js'; // your app: from 'nestjs-zk-lock'
import { APP_CONFIG, type AppConfig } from './config.js';
import { Ledger } from './ledger.js';
import { SettlementScheduler } from './settlement.scheduler.js';

@Controller()
export class ClusterController {
  constructor(
    private readonly leader: LeaderService,
    private readonly locks: LockService,
    private readonly scheduler: SettlementScheduler,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('status')
  async status() {
    return {
      replica: this.config.replica,
      isLeader: this.leader.isLeader,
      leaderToken: this.leader.election().token?.toString() ?? null,
      leader: await this.currentLeader(),
      participants: await this.leader.participants(),
      heldLocks: this.locks.heldLeases().map((lease) => ({ name: lease.name, fencingToken: lease.fencingToken.toString() })),
      pendingBatches: this.scheduler.pending,
    };
  }

  @Post('batches')
  @HttpCode(202)
  async requestBatch(@Body() body: { batch?: unknown } = {}) {
    const batch = body.batch ?? `settle-${new Date().toISOString().slice(11, 19).replaceAll(':', '')}`;
    if (!Ledger.isId(batch)) throw new BadRequestException('batch: 1-64 letters, digits, _ or -');
    if (!this.scheduler.request(batch)) {
      throw new ConflictException({ message: 'not the leader: ask the leader', leader: await this.currentLeader() });
    }
    return { accepted: batch, replica: this.config.replica };
  }

  /** `leader$` replays the head of the election queue on subscription (one read). */
  private currentLeader(): Promise<string | null> {
    return firstValueFrom(this.leader.leader$.pipe(timeout(2_000)));
  }
}
