/**
 * `ZkLockExceptionFilter` on HTTP, Express and Fastify alike, registered by the module's
 * `exceptionFilter` option: real lock contention against the shared ZooKeeper server gives 409
 * (told not to wait) and 503 with `Retry-After` (waited in vain, or ZooKeeper unreachable for a try-once), a per-request lock name that
 * cannot exist gives 400, the other errors their status from `httpAnswerOf`; every body carries the
 * error's stable code, and errors that are not the library's keep Nest's own answer.
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Controller, Get, Module, Param, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { WithLock } from '../../src/decorators/with-lock.decorator.js';
import { CorruptStateError } from '../../src/errors/corrupt-state.error.js';
import { InvalidOptionsError } from '../../src/errors/invalid-options.error.js';
import { LeadershipLostError } from '../../src/errors/leadership-lost.error.js';
import { ZooKeeperError } from '../../src/errors/zookeeper.error.js';
import { ZooKeeperUnreachableError } from '../../src/errors/zookeeper-unreachable.error.js';
import { zkLockExceptionFilterProvider } from '../../src/filters/zk-lock-exception.filter.js';
import { LockService } from '../../src/services/lock.service.js';
import { ZkLockTestingModule } from '../../src/testing/index.js';
import { ZkLockModule } from '../../src/zk-lock.module.js';
import { Test } from '@nestjs/testing';
import { sharedConnect, testRoot } from '../lock/lock-test-kit.js';

@Controller()
class ReportsController {
  @Get('now/:id')
  @WithLock((id: string) => `report-${id}`, { onBusy: 'throw' })
  now(@Param('id') id: string): { id: string } {
    return { id };
  }

  @Get('soon/:id')
  @WithLock((id: string) => `report-${id}`, { waitMs: 50 })
  soon(@Param('id') id: string): { id: string } {
    return { id };
  }

  @Get('by-name/:name')
  @WithLock((name: string) => name)
  byName(@Param('name') name: string): { name: string } {
    return { name };
  }

  @Get('lost-leadership')
  lostLeadership(): never {
    throw new LeadershipLostError('/zk-lock/elections/default', 'the session was suspended');
  }

  @Get('connection-loss')
  connectionLoss(): never {
    throw new ZooKeeperError(-4, 'getChildren', '/zk-lock/locks/report-1');
  }

  @Get('unreachable')
  unreachable(): never {
    throw new ZooKeeperUnreachableError('/zk-lock/locks/report-1', 'the session is suspended');
  }

  @Get('corrupt')
  corrupt(): never {
    throw new CorruptStateError('/zk-lock/locks/report-1/ready', 'not JSON');
  }

  @Get('not-ours')
  notOurs(): never {
    throw new Error('a bug of the application');
  }
}

interface Answer {
  readonly status: number;
  readonly retryAfter: string | null;
  readonly body: Record<string, unknown>;
}

for (const platform of ['express', 'fastify'] as const) {
  describe(`ZkLockExceptionFilter on HTTP (${platform})`, () => {
    let app: INestApplication;
    let base: string;

    before(async () => {
      @Module({
        imports: [ZkLockModule.forRoot({ connect: sharedConnect(), root: testRoot(), sessionTimeoutMs: 4000, exceptionFilter: { retryAfterSeconds: 2 } })],
        controllers: [ReportsController],
      })
      class HttpModule {}
      app = await NestFactory.create(HttpModule, platform === 'express' ? new ExpressAdapter() : new FastifyAdapter(), { logger: false });
      await app.listen(0, '127.0.0.1');
      base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    });

    after(() => app?.close());

    async function get(path: string): Promise<Answer> {
      const response = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(10_000) });
      return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as Record<string, unknown> };
    }

    it('answers 200 when the lock is free', async () => {
      assert.deepEqual(await get('/now/1'), { status: 200, retryAfter: null, body: { id: '1' } });
    });

    it('answers 409 when the lock is held and the call must not wait, 503 with Retry-After when the wait ran out', async () => {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let holding!: () => void;
      const acquired = new Promise<void>((resolve) => (holding = resolve));
      // Held from the test's own call chain: the request's chain is another one, so it has to wait.
      const holder = app.get(LockService).withLock('report-2', async () => {
        holding();
        await held;
      });
      await acquired;
      try {
        const busy = await get('/now/2');
        assert.equal(busy.status, 409);
        assert.equal(busy.retryAfter, null);
        assert.equal(busy.body.code, 'ZK_LOCK_BUSY');
        assert.equal(busy.body.error, 'Conflict');
        assert.match(String(busy.body.message), /report-2/);
        const late = await get('/soon/2');
        assert.deepEqual({ status: late.status, retryAfter: late.retryAfter, code: late.body.code }, { status: 503, retryAfter: '2', code: 'ZK_LOCK_TIMEOUT' });
      } finally {
        release();
        await holder;
      }
      assert.equal((await get('/now/2')).status, 200, 'free again');
    });

    it('answers 400 to a lock name that cannot exist', async () => {
      const answer = await get('/by-name/a%01b'); // a control character, which ZooKeeper refuses in paths
      assert.deepEqual({ status: answer.status, code: answer.body.code }, { status: 400, code: 'ZK_INVALID_LOCK_NAME' });
    });

    it('answers 503 to lost leadership and to a lost connection, 500 with the code but not the message to the rest', async () => {
      const lost = await get('/lost-leadership');
      assert.deepEqual({ status: lost.status, retryAfter: lost.retryAfter, code: lost.body.code }, { status: 503, retryAfter: '2', code: 'ZK_LEADERSHIP_LOST' });
      const loss = await get('/connection-loss');
      assert.deepEqual({ status: loss.status, code: loss.body.code }, { status: 503, code: 'ZK_CONNECTIONLOSS' });
      const unreachable = await get('/unreachable');
      assert.deepEqual({ status: unreachable.status, retryAfter: unreachable.retryAfter, code: unreachable.body.code }, { status: 503, retryAfter: '2', code: 'ZK_UNREACHABLE' });
      const corrupt = await get('/corrupt');
      assert.deepEqual(corrupt, {
        status: 500,
        retryAfter: null,
        body: { statusCode: 500, error: 'Internal Server Error', code: 'ZK_CORRUPT_STATE', message: 'Internal server error' },
      });
    });

    it("leaves errors that are not the library's to Nest", async () => {
      assert.deepEqual(await get('/not-ours'), { status: 500, retryAfter: null, body: { statusCode: 500, message: 'Internal server error' } });
    });
  });
}

describe('ZkLockExceptionFilter options', () => {
  it('refuses what is neither true, false nor its options, and a Retry-After that is not whole seconds', () => {
    assert.throws(() => zkLockExceptionFilterProvider('yes' as never), InvalidOptionsError);
    assert.throws(() => ZkLockModule.forRoot({ connect: '127.0.0.1:2181', exceptionFilter: 'yes' as never }), /exceptionFilter/);
    const provider = zkLockExceptionFilterProvider({ retryAfterSeconds: 1.5 });
    assert.throws(() => provider.useFactory({ httpAdapter: undefined }), /exceptionFilter\.retryAfterSeconds/);
  });
});

describe('ZkLockExceptionFilter from ZkLockTestingModule (an e2e test without a server)', () => {
  it('answers as in production', async () => {
    const moduleRef = await Test.createTestingModule({ imports: [ZkLockTestingModule.forRoot({ exceptionFilter: true })], controllers: [ReportsController] }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    await app.listen(0, '127.0.0.1');
    try {
      const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
      const answer = await fetch(`${base}/lost-leadership`, { signal: AbortSignal.timeout(10_000) });
      assert.deepEqual({ status: answer.status, retryAfter: answer.headers.get('retry-after'), code: ((await answer.json()) as { code: string }).code }, { status: 503, retryAfter: '1', code: 'ZK_LEADERSHIP_LOST' });
    } finally {
      await app.close();
    }
    assert.throws(() => ZkLockTestingModule.forRoot({ exceptionFilter: 'yes' as never }), InvalidOptionsError);
  });
});
