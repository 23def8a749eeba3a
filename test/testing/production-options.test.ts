/**
 * An e2e test that swaps the application's own `ZkLockModule` for `ZkLockTestingModule` keeps
 * production's behaviour: `ZkLockTestingModule.replacing(zkLockModule)` takes the options the
 * production module was built with (`forRoot` or `forRootAsync`, its `exceptionFilter` and
 * election name), so a busy lock is a 409 in the test as in production, not a 500.
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Controller, Get, Injectable, Module, type DynamicModule } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { InvalidOptionsError, LeaderService, LockService, WithLock, ZkLockModule, type ZkLockModuleOptions } from '../../src/index.js';
import { ZkLockTestingModule } from '../../src/testing/index.js';

@Controller()
class ReportsController {
  @Get('report')
  @WithLock('report', { onBusy: 'throw' })
  report(): { done: true } {
    return { done: true };
  }
}

@Injectable()
class ZkConfig {
  // Production reads these from its configuration; nothing listens on port 1.
  zkLock(): ZkLockModuleOptions {
    return { connect: '127.0.0.1:1', election: { name: 'reports' } };
  }
}

@Module({ providers: [ZkConfig], exports: [ZkConfig] })
class ConfigModule {}

/** The application as production builds it, with the ZkLockModule it imports. */
function application(zkLockModule: DynamicModule): DynamicModule {
  @Module({ imports: [zkLockModule], controllers: [ReportsController] })
  class AppModule {}
  return { module: AppModule };
}

const productions: Record<string, () => DynamicModule> = {
  forRoot: () => ZkLockModule.forRoot({ connect: '127.0.0.1:1', exceptionFilter: true, election: { name: 'reports' } }),
  forRootAsync: () =>
    ZkLockModule.forRootAsync({ imports: [ConfigModule], useFactory: (config: ZkConfig) => config.zkLock(), inject: [ZkConfig], exceptionFilter: true }),
};

for (const [form, production] of Object.entries(productions)) {
  describe(`ZkLockTestingModule.replacing(ZkLockModule.${form}(...))`, () => {
    it('answers a busy lock with 409 and joins the election production names, without a server', async () => {
      const zkLockModule = production();
      const moduleRef = await Test.createTestingModule({ imports: [application(zkLockModule)] })
        .overrideModule(zkLockModule)
        .useModule(ZkLockTestingModule.replacing(zkLockModule))
        .compile();
      const app = moduleRef.createNestApplication({ logger: false });
      await app.listen(0, '127.0.0.1');
      try {
        const held = await app.get(LockService).acquire('report');
        const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
        const answer = await fetch(`${base}/report`, { signal: AbortSignal.timeout(10_000) });
        assert.deepEqual({ status: answer.status, code: ((await answer.json()) as { code?: string }).code }, { status: 409, code: 'ZK_LOCK_BUSY' });
        await held.release();
        assert.equal((await fetch(`${base}/report`, { signal: AbortSignal.timeout(10_000) })).status, 200);
        assert.deepEqual(app.get(LeaderService).electionNames(), ['reports']);
      } finally {
        await app.close();
      }
    });
  });
}

describe('ZkLockTestingModule.forRoot(the production options object)', () => {
  it('takes every ZkLockModule option: exceptionFilter and the election as production, the connection ignored', async () => {
    const options = { connect: '127.0.0.1:1', connectTimeoutMs: 1, exceptionFilter: true, election: { name: 'reports' } } satisfies Parameters<typeof ZkLockModule.forRoot>[0];
    const moduleRef = await Test.createTestingModule({ imports: [ZkLockTestingModule.forRoot(options)], controllers: [ReportsController] }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    await app.listen(0, '127.0.0.1');
    try {
      const held = await app.get(LockService).acquire('report');
      const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
      assert.equal((await fetch(`${base}/report`, { signal: AbortSignal.timeout(10_000) })).status, 409);
      await held.release();
      assert.deepEqual(app.get(LeaderService).electionNames(), ['reports']);
    } finally {
      await app.close();
    }
  });

  it('refuses what is not a ZkLockModule', () => {
    assert.throws(() => ZkLockTestingModule.replacing({ module: ConfigModule }), (error: unknown) => error instanceof InvalidOptionsError && /ZkLockModule/.test(error.message));
  });
});
