var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
import { BadRequestException, ForbiddenException, Get, Header, Headers, HttpCode, Inject, Param, Post, Sse } from '@nestjs/common';
import { map } from 'rxjs';
import { InvalidLockNameError } from '../errors/invalid-lock-name.error.js';
import { LeaderService } from '../services/leader.service.js';
import { LockService } from '../services/lock.service.js';
import { dashboardPage } from './dashboard-page.js';
import { DashboardState } from './dashboard-state.js';
import { crossSiteReason } from './same-origin.js';
/** The header an action must carry: the page sends it once the operator confirmed. */
export const CONFIRM_HEADER = 'x-zk-lock-confirm';
/**
 * The dashboard's routes, relative to its path: the page, its state as JSON, its event stream,
 * and the two actions. `ZkLockDashboardModule.forRoot` mounts them at the configured path behind
 * the configured guard (a subclass carries both).
 */
let DashboardRoutes = class DashboardRoutes {
    constructor(state, locks, leaders) {
        this.state = state;
        this.locks = locks;
        this.leaders = leaders;
    }
    page() {
        return dashboardPage();
    }
    /** Everything the page shows, once: the view and the recent timeline. */
    snapshot() {
        return this.state.snapshot();
    }
    /** Server-sent events: `event` (a timeline entry) and `view` (the whole view, on every change). */
    stream() {
        return this.state.stream().pipe(map((message) => ({ type: message.kind, data: message.kind === 'view' ? message.view : message.entry })));
    }
    /** Asks the holder of lock `name` to let go (`LockService.requestRelease`). */
    release(name, headers) {
        return confirmed(headers, () => this.locks.requestRelease(name));
    }
    /** Asks the leader of election `name` to step down (`LeaderService.requestStepDown`). */
    stepDown(name, headers) {
        return confirmed(headers, () => this.leaders.requestStepDown(name));
    }
};
__decorate([
    Get(),
    Header('Content-Type', 'text/html; charset=utf-8'),
    Header('Cache-Control', 'no-store'),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", String)
], DashboardRoutes.prototype, "page", null);
__decorate([
    Get('api/state'),
    Header('Cache-Control', 'no-store'),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", Promise)
], DashboardRoutes.prototype, "snapshot", null);
__decorate([
    Sse('api/stream'),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", Function)
], DashboardRoutes.prototype, "stream", null);
__decorate([
    Post('api/locks/:name/release'),
    HttpCode(200),
    __param(0, Param('name')),
    __param(1, Headers()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, Object]),
    __metadata("design:returntype", Promise)
], DashboardRoutes.prototype, "release", null);
__decorate([
    Post('api/elections/:name/step-down'),
    HttpCode(200),
    __param(0, Param('name')),
    __param(1, Headers()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, Object]),
    __metadata("design:returntype", Promise)
], DashboardRoutes.prototype, "stepDown", null);
DashboardRoutes = __decorate([
    __param(0, Inject(DashboardState)),
    __param(1, Inject(LockService)),
    __param(2, Inject(LeaderService)),
    __metadata("design:paramtypes", [DashboardState,
        LockService,
        LeaderService])
], DashboardRoutes);
export { DashboardRoutes };
/**
 * Runs `action` when the request comes from the dashboard's own site (else 403, see
 * `crossSiteReason`) and says the operator confirmed it (else 400); a bad name is the caller's error (400).
 */
async function confirmed(headers, action) {
    const crossSite = crossSiteReason(headers);
    if (crossSite !== undefined)
        throw new ForbiddenException(`the dashboard refused a cross-site request: ${crossSite}; its actions are taken from its own page only`);
    if (headers[CONFIRM_HEADER] !== 'yes')
        throw new BadRequestException(`an action needs the header ${CONFIRM_HEADER}: yes (the page sends it once confirmed)`);
    try {
        return await action();
    }
    catch (error) {
        if (error instanceof InvalidLockNameError)
            throw new BadRequestException(error.message);
        throw error;
    }
}
//# sourceMappingURL=dashboard.controller.js.map