/**
 * The session-loss clock: `lost` is announced while the server still holds the session, i.e.
 * before anyone else can be granted what it held. Two ways to fall silent: a network partition
 * (TcpProxy cut) and a stalled process (a child fixture SIGSTOPped past the session timeout).
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { TcpProxy } from '../support/tcp-proxy.js';
import { waitFor, withTimeout } from '../support/wait.js';
import { fourLetterWord } from '../support/zk-server.js';
import { firstHostPort, randomRoot, runFixture, SessionPool, sharedConnectString, StateRecorder } from '../fixtures/session-helpers.js';
/** Does the server's session tracker (first part of `dump`) still list this session? */
async function serverTracksSession(sessionId) {
    const { host, port } = firstHostPort(sharedConnectString());
    const dump = await fourLetterWord(host, port, 'dump');
    const tracker = dump.split('ephemeral nodes dump:')[0];
    return tracker.includes(`0x${sessionId}\n`);
}
describe('Session loss', () => {
    const pool = new SessionPool();
    let proxy;
    let child;
    afterEach(async () => {
        child?.kill();
        await proxy?.close();
        pool.closeAll();
    });
    it('reports suspended, then lost while the server still holds the session, when partitioned', async () => {
        const { host, port } = firstHostPort(sharedConnectString());
        proxy = await TcpProxy.start(host, port);
        const session = await pool.open({ connectString: proxy.connectString, sessionTimeoutMs: 2000 });
        const observer = await pool.open();
        const root = randomRoot();
        await session.create(root);
        await session.create(`${root}/eph`, null, 'ephemeral');
        const id = session.sessionId;
        assert.equal(await serverTracksSession(id), true, 'the dump check sees a live session');
        // Both checks start the instant `lost` is published, before anything else can run.
        let atLost;
        const recorder = new StateRecorder(session, (change) => {
            if (change.state === 'lost')
                atLost = Promise.all([observer.exists(`${root}/eph`), serverTracksSession(id)]);
        });
        proxy.cut();
        await recorder.waitFor('lost', 5000);
        const [node, tracked] = await atLost;
        assert.equal(node?.ephemeralOwner, id, 'our ephemeral node still existed when lost was reported');
        assert.equal(tracked, true, 'the server still tracked the session when lost was reported');
        // And the server did expire it afterwards: the checks above were not vacuous.
        await waitFor(async () => (await observer.exists(`${root}/eph`)) === null, { timeoutMs: 5000, message: 'server-side expiry' });
        assert.equal(await serverTracksSession(id), false);
        assert.deepEqual(recorder.states, ['suspended', 'lost']);
        for (const change of recorder.changes)
            assert.equal(change.sessionId, id);
        recorder.stop();
    });
    it('reports lost, then expired and a new session, after the process stalled past the timeout', async () => {
        const observer = await pool.open();
        const root = randomRoot();
        await observer.create(root);
        const path = `${root}/stalled`;
        child = runFixture('session-stall', [sharedConnectString(), '2000', path]);
        const events = () => child.lines.map((line) => JSON.parse(line));
        const ready = await waitFor(() => events().find((e) => e.event === 'ready' || e.event === 'error'), {
            timeoutMs: 10_000,
            message: `fixture ready (stderr: ${child.stderr()})`,
        });
        assert.equal(ready.event, 'ready');
        const oldId = ready.sessionId;
        process.kill(child.pid, 'SIGSTOP');
        // Stopped until the server has expired its session: only then can it miss nothing.
        await waitFor(async () => (await observer.exists(path)) === null, { timeoutMs: 8000, message: 'server-side expiry of the stopped child' });
        process.kill(child.pid, 'SIGCONT');
        const exit = await withTimeout(child.exited, 10_000, `fixture did not finish (lines: ${child.lines.join(' | ')})`);
        assert.equal(exit.code, 0, `fixture failed: ${child.lines.join(' | ')} ${child.stderr()}`);
        const states = events().filter((e) => e.event === 'state');
        // It may or may not see the dropped connection (suspended) before its stall detector fires.
        const afterStall = states.slice(2).map((e) => e.state).filter((state) => state !== 'suspended');
        assert.deepEqual(states.slice(0, 2).map((e) => e.state), ['connecting', 'connected']);
        assert.deepEqual(afterStall, ['lost', 'expired', 'connected', 'closed'], `states: ${states.map((e) => e.state).join(' -> ')}`);
        if (states[2].state === 'suspended')
            assert.equal(states[3].state, 'lost');
        const replaced = states.find((e, i) => i > 2 && e.state === 'connected');
        assert.notEqual(replaced.sessionId, oldId, 'a new session');
        const done = events().find((e) => e.event === 'done');
        assert.ok(done, 'the replacement session answered requests');
        assert.equal(done.oldNodePresent, false);
        assert.equal(done.sessionId, replaced.sessionId);
    });
});
//# sourceMappingURL=session-loss.test.js.map