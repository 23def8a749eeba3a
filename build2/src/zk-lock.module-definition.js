import { ConfigurableModuleBuilder } from '@nestjs/common';
import { zkLockExceptionFilterProvider } from './filters/zk-lock-exception.filter.js';
export const { ConfigurableModuleClass: ZkLockConfigurableModule, MODULE_OPTIONS_TOKEN: ZK_LOCK_MODULE_OPTIONS, OPTIONS_TYPE: ZK_LOCK_OPTIONS_TYPE, ASYNC_OPTIONS_TYPE: ZK_LOCK_ASYNC_OPTIONS_TYPE, } = new ConfigurableModuleBuilder()
    .setClassMethodName('forRoot')
    .setExtras({ isGlobal: false, exceptionFilter: false }, (definition, extras) => ({
    ...definition,
    global: extras.isGlobal,
    providers: extras.exceptionFilter === false ? definition.providers : [...(definition.providers ?? []), zkLockExceptionFilterProvider(extras.exceptionFilter)],
}))
    .build();
//# sourceMappingURL=zk-lock.module-definition.js.map