var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
/**
 * Issue 14, smaller items: a provider that uses `@WithLock` in an application without
 * `ZkLockModule` fails at start-up with an error that names the module to import and the
 * provider that needs it, not only Nest's generic missing-dependency message.
 */
import assert from 'node:assert/strict';
import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { describe, it } from 'node:test';
import { WithLock } from '../../src/decorators/with-lock.decorator.js';
let Billing = class Billing {
    async run() {
        return 'ran';
    }
};
__decorate([
    WithLock('billing'),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", Promise)
], Billing.prototype, "run", null);
Billing = __decorate([
    Injectable()
], Billing);
let AppWithoutZkLock = class AppWithoutZkLock {
};
AppWithoutZkLock = __decorate([
    Module({ providers: [Billing] })
], AppWithoutZkLock);
describe('@WithLock without ZkLockModule', () => {
    it('fails at start-up naming ZkLockModule and the provider', async () => {
        const error = await NestFactory.createApplicationContext(AppWithoutZkLock, { logger: false, abortOnError: false }).then((app) => app.close().then(() => undefined), (failure) => failure);
        assert.ok(error instanceof Error, 'the application started without ZkLockModule');
        assert.match(error.message, /ZkLockModule/, error.message);
        assert.match(error.message, /Billing/, error.message);
    });
});
//# sourceMappingURL=with-lock-without-module.test.js.map