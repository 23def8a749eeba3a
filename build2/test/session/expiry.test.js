/**
 * A session the server expired is replaced: `expired`, then `connected` with a new session id; the
 * old session's ephemeral nodes are gone, requests work again, and digest auth is re-applied (a
 * CREATOR_ALL_ACL node of that identity stays readable). Expired two ways: by a second client that
 * resumes the session with its id and password and closes it, and by a partition that outlasts
 * the timeout. The client is behind a TcpProxy, so that it cannot race back into the session
 * before the server has closed it.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { ZooKeeperError } from '../../src/errors/zookeeper.error.js';
import { CREATOR_ALL_ACL } from '../../src/zookeeper/types.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { waitFor } from '../support/wait.js';
import { expireFromSecondClient, firstHostPort, randomRoot, SessionPool, sharedConnectString, StateRecorder } from '../fixtures/session-helpers.js';
const ALICE = { scheme: 'digest', credentials: 'alice:secret' };
describe('ZkSession after expiry', () => {
    const pool = new SessionPool();
    let proxy;
    afterEach(async () => {
        // Proxy first: closing a session blocks the event loop (up to 1.5 s) waiting for the server's
        // reply, which an in-process proxy cannot forward meanwhile.
        await proxy?.close();
        pool.closeAll();
    });
    /** An authenticated session behind a proxy with an ephemeral node and a CREATOR_ALL_ACL node. */
    async function setUp(sessionTimeoutMs) {
        const { host, port } = firstHostPort(sharedConnectString());
        proxy = await TcpProxy.start(host, port);
        const session = await pool.open({ connectString: proxy.connectString, sessionTimeoutMs, auth: [ALICE] });
        const observer = await pool.open();
        const root = randomRoot();
        await session.create(root);
        await session.create(`${root}/eph`, null, 'ephemeral');
        await session.create(`${root}/secret`, Buffer.from('for alice'));
        await session.setAcl(`${root}/secret`, CREATOR_ALL_ACL);
        // The control: without alice's credentials the node is unreadable.
        await assert.rejects(observer.getData(`${root}/secret`), (error) => ZooKeeperError.is(error, 'NOAUTH'));
        return { session, observer, root, oldId: session.sessionId, recorder: new StateRecorder(session) };
    }
    async function assertReplaced(session, observer, root, oldId, recorder) {
        const connected = await recorder.waitFor('connected', 6000);
        const newId = connected.sessionId;
        assert.notEqual(newId, oldId, 'a new session');
        assert.equal(session.sessionId, newId);
        assert.equal(session.state, 'connected');
        const expired = recorder.changes.find((change) => change.state === 'expired');
        assert.equal(expired.sessionId, oldId, '`expired` names the old session');
        assert.equal(await session.exists(`${root}/eph`), null, "the old session's ephemeral node is gone");
        assert.equal(await observer.exists(`${root}/eph`), null);
        await session.create(`${root}/eph`, null, 'ephemeral');
        assert.equal((await observer.exists(`${root}/eph`))?.ephemeralOwner, newId, 'requests work on the new session');
        assert.equal((await session.getData(`${root}/secret`)).data.toString(), 'for alice', 'digest auth was re-applied');
        await assert.rejects(observer.getData(`${root}/secret`), (error) => ZooKeeperError.is(error, 'NOAUTH'));
    }
    it('is replaced after a second client resumed and closed it', async () => {
        const { session, observer, root, oldId, recorder } = await setUp(4000);
        // The server drops our connection when the second client takes the session over; were we let
        // back in at once, we would take it back before the second client's close.
        proxy.refuse(true);
        await expireFromSecondClient(oldId, session.sessionPassword);
        await waitFor(async () => (await observer.exists(`${root}/eph`)) === null, { timeoutMs: 5000, message: 'the server closed the session' });
        assert.deepEqual(recorder.states, ['suspended'], 'disconnected by the takeover, kept out by the proxy');
        proxy.refuse(false);
        await assertReplaced(session, observer, root, oldId, recorder);
        assert.deepEqual(recorder.states, ['suspended', 'expired', 'connected']);
        recorder.stop();
    });
    it('is replaced after a partition outlasted the session timeout', async () => {
        const { session, observer, root, oldId, recorder } = await setUp(2000);
        proxy.cut();
        await waitFor(async () => (await observer.exists(`${root}/eph`)) === null, { timeoutMs: 8000, message: 'the server expired the session' });
        assert.deepEqual(recorder.states, ['suspended', 'lost'], 'told before the server expired it');
        proxy.restore();
        await assertReplaced(session, observer, root, oldId, recorder);
        assert.deepEqual(recorder.states, ['suspended', 'lost', 'expired', 'connected']);
        recorder.stop();
    });
});
//# sourceMappingURL=expiry.test.js.map