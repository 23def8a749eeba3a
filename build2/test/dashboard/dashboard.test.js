var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
/**
 * The dashboard (issue 20) on a real server, mounted in a Nest HTTP app on Express and on
 * Fastify: the guard is required and enforced; the state and the event stream show holders and
 * waiters in queue order with their identities, elections and their leaders; a release elsewhere
 * reaches an open page as a new view and a timeline entry; the actions ask the holder or the leader
 * and need the confirmation header; watches stay one per directory however many wait.
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { ZkLockDashboardModule } from '../../src/dashboard/index.js';
import { dashboardPage, filterOfHash } from '../../src/dashboard/dashboard-page.js';
import { InvalidOptionsError } from '../../src/errors/invalid-options.error.js';
import { LeaderElection } from '../../src/recipes/election/leader-election.js';
import { LockClient } from '../../src/recipes/lock/lock-client.js';
import { ZkSession } from '../../src/zookeeper/supervised-session.js';
import { ZkLockModule } from '../../src/zk-lock.module.js';
import { watchedBy } from '../support/server-watches.js';
import { waitFor } from '../support/wait.js';
import { openSession, sharedConnect, testRoot } from '../lock/lock-test-kit.js';
import { SseReader } from './sse-reader.js';
const AUTH = { authorization: 'Bearer let-me-in' };
let TokenGuard = class TokenGuard {
    canActivate(context) {
        const request = context.switchToHttp().getRequest();
        return request.headers.authorization === AUTH.authorization;
    }
};
TokenGuard = __decorate([
    Injectable()
], TokenGuard);
describe('ZkLockDashboardModule.forRoot', () => {
    it('refuses to mount without a guard unless told the page is public', () => {
        assert.throws(() => ZkLockDashboardModule.forRoot({}), (error) => error instanceof InvalidOptionsError && /guard/.test(error.message));
        assert.throws(() => ZkLockDashboardModule.forRoot({ guard: TokenGuard, public: true }), InvalidOptionsError);
        assert.throws(() => ZkLockDashboardModule.forRoot({ guard: TokenGuard, path: '../x' }), InvalidOptionsError);
        assert.throws(() => ZkLockDashboardModule.forRoot({ public: true, timeline: 50 }), (error) => error instanceof InvalidOptionsError && error.field === 'dashboard.timeline' && /did you mean 'dashboard\.timelineSize'\?/.test(error.message));
        assert.doesNotThrow(() => ZkLockDashboardModule.forRoot({ public: true }));
    });
    it('refuses a guard that is no guard (null, false, an object without canActivate): the page would mount unguarded', () => {
        for (const guard of [null, false, 0, '', {}]) {
            assert.throws(() => ZkLockDashboardModule.forRoot({ guard: guard }), (error) => error instanceof InvalidOptionsError && /dashboard\.guard/.test(error.message), `guard: ${JSON.stringify(guard)}`);
        }
        assert.doesNotThrow(() => ZkLockDashboardModule.forRoot({ guard: new TokenGuard() }));
    });
});
describe('the dashboard page', () => {
    it('carries a script that parses (a template-literal escape once broke it)', () => {
        const script = /<script>([\s\S]*)<\/script>/.exec(dashboardPage())?.[1];
        assert.ok(script, 'the page has a script');
        assert.doesNotThrow(() => new Function(script), 'the script is not valid JavaScript');
    });
    it('reads the filter from a link whose hash is not valid percent-encoding (`#%`) as written, instead of throwing', () => {
        assert.equal(filterOfHash('#orders%3A1'), 'orders:1');
        assert.equal(filterOfHash(''), '');
        assert.equal(filterOfHash('#%'), '%');
        assert.equal(filterOfHash('#a%E0%A4%A'), 'a%E0%A4%A');
        const script = /<script>([\s\S]*)<\/script>/.exec(dashboardPage())?.[1] ?? '';
        assert.ok(script.includes(filterOfHash.toString()), 'the page uses this function');
    });
});
for (const platform of ['express', 'fastify']) {
    describe(`the dashboard on ${platform}`, () => {
        const root = testRoot();
        let app;
        let base;
        const others = [];
        before(async () => {
            let AppModule = class AppModule {
            };
            AppModule = __decorate([
                Module({
                    imports: [
                        ZkLockModule.forRoot({ connect: sharedConnect(), root, sessionTimeoutMs: 4000, isGlobal: true, identity: 'dashboard-app' }),
                        ZkLockDashboardModule.forRoot({ path: 'ops/zk-lock', guard: TokenGuard }),
                    ],
                })
            ], AppModule);
            app = await NestFactory.create(AppModule, platform === 'express' ? new ExpressAdapter() : new FastifyAdapter(), { logger: false });
            await app.listen(0, '127.0.0.1');
            base = `${(await app.getUrl()).replace('[::1]', '127.0.0.1')}/ops/zk-lock`;
        });
        after(async () => {
            await app?.close();
            for (const session of others)
                session.close();
        });
        /** A client of its own (own session), with `identity` in its queue nodes. */
        async function client(identity) {
            const session = await openSession(sharedConnect());
            others.push(session);
            return new LockClient(session, { root, identity });
        }
        const get = (path, headers = AUTH) => fetch(`${base}${path}`, { headers, signal: AbortSignal.timeout(10_000) });
        it('answers 403 to a request the guard refuses, on every route', async () => {
            for (const path of ['', '/api/state', '/api/stream'])
                assert.equal((await get(path, {})).status, 403, path);
            const post = await fetch(`${base}/api/locks/x/release`, { method: 'POST', headers: { 'x-zk-lock-confirm': 'yes' }, signal: AbortSignal.timeout(10_000) });
            assert.equal(post.status, 403);
            const page = await get('');
            assert.equal(page.status, 200);
            assert.match(page.headers.get('content-type') ?? '', /text\/html/);
            assert.match(await page.text(), /<title>nestjs-zk-lock<\/title>/);
        });
        it('shows a lock\'s holder and its waiters in queue order, and an election\'s leader and followers', async () => {
            const [a, b, c] = [await client('holder-a'), await client('waiter-b'), await client('waiter-c')];
            const held = await a.acquire('orders:1');
            const waiting = [b.acquire('orders:1')];
            await waitFor(async () => (await (await get('/api/state')).json()).view.locks.find((l) => l.name === 'orders:1')?.waiters.length === 1, { timeoutMs: 10_000, message: 'b queued' });
            waiting.push(c.acquire('orders:1')); // behind b: the order of their creates is the queue's
            const elections = [];
            for (const identity of ['leader-x', 'follower-y']) {
                const session = await openSession(sharedConnect());
                others.push(session);
                const election = new LeaderElection(session, { root, name: 'billing', identity });
                election.join();
                elections.push(election);
                if (identity === 'leader-x')
                    await waitFor(() => election.isLeader, { timeoutMs: 10_000, message: 'the first participant leads' });
            }
            let view;
            await waitFor(async () => {
                view = (await (await get('/api/state')).json()).view;
                return view.locks.find((l) => l.name === 'orders:1')?.waiters.length === 2 && view.elections.find((e) => e.name === 'billing')?.followers.length === 1;
            }, { timeoutMs: 10_000, message: 'both waiters and the follower shown' });
            const lock = view.locks.find((l) => l.name === 'orders:1');
            assert.equal(lock.holder?.identity, 'holder-a');
            assert.deepEqual(lock.waiters.map((w) => w.identity), ['waiter-b', 'waiter-c']);
            const election = view.elections.find((e) => e.name === 'billing');
            assert.equal(election.leader?.identity, 'leader-x');
            assert.equal(view.session.state, 'connected');
            await held.release();
            for (const next of waiting)
                await (await next).release(); // in queue order: c holds only once b let go
            for (const e of elections)
                await e.close();
        });
        it("shows a semaphore's holders and waiters with their permits, and a grant when a holder leaves", async () => {
            const [a, b, c] = [await client('exporter-a'), await client('exporter-b'), await client('exporter-c')];
            const state = async () => (await (await get('/api/state')).json()).view.semaphores.find((s) => s.name === 'exports');
            const held = (await a.acquirePermits('exports', { permits: 3, take: 2 }));
            const big = b.acquirePermits('exports', { permits: 3, take: 2 });
            await waitFor(async () => (await state())?.waiters.length === 1, { timeoutMs: 10_000, message: 'b waits for 2 of the 3' });
            const small = c.acquirePermits('exports', { permits: 3, take: 1 }); // fits, but behind b: no overtaking
            await waitFor(async () => (await state())?.waiters.length === 2, { timeoutMs: 10_000, message: 'c waits behind b' });
            const before = (await state());
            assert.deepEqual([before.permits, before.taken], [3, 2]);
            assert.deepEqual(before.holders.map((h) => [h.identity, h.take]), [['exporter-a', 2]]);
            assert.deepEqual(before.waiters.map((w) => [w.identity, w.take]), [['exporter-b', 2], ['exporter-c', 1]]);
            await held.release();
            await waitFor(async () => (await state())?.waiters.length === 0, { timeoutMs: 10_000, message: 'b and c granted once a left' });
            const after = (await state());
            assert.equal(after.taken, 3);
            assert.deepEqual(after.holders.map((h) => h.identity), ['exporter-b', 'exporter-c']);
            for (const lease of await Promise.all([big, small]))
                await lease.release();
        });
        it('streams a new view and a timeline entry when the holder changes elsewhere, with one watch per directory', async () => {
            const [a, b] = [await client('first'), await client('second')];
            const held = await a.acquire('invoice:7');
            const stream = await SseReader.open(`${base}/api/stream`, AUTH);
            try {
                assert.equal(stream.status, 200);
                const holderOf = (message) => message.data.locks.find((l) => l.name === 'invoice:7')?.holder?.identity;
                await stream.next((m) => m.event === 'view' && holderOf(m) === 'first', 10_000, 'a view with the first holder');
                // 20 waiters, then `b`: each releases as soon as it holds, so the queue drains after the holder.
                const waiters = await Promise.all(Array.from({ length: 20 }, (_, i) => client(`w${i}`)));
                let letGo;
                const released = new Promise((resolve) => (letGo = resolve));
                const drained = [];
                const holdUntilLetGo = async (lease) => {
                    await released;
                    await lease.release();
                };
                for (const waiter of waiters) {
                    drained.push(waiter.acquire('invoice:7').then(holdUntilLetGo));
                    await waitFor(async () => (await (await get('/api/state')).json()).view.locks.find((l) => l.name === 'invoice:7').waiters.length === drained.length, { timeoutMs: 10_000, message: `waiter ${drained.length} shown` });
                }
                drained.push(b.acquire('invoice:7').then(holdUntilLetGo));
                await stream.next((m) => m.event === 'view' && m.data.locks.find((l) => l.name === 'invoice:7')?.waiters.length === 21, 10_000, 'a view with all 21 waiters');
                // The dashboard's own session: one watch per category listing and per directory, not per
                // waiter (the earlier tests' names are watched too: their api/state calls keep the view live).
                const sessionId = app.get(ZkSession).sessionId;
                const watched = await watchedBy(sharedConnect(), sessionId);
                assert.ok(watched.length <= 12, `the dashboard watches ${watched.length} paths: ${watched.join(', ')}`);
                assert.equal(watched.filter((path) => path.includes('/_c_')).length, 0, `no queue node watched: ${watched.join(', ')}`);
                await held.release();
                const entry = await stream.next((m) => m.event === 'event' && m.data.type === 'lock.holder' && m.data.name === 'invoice:7', 10_000, 'a holder change in the timeline');
                assert.equal(entry.data.detail, 'held by w0');
                letGo(); // each holds until now: the queue drains in order
                await Promise.all(drained);
            }
            finally {
                stream.close();
            }
        });
        it('asks a holder to let go only with the confirmation header; an invalid name is a 400', async () => {
            const holder = await client('long-job');
            const lease = await holder.acquire('export');
            const post = (path, headers) => fetch(`${base}${path}`, { method: 'POST', headers: { ...AUTH, ...headers }, signal: AbortSignal.timeout(10_000) });
            assert.equal((await post('/api/locks/export/release', {})).status, 400);
            assert.equal(lease.releaseRequested.aborted, false);
            const asked = await post('/api/locks/export/release', { 'x-zk-lock-confirm': 'yes' });
            assert.equal(asked.status, 200);
            const body = (await asked.json());
            assert.deepEqual({ requested: body.requested, identity: body.identity }, { requested: true, identity: 'long-job' });
            await waitFor(() => lease.releaseRequested.aborted, { timeoutMs: 10_000, message: 'the holder was told' });
            await lease.release();
            assert.equal((await post('/api/locks/a%01b/release', { 'x-zk-lock-confirm': 'yes' })).status, 400);
            const nobody = (await (await post('/api/elections/none/step-down', { 'x-zk-lock-confirm': 'yes' })).json());
            assert.deepEqual(nobody, { requested: false, dir: `${root}/elections/none`, reason: 'free' });
        });
        it('refuses an action from another site (Origin or Sec-Fetch-Site) with a 403 that says why, confirmation or not', async () => {
            const holder = await client('cross-site-target');
            const lease = await holder.acquire('payout');
            const host = new URL(base).host;
            const post = (path, headers) => fetch(`${base}${path}`, { method: 'POST', headers: { ...AUTH, 'x-zk-lock-confirm': 'yes', ...headers }, signal: AbortSignal.timeout(10_000) });
            const crossSite = [{ origin: 'http://evil.example' }, { origin: `http://${host.replace(/:\d+$/, ':1')}` }, { origin: 'null' }, { 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' }, { origin: `http://${host}`, 'sec-fetch-site': 'cross-site' }];
            for (const headers of crossSite) {
                for (const path of ['/api/locks/payout/release', '/api/elections/payout/step-down']) {
                    const refused = await post(path, headers);
                    assert.equal(refused.status, 403, `${path} with ${JSON.stringify(headers)}`);
                    assert.match((await refused.json()).message, /cross-site|another site/, 'the reason');
                }
            }
            assert.equal(lease.releaseRequested.aborted, false, 'nobody was asked');
            // The page's own request (same origin, as a browser sends it) goes through.
            const asked = await post('/api/locks/payout/release', { origin: `http://${host}`, 'sec-fetch-site': 'same-origin' });
            assert.equal(asked.status, 200);
            await waitFor(() => lease.releaseRequested.aborted, { timeoutMs: 10_000, message: 'the holder was told' });
            await lease.release();
        });
    });
}
//# sourceMappingURL=dashboard.test.js.map