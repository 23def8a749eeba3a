/**
 * A hybrid application (HTTP + a TCP transport attached with `connectMicroservice`), on loopback,
 * against the shared ZooKeeper server. Nest applies `APP_FILTER` filters (what the module's
 * `exceptionFilter` registers) to an attached transport only when it is connected with
 * `{ inheritAppConfig: true }`, and the module cannot see whether it was. So: without it a busy
 * lock reaches TCP clients as Nest's "Internal server error" (pinned here, so that a Nest that
 * changes it is noticed); start-up says, naming the transport, what to add; and both ways out,
 * `inheritAppConfig` and `@UseFilters(ZkLockExceptionFilter)` on the controller, give
 * `{ status: 'error', code: 'ZK_LOCK_BUSY' }`. A microservice on its own logs nothing of it.
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Controller, Module, UseFilters, type INestApplication, type LoggerService } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ClientProxyFactory, MessagePattern, Payload, Transport, type MicroserviceOptions } from '@nestjs/microservices';
import { firstValueFrom, timeout } from 'rxjs';
import { WithLock } from '../../src/decorators/with-lock.decorator.js';
import { ZkLockExceptionFilter } from '../../src/filters/zk-lock-exception.filter.js';
import { LockService } from '../../src/services/lock.service.js';
import { ZkLockModule } from '../../src/zk-lock.module.js';
import { sharedConnect, testRoot } from '../lock/lock-test-kit.js';

@Controller()
class Settle {
  @MessagePattern('settle')
  @WithLock((order: { id: string }) => `order-${order.id}`, { onBusy: 'throw' })
  settle(@Payload() order: { id: string }): string {
    return order.id;
  }
}

@Controller()
@UseFilters(ZkLockExceptionFilter)
class SettleWithFilter extends Settle {}

/** Every line Nest logs, as text. */
class Lines implements LoggerService {
  readonly lines: string[] = [];
  log = (message: unknown): void => void this.lines.push(String(message));
  warn = this.log;
  error = this.log;
}

interface Run {
  /** What a TCP client got for a busy lock. */
  readonly busy: unknown;
  readonly logged: readonly string[];
}

/** Starts the app (`hybrid`: HTTP with TCP attached; else a TCP microservice alone), holds the lock and asks over TCP. */
async function busyOverTcp(controller: typeof Settle, hybrid: { inheritAppConfig: boolean } | 'standalone'): Promise<Run> {
  @Module({ imports: [ZkLockModule.forRoot({ connect: sharedConnect(), root: testRoot(), sessionTimeoutMs: 4000, exceptionFilter: true })], controllers: [controller] })
  class AppModule {}
  const logger = new Lines();
  const tcp = { transport: Transport.TCP, options: { host: '127.0.0.1', port: 0 } } as const;
  let app: INestApplication | Awaited<ReturnType<typeof NestFactory.createMicroservice>>;
  let address: () => { port: number };
  if (hybrid === 'standalone') {
    const microservice = await NestFactory.createMicroservice<MicroserviceOptions>(AppModule, { ...tcp, logger });
    await microservice.listen();
    app = microservice;
    address = () => microservice.unwrap<{ address(): { port: number } }>().address();
  } else {
    const http = await NestFactory.create(AppModule, { logger });
    const microservice = http.connectMicroservice<MicroserviceOptions>(tcp, hybrid);
    await http.startAllMicroservices();
    await http.listen(0, '127.0.0.1');
    app = http;
    address = () => microservice.unwrap<{ address(): { port: number } }>().address();
  }
  const client = ClientProxyFactory.create({ transport: Transport.TCP, options: { host: '127.0.0.1', port: address().port } });
  try {
    const held = await app.get(LockService).acquire('order-7');
    const busy = await firstValueFrom(client.send('settle', { id: '7' }).pipe(timeout(10_000))).then(
      () => assert.fail('the handler ran while the lock was held'),
      (error: unknown) => error,
    );
    await held.release();
    return { busy, logged: logger.lines };
  } finally {
    await client.close();
    await app.close();
  }
}

const code = (error: unknown) => ({ ...(error as object), message: undefined });
const notice = (lines: readonly string[]) => lines.filter((line) => /inheritAppConfig/.test(line));

describe('exceptionFilter in a hybrid HTTP + microservice application', () => {
  it('without inheritAppConfig: TCP clients get Nest\'s "Internal server error", and start-up said what to add', async () => {
    const { busy, logged } = await busyOverTcp(Settle, { inheritAppConfig: false });
    assert.deepEqual(busy, { status: 'error', message: 'Internal server error' });
    const [line, ...more] = notice(logged);
    assert.equal(more.length, 0, 'said once');
    assert.match(line ?? '', /ServerTCP/, 'names the transport');
    assert.match(line ?? '', /connectMicroservice\(.*\{ inheritAppConfig: true \}\)/);
    assert.match(line ?? '', /@UseFilters\(ZkLockExceptionFilter\)/);
  });

  it('with inheritAppConfig: true, TCP clients get the error code', async () => {
    const { busy } = await busyOverTcp(Settle, { inheritAppConfig: true });
    assert.deepEqual(code(busy), { status: 'error', code: 'ZK_LOCK_BUSY', message: undefined });
  });

  it('with @UseFilters(ZkLockExceptionFilter) on the controller, TCP clients get the error code', async () => {
    const { busy } = await busyOverTcp(SettleWithFilter, { inheritAppConfig: false });
    assert.deepEqual(code(busy), { status: 'error', code: 'ZK_LOCK_BUSY', message: undefined });
  });

  it('a microservice on its own gets the filter and no notice', async () => {
    const { busy, logged } = await busyOverTcp(Settle, 'standalone');
    assert.deepEqual(code(busy), { status: 'error', code: 'ZK_LOCK_BUSY', message: undefined });
    assert.deepEqual(notice(logged), []);
  });
});
