import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost, ModulesContainer } from '@nestjs/core';
import type { Subscription } from 'rxjs';

/**
 * Registered with `ZkLockExceptionFilter` by the module's `exceptionFilter` option. Nest applies
 * `APP_FILTER` filters to a transport attached to an HTTP application (`connectMicroservice`)
 * only when it was connected with `{ inheritAppConfig: true }`; otherwise its clients get
 * "Internal server error" for a busy lock. Whether it was given is not visible to a module, so
 * this says, once per attached transport, what makes the filter reach it.
 */
@Injectable()
export class HybridTransportNotice implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ZkLockExceptionFilter');
  private subscription: Subscription | undefined;

  constructor(
    private readonly modules: ModulesContainer,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  onApplicationBootstrap(): void {
    // A microservice on its own has no HTTP adapter, and its transport gets APP_FILTER filters.
    if (!this.adapterHost.httpAdapter) return;
    // Optional call: the registry of transports is recent in Nest; it replays those attached before bootstrap.
    this.subscription = this.modules.getRpcTargetRegistry?.<object>().subscribe((transport) => {
      this.logger.log(
        `A ${transport.constructor.name} transport is attached to this HTTP application: ZkLockExceptionFilter (exceptionFilter) answers its ` +
          'clients only if it was attached with app.connectMicroservice(options, { inheritAppConfig: true }), as Nest applies the ' +
          'filters of APP_FILTER providers to such a transport only then; otherwise they get "Internal server error" for a busy ' +
          'lock. Add that option, or @UseFilters(ZkLockExceptionFilter) on the controllers that handle its messages.',
      );
    });
  }

  onApplicationShutdown(): void {
    this.subscription?.unsubscribe();
  }
}
