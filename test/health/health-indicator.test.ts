/**
 * `ZkLockHealthIndicator` in a Nest application with `TerminusModule`, through
 * `HealthCheckService.check()` as a health controller would call it: up while connected (a
 * follower too), up with a warning while suspended, down once the session may have expired
 * (a TcpProxy cut with a 2 s session timeout), up again with the replacement session. Also: the
 * main entry point never loads `@nestjs/terminus` (an optional peer dependency).
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, it } from 'node:test';
import { ServiceUnavailableException } from '@nestjs/common';
import { HealthCheckService, TerminusModule } from '@nestjs/terminus';
import { Test, type TestingModule } from '@nestjs/testing';
import { ZkLockHealthIndicator, type ZkLockHealthDetails } from '../../src/health/index.js';
import { LeaderElection } from '../../src/recipes/election/leader-election.js';
import { LeaderService } from '../../src/services/leader.service.js';
import { ZkLockModule } from '../../src/zk-lock.module.js';
import { ZkSession } from '../../src/zookeeper/supervised-session.js';
import { firstHostPort, randomRoot, SessionPool, sharedConnectString } from '../fixtures/session-helpers.js';
import { importGraph } from '../support/import-graph.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { waitFor } from '../support/wait.js';

const silent = { log() {}, error() {}, warn() {}, debug() {}, verbose() {} };
const buildDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

type Details = ZkLockHealthDetails & { status: string };

describe('ZkLockHealthIndicator', () => {
  const pool = new SessionPool();
  let app: TestingModule | undefined;
  let proxy: TcpProxy | undefined;
  let election: LeaderElection | undefined;
  afterEach(async () => {
    await app?.close();
    await election?.close();
    await proxy?.close();
    pool.closeAll();
    app = election = proxy = undefined;
  });

  it('is up while connected (a follower too), up with a warning while suspended, down when lost, up again after', async () => {
    const root = randomRoot();
    // Another process leads the election first: this one follows, which is healthy.
    election = new LeaderElection(await pool.open(), { root, name: 'jobs', identity: 'other', drainTimeoutMs: 1000 });
    election.join();
    await waitFor(() => election!.isLeader, { message: 'the other process leads' });

    const { host, port } = firstHostPort(sharedConnectString());
    proxy = await TcpProxy.start(host, port);
    app = await Test.createTestingModule({
      imports: [
        TerminusModule.forRoot({ logger: false }),
        ZkLockModule.forRoot({ connect: proxy.connectString, root, sessionTimeoutMs: 2000, election: { name: 'jobs' } }),
      ],
      providers: [ZkLockHealthIndicator],
    })
      .setLogger(silent)
      .compile();
    await app.init();
    const health = app.get(HealthCheckService);
    const indicator = app.get(ZkLockHealthIndicator);
    const session = app.get(ZkSession);
    await waitFor(async () => (await app!.get(LeaderService).participants()).length === 2, { message: 'this process joined' });

    // The last contact is the latest moment the leader is proven to have touched the session
    // (LeaderContact): an answered sync proves the requests sent half a timeout (1000 ms) before
    // it, so two syncs that far apart prove the first one, give or take the eighth of that span by
    // which send times are thinned.
    const sent = performance.now();
    await session.sync('/');
    await new Promise((resolve) => setTimeout(resolve, 1000 + 20));
    await session.sync('/');
    const checking = performance.now();
    const up = await health.check([() => indicator.isHealthy('zookeeper')]);
    const checked = performance.now();
    assert.equal(up.status, 'ok');
    const details = up.info!.zookeeper as Details;
    assert.equal(details.status, 'up');
    assert.equal(details.state, 'connected');
    assert.equal(details.sessionId, session.sessionId);
    assert.equal(details.sessionTimeoutMs, 2000);
    assert.equal(typeof details.lastContactAgoMs, 'number');
    const [low, high] = [Math.floor(checking - sent) - 100, Math.ceil(checked - sent) + 1000 / 8];
    assert.ok(low <= details.lastContactAgoMs! && details.lastContactAgoMs! <= high, `${details.lastContactAgoMs} ms since the last contact, not within [${low}, ${high}]`);
    assert.deepEqual(details.elections, { jobs: { isLeader: false, participating: true } });
    assert.equal(details.warning, undefined);
    assert.equal(details.message, undefined);

    // Each state is checked the moment it is published (the indicator sends no request).
    const seen = new Map<string, Promise<Awaited<ReturnType<typeof indicator.isHealthy>>>>();
    const subscription = session.state$.subscribe(({ state }) => {
      if (!seen.has(state)) seen.set(state, indicator.isHealthy('zk'));
    });
    try {
      // Dropped and refused, so that the disconnection shows at once: a silent cut would count the
      // session lost (the leader stops confirming it) before the C client notices the silence.
      proxy.refuse(true);
      proxy.reset();
      await waitFor(() => seen.has('lost'), { timeoutMs: 5000, message: 'session lost' });
      const suspended = (await seen.get('suspended')!).zk as Details;
      assert.equal(suspended.status, 'up');
      assert.equal(suspended.state, 'suspended');
      assert.match(suspended.warning!, /may still be alive/);

      const lost = await health.check([() => indicator.isHealthy('zookeeper')]).then(
        () => assert.fail('a lost session is not healthy'),
        (error: unknown) => {
          assert.ok(error instanceof ServiceUnavailableException);
          return error.getResponse() as { status: string; error: Record<string, Details> };
        },
      );
      assert.equal(lost.status, 'error');
      assert.equal(lost.error.zookeeper!.status, 'down');
      assert.equal(lost.error.zookeeper!.state, 'lost');
      assert.equal(lost.error.zookeeper!.sessionId, details.sessionId);
      assert.match(lost.error.zookeeper!.message!, /may have expired/);
      assert.deepEqual(lost.error.zookeeper!.elections, { jobs: { isLeader: false, participating: true } });

      // Once the server has expired the old session (its election node is gone), heal the cut:
      // the module replaces the session and is healthy again.
      await waitFor(async () => (await election!.participants()).length === 1, { timeoutMs: 10_000, message: 'server-side expiry' });
      proxy.refuse(false);
      await waitFor(() => session.state === 'connected' && session.sessionId !== details.sessionId, { timeoutMs: 10_000, message: 'a new session' });
      const again = await health.check([() => indicator.isHealthy('zookeeper')]);
      assert.equal(again.status, 'ok');
      assert.equal((again.info!.zookeeper as Details).sessionId, session.sessionId);
    } finally {
      subscription.unsubscribe();
    }
  });

  it('reports the leadership of every election this process knows, and of those named, and is down once closed', async () => {
    const root = randomRoot();
    app = await Test.createTestingModule({
      imports: [TerminusModule.forRoot({ logger: false }), ZkLockModule.forRoot({ connect: sharedConnectString(), root, sessionTimeoutMs: 4000 })],
      providers: [ZkLockHealthIndicator],
    })
      .setLogger(silent)
      .compile();
    await app.init();
    const indicator = app.get(ZkLockHealthIndicator);
    const leaders = app.get(LeaderService);
    const reports = leaders.election('reports');
    await waitFor(() => reports.isLeader, { message: 'leads "reports"' });

    const known = (await indicator.isHealthy()).zookeeper;
    assert.deepEqual(known.elections, { reports: { isLeader: true, participating: true } }, 'every election this process knows, unasked');
    const named = (await indicator.isHealthy('zookeeper', { elections: ['reports', 'audit'] })).zookeeper;
    assert.equal(named.status, 'up');
    assert.deepEqual(Object.keys(named.elections), ['audit', 'reports'], 'a named election is added (and created)');
    assert.deepEqual(named.elections.reports, { isLeader: true, participating: true });

    await app.close();
    app = undefined;
    const closed = (await indicator.isHealthy('zookeeper', { elections: ['reports'] })).zookeeper;
    assert.equal(closed.status, 'down');
    assert.equal(closed.state, 'closed');
    assert.equal(closed.lastContactAgoMs, null);
    assert.deepEqual(closed.elections, {
      audit: { isLeader: false, participating: false },
      reports: { isLeader: false, participating: false },
    });
  });

  it('shows the identities the server knows the session by (whoAmI), so that digest auth can be seen to have taken effect', async () => {
    const root = randomRoot();
    app = await Test.createTestingModule({
      imports: [
        TerminusModule.forRoot({ logger: false }),
        ZkLockModule.forRoot({ connect: sharedConnectString(), root, sessionTimeoutMs: 4000, auth: { scheme: 'digest', credentials: 'health:secret' } }),
      ],
      providers: [ZkLockHealthIndicator],
    })
      .setLogger(silent)
      .compile();
    await app.init();
    const details = (await app.get(ZkLockHealthIndicator).isHealthy()).zookeeper as unknown as Details;
    const identities = (details.identities ?? []).map(({ scheme, user }) => `${scheme}:${user}`);
    assert.ok(identities.includes('digest:health'), identities.join(', '));
    assert.ok(identities.some((identity) => identity.startsWith('ip:')), identities.join(', '));
  });

  it('is published as nestjs-zk-lock/health, and the main entry point never loads @nestjs/terminus', async () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(buildDir, '..', 'package.json'), 'utf8')) as {
      exports: Record<string, { import: { types: string; default: string }; default: { types: string; default: string } }>;
      peerDependenciesMeta: Record<string, { optional: boolean }>;
    };
    assert.deepEqual(pkg.exports['./health'], {
      import: { types: './dist/esm/health/index.d.ts', default: './dist/esm/health/index.js' },
      default: { types: './dist/health/index.d.ts', default: './dist/health/index.js' },
    });
    assert.equal(pkg.peerDependenciesMeta['@nestjs/terminus']?.optional, true);
    // Every module the main entry point imports, transitively (compiled JS: static imports only).
    const { files, packages } = importGraph(path.join(buildDir, 'src/index.js'));
    assert.ok(files.size > 20 && packages.has('@nestjs/common'), `the walk found the imports (${files.size} files)`);
    assert.ok(!packages.has('@nestjs/terminus'), `imported by the main entry point: ${[...packages].join(', ')}`);
    assert.ok(![...files].some((file) => file.includes(`${path.sep}health${path.sep}`)));
  });
});
