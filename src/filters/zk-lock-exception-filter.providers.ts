import type { Provider } from '@nestjs/common';
import { HybridTransportNotice } from './hybrid-transport.notice.js';
import { zkLockExceptionFilterProvider, type ZkLockExceptionFilterOptions } from './zk-lock-exception.filter.js';

/** What the `exceptionFilter` option of `ZkLockModule` (and `ZkLockTestingModule`) registers: nothing for `false`. */
export function zkLockExceptionFilterProviders(option: boolean | ZkLockExceptionFilterOptions | undefined): Provider[] {
  if (option === undefined || option === false) return [];
  return [zkLockExceptionFilterProvider(option), HybridTransportNotice];
}
