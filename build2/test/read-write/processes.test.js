/**
 * The read/write lock and the semaphore across processes, against the shared ZooKeeper server: a
 * child process (test/fixtures/shared-lock-holder.ts) holds, and is SIGKILLed, or SIGSTOPped past
 * its session timeout. This process gets what the child held once the server expired the child's
 * session (a writer after a dead reader or writer, the permits of a dead semaphore holder), with a
 * fencing token above the child's; the stopped child, resumed, learns its lock is lost before it
 * could do anything more under it.
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LockService } from '../../src/services/lock.service.js';
import { Fixture, sharedConnect, startLockApp, testRoot } from '../lock/lock-test-kit.js';
const SESSION_TIMEOUT_MS = 2000;
describe('read/write lock and semaphore holders across processes (SIGKILL, SIGSTOP)', () => {
    const root = testRoot();
    let app;
    let locks;
    before(async () => {
        app = await startLockApp({ connect: sharedConnect(), root, sessionTimeoutMs: SESSION_TIMEOUT_MS }, []);
        locks = app.get(LockService);
    });
    after(() => app?.close());
    const holder = (kind, name, permits = 1, take = 1) => new Fixture('shared-lock-holder', {
        ZK_CONNECT: sharedConnect(),
        LOCK_ROOT: root,
        KIND: kind,
        NAME: name,
        PERMITS: String(permits),
        TAKE: String(take),
        SESSION_TIMEOUT_MS: String(SESSION_TIMEOUT_MS),
    });
    it('a writer gets the lock of a SIGKILLed reader, once its session expired; readers beside a live reader at once', async () => {
        const child = holder('read', 'killed-reader');
        try {
            const { token } = await child.message('holding');
            // Another reader shares the lock with the child at once.
            await locks.withReadLock('killed-reader', () => undefined, { waitMs: 0, onBusy: 'throw' });
            await child.kill();
            const ours = await locks.withWriteLock('killed-reader', (held) => held.fencingToken, { waitMs: 20_000 });
            assert.ok(ours > BigInt(token), `writer token ${ours} after the reader's ${token}`);
        }
        finally {
            await child.kill();
        }
    });
    it('a writer SIGSTOPped past its session timeout loses the lock to a reader; resumed, it is told', async () => {
        const child = holder('write', 'stopped-writer');
        try {
            const { token } = await child.message('holding');
            process.kill(child.pid, 'SIGSTOP');
            const ours = await locks.withReadLock('stopped-writer', (held) => held.fencingToken, { waitMs: 20_000 });
            assert.ok(ours > BigInt(token), `reader token ${ours} after the writer's ${token}`);
            process.kill(child.pid, 'SIGCONT');
            assert.equal((await child.message('lost')).stillHeld, false, 'its lease no longer says it holds');
            assert.equal((await child.message('ended')).error, 'LockLostError');
        }
        finally {
            process.kill(child.pid, 'SIGCONT');
            await child.kill();
        }
    });
    it('the permits of a SIGKILLed semaphore holder come back once its session expired', async () => {
        const child = holder('semaphore', 'killed-holder', 3, 3);
        try {
            const { token } = await child.message('holding');
            await child.kill();
            const ours = await locks.withSemaphore('killed-holder', { permits: 3, take: 3, waitMs: 20_000 }, (held) => held.fencingToken);
            assert.ok(ours > BigInt(token), `token ${ours} after ${token}`);
        }
        finally {
            await child.kill();
        }
    });
    it('a semaphore holder SIGSTOPped past its session timeout loses its permits; resumed, it is told', async () => {
        const child = holder('semaphore', 'stopped-holder', 2, 2);
        try {
            await child.message('holding');
            process.kill(child.pid, 'SIGSTOP');
            let ran = false;
            await locks.withSemaphore('stopped-holder', { permits: 2, take: 2, waitMs: 20_000 }, () => void (ran = true));
            assert.ok(ran);
            process.kill(child.pid, 'SIGCONT');
            assert.equal((await child.message('lost')).stillHeld, false);
            assert.equal((await child.message('ended')).error, 'LockLostError');
        }
        finally {
            process.kill(child.pid, 'SIGCONT');
            await child.kill();
        }
    });
});
//# sourceMappingURL=processes.test.js.map