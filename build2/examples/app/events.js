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
/**
 * Structured event lines for whoever watches this replica (the demo driver does): one JSON object
 * per line, `{"t":<epoch ms>,"replica":"...","ev":"...",...}`. `t` comes from the same clock in
 * every process of a machine, so the events of several replicas can be merged into one timeline.
 *
 * Events: ready, leader {value, token}, tick {token}, leader-recovery {holder, token, running},
 * batch-started {batch, token, from, total}, batch-checkpoint {batch, token, settled, total},
 * batch-finished {batch, token}, batch-skipped {batch, token} (it had finished before),
 * batch-recovered {batch, holder, token, settled, total},
 * transfer {account, amount, token, start, end, balance}, stopped. Tokens are decimal strings.
 */
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from './config.js';
/** Wall-clock milliseconds with sub-millisecond precision. */
export const now = () => performance.timeOrigin + performance.now();
let EventLog = class EventLog {
    constructor(config) {
        this.config = config;
    }
    emit(ev, fields = {}) {
        if (this.config.events === 'off')
            return;
        const line = `${JSON.stringify({ t: now(), replica: this.config.replica, ev, ...fields }, bigintAsString)}\n`;
        // Both synchronous (stdout is, when it is a file or a pipe): the line is out before the next
        // statement, so a replica killed right after an event has reported it.
        if (this.config.events === 'stdout')
            process.stdout.write(line);
        else
            fs.appendFileSync(this.config.events, line);
    }
    /** Runs after every `beforeApplicationShutdown` hook: leadership and locks are handed over by now. */
    onApplicationShutdown(signal) {
        this.emit('stopped', { signal });
    }
};
EventLog = __decorate([
    Injectable(),
    __param(0, Inject(APP_CONFIG)),
    __metadata("design:paramtypes", [Object])
], EventLog);
export { EventLog };
function bigintAsString(_key, value) {
    return typeof value === 'bigint' ? value.toString() : value;
}
//# sourceMappingURL=events.js.map