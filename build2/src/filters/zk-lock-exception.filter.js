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
import { Catch, Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { APP_FILTER, HttpAdapterHost } from '@nestjs/core';
import { throwError } from 'rxjs';
import { describeValue } from '../errors/describe-value.js';
import { InvalidOptionsError } from '../errors/invalid-options.error.js';
import { ZkLockError } from '../errors/zk-lock.error.js';
import { httpAnswerOf, REASON_PHRASES } from './error-answers.js';
/** Injection token of the filter's options, for `@UseFilters(ZkLockExceptionFilter)` with options of your own. */
export const ZK_LOCK_EXCEPTION_FILTER_OPTIONS = Symbol('ZK_LOCK_EXCEPTION_FILTER_OPTIONS');
/**
 * Answers the library's errors (`ZkLockError` and its subclasses; nothing else) in the terms of
 * the context that met them:
 * - HTTP (Express or Fastify): the status of `httpAnswerOf` (400, 409, 503 with `Retry-After`,
 *   else 500), and a body like Nest's own, with the error's stable `code`:
 *   `{ statusCode, error, code, message }`. A 500 keeps its message to the server's log.
 * - Microservices (`@MessagePattern` handlers): the client's call fails with `ZkLockRpcError`
 *   (`{ status: 'error', code, message }`).
 * - Other contexts (WebSockets, GraphQL): the error goes on unchanged, to their own handling.
 *
 * Register it with `ZkLockModule.forRoot({ ..., exceptionFilter: true })`, or as any filter:
 * `app.useGlobalFilters(new ZkLockExceptionFilter(app.get(HttpAdapterHost)))`, `@UseFilters(ZkLockExceptionFilter)`.
 */
let ZkLockExceptionFilter = class ZkLockExceptionFilter {
    constructor(adapterHost, options = {}) {
        this.adapterHost = adapterHost;
        this.logger = new Logger('ZkLockExceptionFilter');
        const seconds = options.retryAfterSeconds ?? 1;
        if (!Number.isInteger(seconds) || seconds < 0)
            throw new InvalidOptionsError('exceptionFilter.retryAfterSeconds', `must be a whole number of seconds, 0 or more (got ${describeValue(seconds)})`);
        this.retryAfter = String(seconds);
    }
    catch(error, host) {
        switch (host.getType()) {
            case 'http':
                return this.answerHttp(error, host);
            case 'rpc':
                return throwError(() => ({ status: 'error', code: error.code, message: error.message }));
            default:
                throw error;
        }
    }
    answerHttp(error, host) {
        const { httpAdapter } = this.adapterHost;
        const response = host.switchToHttp().getResponse();
        const { status, retryable } = httpAnswerOf(error);
        if (status === 500)
            this.logger.error(`${error.code}: ${error.message}`, error.stack);
        if (retryable)
            httpAdapter.setHeader(response, 'Retry-After', this.retryAfter);
        const message = status === 500 ? 'Internal server error' : error.message;
        httpAdapter.reply(response, { statusCode: status, error: REASON_PHRASES[status], code: error.code, message }, status);
    }
};
ZkLockExceptionFilter = __decorate([
    Catch(ZkLockError),
    Injectable(),
    __param(1, Optional()),
    __param(1, Inject(ZK_LOCK_EXCEPTION_FILTER_OPTIONS)),
    __metadata("design:paramtypes", [HttpAdapterHost, Object])
], ZkLockExceptionFilter);
export { ZkLockExceptionFilter };
/**
 * The filter as an application-wide `APP_FILTER` (what the module's `exceptionFilter` option
 * registers): `true` for the defaults, or its options.
 */
export function zkLockExceptionFilterProvider(options) {
    if (options !== true && (typeof options !== 'object' || options === null)) {
        throw new InvalidOptionsError('exceptionFilter', `must be true, false or { retryAfterSeconds } (got ${describeValue(options)})`);
    }
    return {
        provide: APP_FILTER,
        useFactory: (host) => new ZkLockExceptionFilter(host, options === true ? {} : options),
        inject: [HttpAdapterHost],
    };
}
//# sourceMappingURL=zk-lock-exception.filter.js.map