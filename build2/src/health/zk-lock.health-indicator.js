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
import { Inject, Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { ElectionClosedError } from '../errors/election-closed.error.js';
import { LeaderService } from '../services/leader.service.js';
import { ZK_LOCK_OPTIONS } from '../zk-lock.constants.js';
import { ZkSession } from '../zookeeper/supervised-session.js';
/** Healthy: requests can be answered. */
const UP_STATES = new Set(['connected', 'reconnected']);
/** Why each down state is down. */
const DOWN_REASONS = {
    connecting: 'no ZooKeeper session established yet',
    lost: 'the leader has not confirmed the session for so long that it may have expired it (disconnected, cut off from the leader, or paused): locks and leadership count as lost',
    expired: 'the ZooKeeper session expired; a new one is being created',
    closed: 'the ZooKeeper session is closed',
};
/**
 * A `@nestjs/terminus` health indicator for the module's ZooKeeper session.
 *
 * - `up` while the session is `connected` or `reconnected`;
 * - `up` with a `warning` while `suspended`: the connection dropped but the session is still
 *   alive on the server (locks stay valid, waiters keep their place), and the client is trying the
 *   other servers. Restarting the process then would only make things worse;
 * - `down` when `lost` (the server may have expired the session: leases were revoked), `expired`,
 *   `closed`, or `connecting` (no session yet).
 *
 * Leadership is reported (`elections`) but never makes the check fail: a follower is healthy.
 * Needs `TerminusModule` in the module that provides it, and `ZkLockModule` visible there
 * (`isGlobal: true`, or imported by that module).
 */
let ZkLockHealthIndicator = class ZkLockHealthIndicator {
    constructor(healthIndicatorService, session, leaderService, options) {
        this.healthIndicatorService = healthIndicatorService;
        this.session = session;
        this.leaderService = leaderService;
        this.options = options;
    }
    /** The session's health under `key` (default `zookeeper`). Synchronous inside: sends no request. */
    async isHealthy(key = 'zookeeper', options = {}) {
        const indicator = this.healthIndicatorService.check(key);
        const state = this.session.state;
        const details = {
            state,
            sessionId: this.session.sessionId ?? null,
            sessionTimeoutMs: this.session.sessionTimeoutMs,
            lastContactAgoMs: this.session.lastContactAgoMs ?? null,
            elections: this.electionHealth(options.elections ?? []),
        };
        if (UP_STATES.has(state))
            return indicator.up(details);
        if (state === 'suspended') {
            return indicator.up({ ...details, warning: 'connection to ZooKeeper lost; the session may still be alive and the client is reconnecting' });
        }
        return indicator.down({ ...details, message: DOWN_REASONS[state] ?? `ZooKeeper session ${state}` });
    }
    electionHealth(extra) {
        // Every election this process knows, plus any the caller names (which creates and joins them).
        const names = new Set([...this.leaderService.electionNames(), ...extra]);
        if (this.options.electionConfigured)
            names.add(this.options.election.name);
        const result = {};
        for (const name of [...names].sort()) {
            let election;
            try {
                election = this.leaderService.election(name);
            }
            catch (error) {
                // Shutting down: LeaderService creates no new election, and one we never took part in has nothing to report.
                if (error instanceof ElectionClosedError)
                    continue;
                throw error;
            }
            result[name] = { isLeader: election.isLeader, participating: election.isParticipating };
        }
        return result;
    }
};
ZkLockHealthIndicator = __decorate([
    Injectable(),
    __param(3, Inject(ZK_LOCK_OPTIONS)),
    __metadata("design:paramtypes", [HealthIndicatorService,
        ZkSession,
        LeaderService, Object])
], ZkLockHealthIndicator);
export { ZkLockHealthIndicator };
//# sourceMappingURL=zk-lock.health-indicator.js.map