/**
 * `secure()` retries its setAcl through connection loss, but only while the session may still be
 * alive: once it is `lost` (the server may have expired it, and the node with it), it gives up with
 * the connection error so that the caller's own loop decides, instead of waiting for a reconnection
 * that may never come or that brings a new session which does not own the node.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { ZooKeeperError } from '../../src/errors/zookeeper.error.js';
import { OPEN_ACL_UNSAFE } from '../../src/zookeeper/types.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { withTimeout } from '../support/wait.js';
import { firstHostPort, randomRoot, SessionPool, sharedConnectString, StateRecorder } from '../fixtures/session-helpers.js';
describe('ZkSession.secure bounded by the session', () => {
    const pool = new SessionPool();
    let proxy;
    afterEach(async () => {
        await proxy?.close();
        pool.closeAll();
    });
    it('gives up with a connection error once the session is lost in a partition', async () => {
        const { host, port } = firstHostPort(sharedConnectString());
        proxy = await TcpProxy.start(host, port);
        const root = randomRoot();
        const session = await pool.open({ connectString: proxy.connectString, sessionTimeoutMs: 2000, acl: { root, acl: OPEN_ACL_UNSAFE } });
        await session.create(root);
        const node = await session.create(`${root}/n`, null, 'ephemeral');
        const recorder = new StateRecorder(session);
        proxy.cut();
        const securing = session.secure(node);
        securing.catch(() => undefined); // asserted below
        // A few session timeouts: before the fix it waited for a reconnection that the cut never allows.
        const error = await withTimeout(securing.then(() => assert.fail('secured in a partition'), (e) => e), 8000, 'secure() still waiting');
        assert.ok(error instanceof ZooKeeperError, String(error));
        assert.equal(error.isConnectionError, true, error.message);
        assert.equal(error.path, node);
        assert.ok(recorder.states.includes('lost'), `gave up after lost: ${recorder.states.join(' -> ')}`);
        recorder.stop();
    });
});
//# sourceMappingURL=secure-bound.test.js.map