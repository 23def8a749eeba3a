import { BadRequestException, ForbiddenException, Get, Header, Headers, HttpCode, Inject, Param, Post, Sse, type MessageEvent } from '@nestjs/common';
import { map, type Observable } from 'rxjs';
import { InvalidLockNameError } from '../errors/invalid-lock-name.error.js';
import type { ReleaseRequest } from '../recipes/queue/release-request.js';
import { LeaderService } from '../services/leader.service.js';
import { LockService } from '../services/lock.service.js';
import { dashboardPage } from './dashboard-page.js';
import { DashboardState } from './dashboard-state.js';
import { crossSiteReason, type RequestSite } from './same-origin.js';
import type { DashboardView } from './dashboard-view.js';
import type { TimelineEntry } from './timeline.js';

/** The header an action must carry: the page sends it once the operator confirmed. */
export const CONFIRM_HEADER = 'x-zk-lock-confirm';

/**
 * The dashboard's routes, relative to its path: the page, its state as JSON, its event stream,
 * and the two actions. `ZkLockDashboardModule.forRoot` mounts them at the configured path behind
 * the configured guard (a subclass carries both).
 */
export class DashboardRoutes {
  constructor(
    @Inject(DashboardState) private readonly state: DashboardState,
    @Inject(LockService) private readonly locks: LockService,
    @Inject(LeaderService) private readonly leaders: LeaderService,
  ) {}

  @Get()
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Cache-Control', 'no-store')
  page(): string {
    return dashboardPage();
  }

  /** Everything the page shows, once: the view and the recent timeline. */
  @Get('api/state')
  @Header('Cache-Control', 'no-store')
  snapshot(): Promise<{ view: DashboardView; timeline: TimelineEntry[] }> {
    return this.state.snapshot();
  }

  /** Server-sent events: `event` (a timeline entry) and `view` (the whole view, on every change). */
  @Sse('api/stream')
  stream(): Observable<MessageEvent> {
    return this.state.stream().pipe(map((message) => ({ type: message.kind, data: message.kind === 'view' ? message.view : message.entry })));
  }

  /** Asks the holder of lock `name` to let go (`LockService.requestRelease`). */
  @Post('api/locks/:name/release')
  @HttpCode(200)
  release(@Param('name') name: string, @Headers() headers: RequestSite & Record<string, string | undefined>): Promise<ReleaseRequest> {
    return confirmed(headers, () => this.locks.requestRelease(name));
  }

  /** Asks the leader of election `name` to step down (`LeaderService.requestStepDown`). */
  @Post('api/elections/:name/step-down')
  @HttpCode(200)
  stepDown(@Param('name') name: string, @Headers() headers: RequestSite & Record<string, string | undefined>): Promise<ReleaseRequest> {
    return confirmed(headers, () => this.leaders.requestStepDown(name));
  }
}

/**
 * Runs `action` when the request comes from the dashboard's own site (else 403, see
 * `crossSiteReason`) and says the operator confirmed it (else 400); a bad name is the caller's error (400).
 */
async function confirmed(headers: RequestSite & Record<string, string | undefined>, action: () => Promise<ReleaseRequest>): Promise<ReleaseRequest> {
  const crossSite = crossSiteReason(headers);
  if (crossSite !== undefined) throw new ForbiddenException(`the dashboard refused a cross-site request: ${crossSite}; its actions are taken from its own page only`);
  if (headers[CONFIRM_HEADER] !== 'yes') throw new BadRequestException(`an action needs the header ${CONFIRM_HEADER}: yes (the page sends it once confirmed)`);
  try {
    return await action();
  } catch (error) {
    if (error instanceof InvalidLockNameError) throw new BadRequestException(error.message);
    throw error;
  }
}
