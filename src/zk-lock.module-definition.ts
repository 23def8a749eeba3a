import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { ZkLockExceptionFilterOptions } from './filters/zk-lock-exception.filter.js';
import { zkLockExceptionFilterProviders } from './filters/zk-lock-exception-filter.providers.js';
import type { ZkLockModuleOptions } from './zk-lock.options.js';

/** Options of `forRoot` / `forRootAsync` that shape the module itself, so they are known before the others resolve. */
export interface ZkLockModuleExtras {
  /** Register the module globally. Default false. */
  isGlobal: boolean;
  /**
   * Register `ZkLockExceptionFilter` for the whole application: the library's errors reach HTTP
   * clients as 400/409/503/500 and microservice clients as `{ status: 'error', code, message }`.
   * `true`, or its options. Default false. A transport attached to an HTTP application with
   * `connectMicroservice` gets it only with `{ inheritAppConfig: true }` (Nest's rule for
   * `APP_FILTER`); start-up names each attached transport and says so.
   */
  exceptionFilter: boolean | ZkLockExceptionFilterOptions;
}

export const {
  ConfigurableModuleClass: ZkLockConfigurableModule,
  MODULE_OPTIONS_TOKEN: ZK_LOCK_MODULE_OPTIONS,
  OPTIONS_TYPE: ZK_LOCK_OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE: ZK_LOCK_ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<ZkLockModuleOptions>()
  .setClassMethodName('forRoot')
  .setExtras<ZkLockModuleExtras>({ isGlobal: false, exceptionFilter: false }, (definition, extras) => ({
    ...definition,
    global: extras.isGlobal,
    providers: [...(definition.providers ?? []), ...zkLockExceptionFilterProviders(extras.exceptionFilter)],
  }))
  .build();
