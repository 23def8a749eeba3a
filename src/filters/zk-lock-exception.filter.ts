import { Catch, Inject, Injectable, Logger, Optional, type ArgumentsHost, type ExceptionFilter, type FactoryProvider } from '@nestjs/common';
import { APP_FILTER, HttpAdapterHost } from '@nestjs/core';
import { throwError, type Observable } from 'rxjs';
import { describeValue } from '../errors/describe-value.js';
import { InvalidOptionsError } from '../errors/invalid-options.error.js';
import { ZkLockError } from '../errors/zk-lock.error.js';
import { httpAnswerOf, REASON_PHRASES } from './error-answers.js';

export interface ZkLockExceptionFilterOptions {
  /** `Retry-After` (seconds) of a 503. Default 1. */
  readonly retryAfterSeconds?: number;
}

/** Injection token of the filter's options, for `@UseFilters(ZkLockExceptionFilter)` with options of your own. */
export const ZK_LOCK_EXCEPTION_FILTER_OPTIONS = Symbol('ZK_LOCK_EXCEPTION_FILTER_OPTIONS');

/** The error a microservice client receives (what an `RpcException` carrying it delivers). */
export interface ZkLockRpcError {
  readonly status: 'error';
  /** The error's stable code (`ZK_LOCK_BUSY`, ...). */
  readonly code: string;
  readonly message: string;
}

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
 * In a hybrid application the module's registration reaches a transport attached with
 * `connectMicroservice(options, { inheritAppConfig: true })` only; `@UseFilters` works on any.
 */
@Catch(ZkLockError)
@Injectable()
export class ZkLockExceptionFilter implements ExceptionFilter<ZkLockError> {
  private readonly logger = new Logger('ZkLockExceptionFilter');
  private readonly retryAfter: string;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Optional() @Inject(ZK_LOCK_EXCEPTION_FILTER_OPTIONS) options: ZkLockExceptionFilterOptions = {},
  ) {
    const seconds = options.retryAfterSeconds ?? 1;
    if (!Number.isInteger(seconds) || seconds < 0) throw new InvalidOptionsError('exceptionFilter.retryAfterSeconds', `must be a whole number of seconds, 0 or more (got ${describeValue(seconds)})`);
    this.retryAfter = String(seconds);
  }

  catch(error: ZkLockError, host: ArgumentsHost): Observable<never> | void {
    switch (host.getType<string>()) {
      case 'http':
        return this.answerHttp(error, host);
      case 'rpc':
        return throwError((): ZkLockRpcError => ({ status: 'error', code: error.code, message: error.message }));
      default:
        throw error;
    }
  }

  private answerHttp(error: ZkLockError, host: ArgumentsHost): void {
    const { httpAdapter } = this.adapterHost;
    const response: unknown = host.switchToHttp().getResponse();
    const { status, retryable } = httpAnswerOf(error);
    if (status === 500) this.logger.error(`${error.code}: ${error.message}`, error.stack);
    if (retryable) httpAdapter.setHeader(response, 'Retry-After', this.retryAfter);
    const message = status === 500 ? 'Internal server error' : error.message;
    httpAdapter.reply(response, { statusCode: status, error: REASON_PHRASES[status], code: error.code, message }, status);
  }
}

/**
 * The filter as an application-wide `APP_FILTER`: `true` for the defaults, or its options. (The
 * module's `exceptionFilter` option registers it with `HybridTransportNotice`: `zkLockExceptionFilterProviders`.)
 */
export function zkLockExceptionFilterProvider(options: true | ZkLockExceptionFilterOptions): FactoryProvider<ZkLockExceptionFilter> {
  if (options !== true && (typeof options !== 'object' || options === null)) {
    throw new InvalidOptionsError('exceptionFilter', `must be true, false or { retryAfterSeconds } (got ${describeValue(options)})`);
  }
  return {
    provide: APP_FILTER,
    useFactory: (host: HttpAdapterHost) => new ZkLockExceptionFilter(host, options === true ? {} : options),
    inject: [HttpAdapterHost],
  };
}
