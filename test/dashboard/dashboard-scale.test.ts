/**
 * The dashboard on a protected root and on a large tree (issue 20). With digest auth and the
 * default creator-only ACLs, another identity cannot read the root while the dashboard, on the
 * application's session, shows it. With 1000 locks held and 1000 waiters on one of them, the
 * state lists them all, the page's stream sets no watch per waiter (one on the root; one per
 * directory where persistent watches are unavailable), and a
 * release in the long queue is read again with a handful of server reads, not one per waiter
 * (counted on the shared server: the runner runs one test file at a time). When the application's
 * session expires, the dashboard sets its watches again on the new one and stays live.
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Module, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { ZkLockDashboardModule, type DashboardView } from '../../src/dashboard/index.js';
import { ZooKeeperError } from '../../src/errors/zookeeper.error.js';
import { LockClient } from '../../src/recipes/lock/lock-client.js';
import type { Lease } from '../../src/recipes/lock/lease.js';
import { LockService } from '../../src/services/lock.service.js';
import { ZkSession } from '../../src/zookeeper/supervised-session.js';
import { ZkLockModule } from '../../src/zk-lock.module.js';
import type { ZkLockModuleOptions } from '../../src/zk-lock.options.js';
import { watchedBy } from '../support/server-watches.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { fourLetterWord } from '../support/zk-server.js';
import { waitFor } from '../support/wait.js';
import { expireBehindProxy, openSession, sharedConnect, testRoot } from '../lock/lock-test-kit.js';
import { SseReader } from './sse-reader.js';

async function startApp(options: ZkLockModuleOptions): Promise<{ app: INestApplication; base: string }> {
  @Module({ imports: [ZkLockModule.forRoot({ ...options, isGlobal: true }), ZkLockDashboardModule.forRoot({ public: true })] })
  class AppModule {}
  const app = await NestFactory.create(AppModule, new ExpressAdapter(), { logger: false });
  await app.listen(0, '127.0.0.1');
  return { app, base: `${(await app.getUrl()).replace('[::1]', '127.0.0.1')}/zk-lock` };
}

const viewOf = async (base: string): Promise<DashboardView> => ((await (await fetch(`${base}/api/state`, { signal: AbortSignal.timeout(30_000) })).json()) as { view: DashboardView }).view;

/** Reads the shared server has answered so far (`mntr`). */
async function serverReads(): Promise<number> {
  const [host, port] = sharedConnect().split(',')[0]!.split(':');
  const line = (await fourLetterWord(host!, Number(port), 'mntr')).split('\n').find((l) => l.startsWith('zk_cnt_readlatency\t'));
  return Number(line!.split('\t')[1]);
}

describe('the dashboard on a root protected by digest auth', () => {
  it('shows what only the application may read', async () => {
    const root = testRoot();
    const { app, base } = await startApp({ connect: sharedConnect(), root, sessionTimeoutMs: 4000, auth: [{ scheme: 'digest', credentials: 'app:s3cret' }] });
    const stranger = await openSession(sharedConnect());
    try {
      await app.get(LockService).withLock('payroll', async () => {
        await assert.rejects(stranger.getChildren(`${root}/locks/payroll`), (error: unknown) => ZooKeeperError.is(error, 'NOAUTH'), 'another identity reads the lock directory');
        const view = await viewOf(base);
        assert.equal(view.locks.find((l) => l.name === 'payroll')?.holder?.sessionId, app.get(ZkSession).sessionId);
      });
    } finally {
      stranger.close();
      await app.close();
    }
  });
});

