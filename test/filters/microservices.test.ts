/**
 * `@WithLock` and `@LeaderOnly` on the handlers of a `@nestjs/microservices` app (TCP transport,
 * on loopback, against the shared ZooKeeper server), in both decorator orders: the lock is named
 * from the message payload and held in ZooKeeper while the handler runs, an event handler runs
 * on the leader only, and with the module's `exceptionFilter` a busy lock reaches the client as
 * `{ status: 'error', code: 'ZK_LOCK_BUSY', message }`.
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Controller, Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ClientProxyFactory, EventPattern, MessagePattern, Payload, Transport, type ClientProxy, type MicroserviceOptions } from '@nestjs/microservices';
import { firstValueFrom, timeout } from 'rxjs';
import { LeaderOnly } from '../../src/decorators/leader-only.decorator.js';
import { WithLock } from '../../src/decorators/with-lock.decorator.js';
import { LeaderService } from '../../src/services/leader.service.js';
import { LockService } from '../../src/services/lock.service.js';
import { ZkLockModule } from '../../src/zk-lock.module.js';
import type { ZkSession } from '../../src/zookeeper/supervised-session.js';
import { waitFor } from '../support/wait.js';
import { openSession, queueNodes, sharedConnect, testRoot } from '../lock/lock-test-kit.js';

interface Order {
  readonly orderId: string;
}

/** What a handler saw while it ran. */
interface Seen {
  readonly handler: string;
  /** The lock `lockService.current()` gave inside. */
  readonly lock: string | undefined;
  /** Queue nodes of the order's lock in ZooKeeper while the handler ran (ours: exactly one). */
  readonly queued: number;
}

const root = testRoot();
let observer: ZkSession;

const orderLock = (order: Order) => `order-${order.orderId}`;

@Controller()
class OrderHandlers {
  readonly ticks: string[] = [];
  /** Opened by a test to hold a handler inside its lock. */
  gate: Promise<void> | undefined;

  constructor(private readonly locks: LockService) {}

  @MessagePattern('order.settle')
  @WithLock(orderLock, { onBusy: 'throw' })
  settle(@Payload() order: Order): Promise<Seen> {
    return this.see('settle', order);
  }

  @WithLock(orderLock, { onBusy: 'throw' })
  @MessagePattern('order.refund')
  refund(@Payload() order: Order): Promise<Seen> {
    return this.see('refund', order);
  }

  @EventPattern('tick')
  @LeaderOnly()
  tickLeaderOnlyInside(@Payload() _tick: unknown): void {
    this.ticks.push('inside');
  }

  @LeaderOnly()
  @EventPattern('tick')
  tickLeaderOnlyOutside(@Payload() _tick: unknown): void {
    this.ticks.push('outside');
  }

  private async see(handler: string, order: Order): Promise<Seen> {
    await this.gate;
    const queued = (await queueNodes(observer, `${root}/locks/${orderLock(order)}`)).length;
    return { handler, lock: this.locks.current()?.name, queued };
  }
}

describe('@WithLock and @LeaderOnly on microservice handlers (TCP)', () => {
  let app: INestMicroservice;
  let client: ClientProxy;

  before(async () => {
    observer = await openSession(sharedConnect());
    @Module({
      imports: [ZkLockModule.forRoot({ connect: sharedConnect(), root, sessionTimeoutMs: 4000, exceptionFilter: true })],
      controllers: [OrderHandlers],
    })
    class OrdersModule {}
    app = await NestFactory.createMicroservice<MicroserviceOptions>(OrdersModule, { transport: Transport.TCP, options: { host: '127.0.0.1', port: 0 }, logger: false });
    await app.listen();
    const { port } = app.unwrap<{ address(): { port: number } }>().address();
    client = ClientProxyFactory.create({ transport: Transport.TCP, options: { host: '127.0.0.1', port } });
    await client.connect();
  });

  after(async () => {
    await client?.close();
    await app?.close();
    observer?.close();
  });

  const send = <T>(pattern: string, data: unknown) => firstValueFrom(client.send<T>(pattern, data).pipe(timeout(10_000)));

  it('runs a message handler holding the lock named from its payload, in both decorator orders', async () => {
    assert.deepEqual(await send('order.settle', { orderId: '1' }), { handler: 'settle', lock: 'order-1', queued: 1 });
    assert.deepEqual(await send('order.refund', { orderId: '2' }), { handler: 'refund', lock: 'order-2', queued: 1 });
  });

  it('answers a busy lock with the error code, through the exception filter', async () => {
    const handlers = app.get(OrderHandlers);
    let open!: () => void;
    handlers.gate = new Promise<void>((resolve) => (open = resolve));
    const first = send<Seen>('order.settle', { orderId: '3' });
    await waitFor(async () => (await queueNodes(observer, `${root}/locks/order-3`)).length === 1, { message: 'the first call holds order-3' });
    try {
      await assert.rejects(send('order.refund', { orderId: '3' }), (error: unknown) => {
        assert.deepEqual({ ...(error as object), message: undefined }, { status: 'error', code: 'ZK_LOCK_BUSY', message: undefined });
        assert.match((error as { message: string }).message, /order-3/);
        return true;
      });
    } finally {
      handlers.gate = undefined;
      open();
    }
    assert.deepEqual(await first, { handler: 'settle', lock: 'order-3', queued: 1 });
  });

  it('runs an event handler on the leader only, in both decorator orders', async () => {
    const handlers = app.get(OrderHandlers);
    const leader = app.get(LeaderService);
    await waitFor(() => leader.isLeader, { message: 'this process leads the default election' });
    await firstValueFrom(client.emit('tick', {}));
    await waitFor(() => handlers.ticks.length === 2, { message: 'both tick handlers ran' });
    assert.deepEqual([...handlers.ticks].sort(), ['inside', 'outside']);
    await leader.resign();
    handlers.ticks.length = 0;
    await firstValueFrom(client.emit('tick', {}));
    // An event has no reply: a ping after it is answered once the server handled the tick.
    assert.deepEqual(await send('order.settle', { orderId: '4' }), { handler: 'settle', lock: 'order-4', queued: 1 });
    assert.deepEqual(handlers.ticks, [], 'a process that does not lead skips both');
  });
});
