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
import { Controller, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ClientProxyFactory, EventPattern, MessagePattern, Payload, Transport } from '@nestjs/microservices';
import { firstValueFrom, timeout } from 'rxjs';
import { LeaderOnly } from '../../src/decorators/leader-only.decorator.js';
import { WithLock } from '../../src/decorators/with-lock.decorator.js';
import { LeaderService } from '../../src/services/leader.service.js';
import { LockService } from '../../src/services/lock.service.js';
import { ZkLockModule } from '../../src/zk-lock.module.js';
import { waitFor } from '../support/wait.js';
import { openSession, queueNodes, sharedConnect, testRoot } from '../lock/lock-test-kit.js';
const root = testRoot();
let observer;
const orderLock = (order) => `order-${order.orderId}`;
let OrderHandlers = class OrderHandlers {
    constructor(locks) {
        this.locks = locks;
        this.ticks = [];
    }
    settle(order) {
        return this.see('settle', order);
    }
    refund(order) {
        return this.see('refund', order);
    }
    tickLeaderOnlyInside(_tick) {
        this.ticks.push('inside');
    }
    tickLeaderOnlyOutside(_tick) {
        this.ticks.push('outside');
    }
    async see(handler, order) {
        await this.gate;
        const queued = (await queueNodes(observer, `${root}/locks/${orderLock(order)}`)).length;
        return { handler, lock: this.locks.current()?.name, queued };
    }
};
__decorate([
    MessagePattern('order.settle'),
    WithLock(orderLock, { onBusy: 'throw' }),
    __param(0, Payload()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", Promise)
], OrderHandlers.prototype, "settle", null);
__decorate([
    WithLock(orderLock, { onBusy: 'throw' }),
    MessagePattern('order.refund'),
    __param(0, Payload()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", Promise)
], OrderHandlers.prototype, "refund", null);
__decorate([
    EventPattern('tick'),
    LeaderOnly(),
    __param(0, Payload()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", void 0)
], OrderHandlers.prototype, "tickLeaderOnlyInside", null);
__decorate([
    LeaderOnly(),
    EventPattern('tick'),
    __param(0, Payload()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", void 0)
], OrderHandlers.prototype, "tickLeaderOnlyOutside", null);
OrderHandlers = __decorate([
    Controller(),
    __metadata("design:paramtypes", [LockService])
], OrderHandlers);
describe('@WithLock and @LeaderOnly on microservice handlers (TCP)', () => {
    let app;
    let client;
    before(async () => {
        observer = await openSession(sharedConnect());
        let OrdersModule = class OrdersModule {
        };
        OrdersModule = __decorate([
            Module({
                imports: [ZkLockModule.forRoot({ connect: sharedConnect(), root, sessionTimeoutMs: 4000, exceptionFilter: true })],
                controllers: [OrderHandlers],
            })
        ], OrdersModule);
        app = await NestFactory.createMicroservice(OrdersModule, { transport: Transport.TCP, options: { host: '127.0.0.1', port: 0 }, logger: false });
        await app.listen();
        const { port } = app.unwrap().address();
        client = ClientProxyFactory.create({ transport: Transport.TCP, options: { host: '127.0.0.1', port } });
        await client.connect();
    });
    after(async () => {
        await client?.close();
        await app?.close();
        observer?.close();
    });
    const send = (pattern, data) => firstValueFrom(client.send(pattern, data).pipe(timeout(10_000)));
    it('runs a message handler holding the lock named from its payload, in both decorator orders', async () => {
        assert.deepEqual(await send('order.settle', { orderId: '1' }), { handler: 'settle', lock: 'order-1', queued: 1 });
        assert.deepEqual(await send('order.refund', { orderId: '2' }), { handler: 'refund', lock: 'order-2', queued: 1 });
    });
    it('answers a busy lock with the error code, through the exception filter', async () => {
        const handlers = app.get(OrderHandlers);
        let open;
        handlers.gate = new Promise((resolve) => (open = resolve));
        const first = send('order.settle', { orderId: '3' });
        await waitFor(async () => (await queueNodes(observer, `${root}/locks/order-3`)).length === 1, { message: 'the first call holds order-3' });
        try {
            await assert.rejects(send('order.refund', { orderId: '3' }), (error) => {
                assert.deepEqual({ ...error, message: undefined }, { status: 'error', code: 'ZK_LOCK_BUSY', message: undefined });
                assert.match(error.message, /order-3/);
                return true;
            });
        }
        finally {
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
//# sourceMappingURL=microservices.test.js.map