describe('the dashboard on 1000 locks and a queue of 1000', () => {
  const root = testRoot();
  const LOCKS = 1000;
  const WAITERS = 1000;
  let app: INestApplication;
  let base: string;
  const sessions: ZkSession[] = [];
  const held: Lease[] = [];
  let queue: Promise<Lease>[] = [];

  before(async () => {
    ({ app, base } = await startApp({ connect: sharedConnect(), root, sessionTimeoutMs: 10_000 }));
    const holders = await openSession(sharedConnect(), 10_000);
    const waiters = await openSession(sharedConnect(), 10_000);
    sessions.push(holders, waiters);
    const locks = new LockClient(holders, { root, identity: 'holder' });
    for (let i = 0; i < LOCKS; i += 100) held.push(...(await Promise.all(Array.from({ length: 100 }, (_, j) => locks.acquire(`entity-${i + j}`)))));
    const queued = new LockClient(waiters, { root, identity: 'waiter' });
    queue = Array.from({ length: WAITERS }, () => queued.acquire('entity-0'));
    await waitFor(async () => (await viewOf(base)).locks.find((l) => l.name === 'entity-0')?.waiters.length === WAITERS, { timeoutMs: 60_000, intervalMs: 500, message: `${WAITERS} waiters shown` });
  });

  after(async () => {
    for (const lease of held) await lease.release().catch(() => undefined);
    await app?.close();
    for (const session of sessions) session.close();
  });

  it('lists every lock; a page keeps no watch per waiter; a release in the long queue costs a few reads', async () => {
    const view = await viewOf(base);
    assert.equal(view.locks.length, LOCKS);
    const stream = await SseReader.open(`${base}/api/stream`);
    try {
      await stream.next((m) => m.event === 'view', 60_000, 'the first view');
      const watched = await watchedBy(sharedConnect(), app.get(ZkSession).sessionId!);
      // The root watch alone; without persistent watches, per lock its directory and (none here) its ready znode, plus the category directories.
      assert.ok(watched.length <= LOCKS + 4, `the dashboard watches ${watched.length} paths for ${LOCKS} locks and ${WAITERS} waiters`);
      const before = await serverReads();
      await held[0]!.release(); // entity-0: the first waiter holds now
      const next = await stream.next((m) => m.event === 'view' && (m.data as DashboardView).locks.find((l) => l.name === 'entity-0')?.waiters.length === WAITERS - 1, 30_000, 'the view after the release');
      assert.equal((next.data as DashboardView).locks.find((l) => l.name === 'entity-0')?.holder?.identity, 'waiter');
      const reads = (await serverReads()) - before;
      assert.ok(reads < 50, `${reads} server reads for one release in a queue of ${WAITERS} (the waiters were read before)`);
    } finally {
      stream.close();
    }
    // The queue drains: each waiter releases once it holds.
    for (const waiting of queue) await (await waiting).release();
  });
});

describe('the dashboard across an expiry of the application\'s session', () => {
  it('watches again on the new session: a holder change afterwards still reaches the page', async () => {
    const root = testRoot();
    // The application reaches the server through a proxy, so that it can be kept from reconnecting
    // while its session is expired (a reconnection would take the session back from the closing handle).
    const [host, port] = sharedConnect().split(',')[0]!.split(':');
    const proxy = await TcpProxy.start(host!, Number(port));
    const { app, base } = await startApp({ connect: `127.0.0.1:${proxy.port}`, root, sessionTimeoutMs: 4000 });
    const other = await openSession(sharedConnect());
    const stream = await SseReader.open(`${base}/api/stream`);
    try {
      const locks = new LockClient(other, { root, identity: 'elsewhere' });
      const first = await locks.acquire('report');
      const holderIs = (who: string | undefined) => (m: { event: string; data: unknown }) => m.event === 'view' && (m.data as DashboardView).locks.find((l) => l.name === 'report')?.holder?.identity === who;
      await stream.next(holderIs('elsewhere'), 10_000, 'the holder shown');
      const session = app.get(ZkSession);
      const old = session.sessionId;
      await expireBehindProxy(proxy, sharedConnect(), session);
      await waitFor(() => session.state === 'connected' && session.sessionId !== old, { timeoutMs: 20_000, message: 'a new session' });
      await stream.next((m) => m.event === 'view' && (m.data as DashboardView).session.sessionId === session.sessionId, 10_000, 'a view on the new session');
      await first.release();
      await stream.next((m) => m.event === 'view' && (m.data as DashboardView).locks.find((l) => l.name === 'report')?.holder === null, 10_000, 'the release seen through the new session\'s watches');
    } finally {
      stream.close();
      other.close();
      await app.close();
      await proxy.close();
    }
  });
});
