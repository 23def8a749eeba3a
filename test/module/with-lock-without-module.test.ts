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

@Injectable()
class Billing {
  @WithLock('billing')
  async run(): Promise<string> {
    return 'ran';
  }
}

@Module({ providers: [Billing] })
class AppWithoutZkLock {}

describe('@WithLock without ZkLockModule', () => {
  it('fails at start-up naming ZkLockModule and the provider', async () => {
    const error = await NestFactory.createApplicationContext(AppWithoutZkLock, { logger: false, abortOnError: false }).then(
      (app) => app.close().then(() => undefined),
      (failure: unknown) => failure,
    );
    assert.ok(error instanceof Error, 'the application started without ZkLockModule');
    assert.match(error.message, /ZkLockModule/, error.message);
    assert.match(error.message, /Billing/, error.message);
  });
});
