/**
 * The ready state's retries through connection loss are bounded: by the holder's lease (its
 * signal ends every retry, also one waiting for a reconnection that never comes), and by a small
 * number of consecutive attempts of a write that kills the connection each time it is sent (as the
 * server does for a request over `jute.maxbuffer`). Real ZooKeeper behind a TcpProxy; the failures
 * are injected at exact points by a FaultySession.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LockLostError } from '../../src/errors/lock-lost.error.js';
import { RepeatedConnectionLossError } from '../../src/errors/repeated-connection-loss.error.js';
import { ReadyState } from '../../src/recipes/ready/ready-state.js';
import { isConnectedState } from '../../src/zookeeper/session-state.js';
import { connectionLoss, FaultySession } from '../support/faulty-session.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { waitFor, withTimeout } from '../support/wait.js';
import { openSession, sharedConnect, testRoot } from '../lock/lock-test-kit.js';
describe('ready state retries are bounded', () => {
    let proxy;
    let session;
    let admin;
    before(async () => {
        admin = await openSession(sharedConnect());
    });
    after(() => admin.close());
    /** Proxy first: the C client's synchronous close would wait for an answer the proxy (in this process) cannot forward. */
    async function closeSession() {
        await proxy.close();
        session.close();
    }
    /** Resets the proxy's connections and resolves once the session has noticed (it may be back a moment later). */
    function dropConnection() {
        let subscription;
        const dropped = new Promise((resolve) => {
            subscription = session.state$.subscribe((change) => {
                if (!isConnectedState(change.state))
                    resolve();
            });
        });
        proxy.reset();
        return withTimeout(dropped, 5000, 'the session did not notice the dropped connection').finally(() => subscription?.unsubscribe());
    }
    async function enterSection(owner) {
        const [host, port] = sharedConnect().split(',')[0].split(':');
        proxy = await TcpProxy.start(host, Number(port));
        session = await openSession(proxy.connectString, 10_000);
        const faulty = new FaultySession(session);
        const dir = testRoot();
        await admin.create(dir, null, 'persistent');
        const state = new ReadyState(faulty, dir);
        return { faulty, state, section: await state.enter(owner, undefined) };
    }
    it('a checkpoint retried while disconnected ends when the lease signal aborts', async () => {
        const lease = new AbortController();
        const { faulty, state, section } = await enterSection({ token: 5n, holder: 'me', signal: lease.signal });
        try {
            let sent = 0;
            faulty.before('setData', async (request) => {
                sent++;
                // The connection drops under the write, and the server stays unreachable.
                proxy.refuse(true);
                await dropConnection();
                throw connectionLoss('setData', request.path);
            });
            const checkpoint = section.checkpoint({ step: 1 });
            checkpoint.catch(() => undefined);
            await waitFor(() => sent === 1 && session.state !== 'connected', { timeoutMs: 5000, message: 'write failed, disconnected' });
            const reason = new LockLostError('/lock/x', 'the session may have expired');
            lease.abort(reason);
            await assert.rejects(withTimeout(checkpoint, 3000, 'the checkpoint still waits for a reconnection'), (error) => error === reason);
            assert.equal(sent, 1, 'not sent again');
            await assert.rejects(withTimeout(section.complete(), 3000, 'complete() waits'), LockLostError, 'a section whose lease is gone never completes');
            void state;
        }
        finally {
            await closeSession();
        }
    });
    it('a write that fails with connection loss every time it is sent is given up after a bounded number of attempts', async () => {
        const { faulty, state, section } = await enterSection({ token: 6n, holder: 'me' });
        try {
            let sent = 0;
            faulty.before('setData', async (request) => {
                sent++;
                await dropConnection(); // the server drops the connection for this request; the client reconnects at once
                throw connectionLoss('setData', request.path);
            });
            await assert.rejects(withTimeout(section.checkpoint({ big: 'x' }), 20_000, 'the write is re-sent after every reconnect'), (error) => error instanceof RepeatedConnectionLossError && error.path === state.path && error.message.includes(state.path));
            assert.ok(sent >= 2 && sent <= 4, `attempted ${sent} times`);
            assert.equal(JSON.parse((await admin.getData(state.path)).data.toString('utf8')).state, 'dirty', 'the section did not complete');
        }
        finally {
            await closeSession();
        }
    });
});
//# sourceMappingURL=ready-state-bounds.test.js.map