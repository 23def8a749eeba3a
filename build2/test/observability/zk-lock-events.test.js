/**
 * Lock, leadership and session events, against a real server: what `ZkLockEvents.events$` emits
 * for each scenario, with the fields a metrics or tracing integration needs, and that the
 * `node:diagnostics_channel` channels deliver the very same events in the same order.
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import diagnosticsChannel from 'node:diagnostics_channel';
import { afterEach, describe, it } from 'node:test';
import { LeaderService, LockService, LockTimeoutError, LockAbortedError, RecoveryFailedError, ZK_LOCK_CHANNELS, ZkLockEvents, ZkSession, } from '../../src/index.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { waitFor, withTimeout } from '../support/wait.js';
import { sharedConnect, startLockApp, testRoot } from '../lock/lock-test-kit.js';
/** The events of one app, from `events$` and from the three diagnostics channels. */
class EventLog {
    constructor(app, root) {
        this.app = app;
        this.root = root;
        this.observed = [];
        this.published = [];
        this.completed = false;
        this.onChannel = (message) => {
            const event = message;
            if (this.belongs(event))
                this.published.push(event);
        };
        this.subscription = app.get(ZkLockEvents).events$.subscribe({
            next: (event) => this.observed.push(event),
            complete: () => (this.completed = true),
        });
        for (const name of Object.values(ZK_LOCK_CHANNELS))
            diagnosticsChannel.subscribe(name, this.onChannel);
    }
    /** The events of one type, in order. */
    of(type) {
        return this.observed.filter((event) => event.type === type);
    }
    types() {
        return this.observed.filter((event) => event.type !== 'session.state').map((event) => event.type);
    }
    async next(type, timeoutMs = 10_000) {
        return waitFor(() => this.of(type)[0], { timeoutMs, intervalMs: 10, message: `a ${type} event (seen ${this.observed.map((e) => e.type).join(', ')})` });
    }
    /** Both routes carried exactly the same event objects, in the same order. */
    assertChannelsMatch() {
        assert.ok(this.observed.length > 0);
        assert.equal(this.published.length, this.observed.length, 'as many events on the channels as on events$');
        this.published.forEach((event, i) => assert.equal(event, this.observed[i], `event #${i} (${event.type})`));
    }
    stop() {
        this.subscription.unsubscribe();
        for (const name of Object.values(ZK_LOCK_CHANNELS))
            diagnosticsChannel.unsubscribe(name, this.onChannel);
    }
    /** Channels are process-wide: keep this app's events only (its root, its session). */
    belongs(event) {
        if (event.type === 'session.state')
            return event.sessionId !== undefined && event.sessionId === this.app.get(ZkSession).sessionId;
        return event.path.startsWith(`${this.root}/`);
    }
}
const cleanups = [];
afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse())
        await cleanup();
});
async function start(options = {}) {
    const root = testRoot();
    const app = await startLockApp({ connect: sharedConnect(), root, sessionTimeoutMs: 2000, drainTimeoutMs: 500, identity: 'observer', ...options }, []);
    let closing;
    const close = () => (closing ??= withTimeout(app.close(), 10_000, 'app.close()'));
    cleanups.push(close);
    const log = new EventLog(app, root);
    cleanups.push(() => log.stop());
    return { app, log, root, close };
}
describe('ZkLockEvents and the diagnostics channels', () => {
    it('report a lock cycle: wait started, acquired (not a hand-off) with its wait, released with its hold time', async () => {
        const { app, log, root, close } = await start();
        const token = await app.get(LockService).withLock('cycle', (lock) => lock.fencingToken);
        assert.deepEqual(log.types(), ['lock.wait-started', 'lock.acquired', 'lock.released']);
        const [started] = log.of('lock.wait-started');
        const [acquired] = log.of('lock.acquired');
        const [released] = log.of('lock.released');
        assert.deepEqual(started, { type: 'lock.wait-started', name: 'cycle', path: `${root}/locks/cycle` });
        assert.equal(acquired.token, token);
        assert.equal(acquired.handoff, false);
        assert.ok(acquired.waitMs >= 0 && Number.isFinite(acquired.waitMs));
        assert.equal(released.token, token);
        assert.ok(released.holdMs >= 0 && Number.isFinite(released.holdMs));
        log.assertChannelsMatch();
        await close();
        assert.equal(log.completed, true, 'events$ completes on shutdown');
        assert.equal(log.of('session.state').at(-1)?.state, 'closed', 'after the session closed');
    });
    it('report a hand-off, a timeout, a busy lock and an aborted wait', async () => {
        const { app, log } = await start();
        const locks = app.get(LockService);
        const first = await locks.acquire('contended');
        await assert.rejects(locks.withLock('contended', () => 'ran', { waitMs: 50 }), LockTimeoutError);
        assert.equal(await locks.tryAcquire('contended'), undefined);
        const controller = new AbortController();
        const aborted = locks.acquire('contended', { signal: controller.signal });
        const reason = new Error('caller gave up');
        await waitFor(() => log.of('lock.wait-started').length === 4, { message: 'the fourth acquisition started' });
        controller.abort(reason);
        await assert.rejects(aborted, LockAbortedError);
        const second = locks.acquire('contended');
        await waitFor(() => log.of('lock.wait-started').length === 5, { message: 'the fifth acquisition started' });
        await first.release();
        const lease = await second;
        await lease.release();
        assert.deepEqual(log.types(), [
            'lock.wait-started', 'lock.acquired', // first
            'lock.wait-started', 'lock.timeout', // waitMs 50
            'lock.wait-started', 'lock.busy', // tryAcquire
            'lock.wait-started', 'lock.aborted', // signal
            'lock.wait-started', 'lock.released', 'lock.acquired', 'lock.released', // hand-off to the second
        ]);
        const [timeout] = log.of('lock.timeout');
        assert.ok(timeout.waitMs > 0);
        assert.equal(log.of('lock.aborted')[0].reason, reason);
        const [granted, handedOver] = log.of('lock.acquired');
        assert.equal(granted.handoff, false);
        assert.equal(handedOver.handoff, true, 'acquired after waiting behind the holder');
        assert.equal(handedOver.token, lease.fencingToken);
        assert.ok(handedOver.token > granted.token);
        log.assertChannelsMatch();
    });
    it('report a lease lost to a network partition, and the session states on the way', async () => {
        const [host, port] = sharedConnect().split(',')[0].split(':');
        const proxy = await TcpProxy.start(host, Number(port));
        const { app, log } = await start({ connect: proxy.connectString });
        // Proxy first: closing the session while cut would wait for an answer that cannot arrive.
        cleanups.push(() => proxy.close());
        const lease = await app.get(LockService).acquire('partitioned');
        proxy.cut();
        const lost = await log.next('lock.lost', 15_000);
        assert.equal(lost.name, 'partitioned');
        assert.equal(lost.token, lease.fencingToken);
        assert.match(lost.reason, /may have expired/);
        assert.equal(lease.signal.aborted, true);
        const states = log.of('session.state').map((event) => `${event.previous}->${event.state}`);
        assert.deepEqual(states.slice(0, 2), ['connected->suspended', 'suspended->lost'], 'suspended, then lost before the lease was revoked');
        assert.equal(log.types().at(-1), 'lock.released', 'the registry releases a lost lease right after telling it');
        proxy.restore();
        await waitFor(() => ['reconnected', 'connected'].includes(app.get(ZkSession).state), { message: 'session back' });
        log.assertChannelsMatch();
    });
    it('report a lock recovery, failed then repaired, with the interrupted holder and token', async () => {
        const { app, log } = await start();
        const locks = app.get(LockService);
        let crashedToken = 0n;
        await assert.rejects(locks.withLock('guarded', async (lock) => {
            crashedToken = lock.fencingToken;
            await lock.checkpoint({ step: 1 });
            throw new Error('crashed mid-section');
        }, { recover: () => undefined }), /crashed mid-section/);
        await assert.rejects(locks.withLock('guarded', () => 'ran', { recover: () => { throw new Error('repair failed'); } }), RecoveryFailedError);
        const repaired = [];
        const token = await locks.withLock('guarded', (lock) => lock.fencingToken, { recover: (interrupted) => void repaired.push(interrupted) });
        const [failed, done] = log.of('lock.recovery');
        assert.equal(failed.outcome, 'failed');
        assert.match(String(failed.error), /repair failed/);
        assert.equal(done.outcome, 'repaired');
        assert.equal(done.token, token);
        assert.equal(done.interrupted.token, crashedToken);
        assert.equal(done.interrupted.holder, 'observer');
        assert.deepEqual(done.interrupted.checkpoint, { step: 1 });
        assert.deepEqual(repaired, [done.interrupted]);
        assert.equal(log.of('lock.recovery').length, 2);
        log.assertChannelsMatch();
    });
    it('report leadership gained, an election recovery and leadership lost with its reason', async () => {
        const { app, log, root } = await start({ election: { name: 'jobs', joinOnBootstrap: false } });
        const leader = app.get(LeaderService);
        leader.join(); // after the log subscribed
        const gained = await log.next('leadership.gained');
        assert.deepEqual(gained, { type: 'leadership.gained', election: 'jobs', path: `${root}/elections/jobs`, identity: 'observer', token: leader.election().token });
        const repaired = [];
        leader.onRecovery((interrupted) => void repaired.push(interrupted));
        await assert.rejects(leader.runAsLeader(async (section) => {
            await section.checkpoint({ shard: 4 });
            throw new Error('leader work crashed');
        }), /leader work crashed/);
        assert.equal(await leader.runAsLeader(() => 'ran'), 'ran');
        const [recovery] = log.of('leadership.recovery');
        assert.equal(recovery.outcome, 'repaired');
        assert.equal(recovery.token, gained.token);
        assert.equal(recovery.interrupted.token, gained.token, 'our own section was interrupted');
        assert.deepEqual(recovery.interrupted.checkpoint, { shard: 4 });
        assert.deepEqual(repaired, [recovery.interrupted]);
        await leader.resign();
        const lost = await log.next('leadership.lost');
        assert.deepEqual(lost, { type: 'leadership.lost', election: 'jobs', path: `${root}/elections/jobs`, identity: 'observer', token: gained.token, reason: 'resigned' });
        assert.deepEqual(log.types(), ['leadership.gained', 'leadership.recovery', 'leadership.lost']);
        log.assertChannelsMatch();
    });
});
//# sourceMappingURL=zk-lock-events.test.js.map