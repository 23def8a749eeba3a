/**
 * Issue 14, smaller items: a provider that uses `@LeaderOnly` or `@OnLeaderRecovery` in an
 * application without `ZkLockModule` fails at start-up with an error that names the module to
 * import and the provider that needs it (as `@WithLock` does), instead of Nest's generic
 * missing-dependency message or, for a recovery handler, of never being called.
 */
import assert from 'node:assert/strict';
import 'reflect-metadata';
import { Injectable, Module, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { describe, it } from 'node:test';
import { LeaderOnly } from '../../src/decorators/leader-only.decorator.js';
import { OnLeaderRecovery } from '../../src/decorators/on-leader-recovery.decorator.js';
import type { InterruptedSection } from '../../src/recipes/ready/ready-state.js';

@Injectable()
class NightlyReport {
  @LeaderOnly()
  async run(): Promise<string> {
    return 'ran';
  }
}

@Injectable()
class ReportRepair {
  readonly repaired: InterruptedSection[] = [];

  @OnLeaderRecovery('reports')
  async repair(interrupted: InterruptedSection): Promise<void> {
    this.repaired.push(interrupted);
  }
}

/** The start-up error of an application whose only provider is `provider`, without ZkLockModule. */
async function startUpError(provider: Type): Promise<unknown> {
  @Module({ providers: [provider] })
  class AppWithoutZkLock {}
  return NestFactory.createApplicationContext(AppWithoutZkLock, { logger: false, abortOnError: false }).then(
    (app) => app.close().then(() => undefined),
    (failure: unknown) => failure,
  );
}

describe('leader decorators without ZkLockModule', () => {
  it('@LeaderOnly: fails at start-up naming ZkLockModule and the provider', async () => {
    const error = await startUpError(NightlyReport);
    assert.ok(error instanceof Error, 'the application started without ZkLockModule');
    assert.match(error.message, /ZkLockModule/, error.message);
    assert.match(error.message, /NightlyReport/, error.message);
  });

  it('@OnLeaderRecovery: fails at start-up naming ZkLockModule and the provider', async () => {
    const error = await startUpError(ReportRepair);
    assert.ok(error instanceof Error, 'the application started without ZkLockModule: its recovery handler would never run');
    assert.match(error.message, /ZkLockModule/, error.message);
    assert.match(error.message, /ReportRepair/, error.message);
  });
});
