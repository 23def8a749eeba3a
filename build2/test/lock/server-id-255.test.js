/**
 * Issue 14, S1: ZooKeeper puts the server id in the top byte of every session id, so a server
 * whose id is 255 hands out sessions `ff…` (and one with id 128 sessions `80…`): exactly what a
 * TTL node's (or a container's) `ephemeralOwner` looks like. Such a holder is still a holder:
 * neither a lock waiter nor the leader tracker may skip it. Real server: a quorum of one member
 * whose myid is 255.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { filter, firstValueFrom } from 'rxjs';
import { LockClient } from '../../src/recipes/lock/lock-client.js';
import { LeaderElection } from '../../src/recipes/election/leader-election.js';
import { waitFor, withTimeout } from '../support/wait.js';
import { ZkServer } from '../support/zk-server.js';
import { openSession, queueNodes, testRoot } from './lock-test-kit.js';
describe('a server whose id is 255 (sessions ff…)', () => {
    let server;
    let a;
    let b;
    before(async () => {
        server = await ZkServer.start({ serverId: 255, heap: '128m' });
        [a, b] = await Promise.all([openSession(server.connectString), openSession(server.connectString)]);
    });
    after(async () => {
        a?.close();
        b?.close();
        await server?.dispose();
    });
    it('hands out session ids whose top byte is ff', () => {
        for (const session of [a, b])
            assert.match(session.sessionId, /^ff[0-9a-f]{14}$/, `session 0x${session.sessionId}`);
    });
    it('a second acquire waits for the holder: never two holders', async () => {
        const root = testRoot();
        const la = new LockClient(a, { root });
        const lb = new LockClient(b, { root });
        const dir = la.pathOf('res');
        const first = await withTimeout(la.acquire('res'), 5000, 'first acquire');
        let secondGranted = false;
        const second = lb.acquire('res', { waitMs: 15_000 }).then((lease) => ((secondGranted = true), lease));
        // The waiter has queued and set its watch on the holder's node...
        await waitFor(async () => (await queueNodes(a, dir)).length === 2 && b.watcherCount >= 1, { timeoutMs: 5000, message: 'the second acquire queued behind the holder' });
        // ...and a few round trips of its session later (its replies are handled in order) it still waits.
        for (let i = 0; i < 3; i++)
            await b.exists('/');
        assert.equal(secondGranted, false, 'the waiter skipped the live holder: two holders');
        assert.equal(la.heldLeases().length, 1);
        await first.release();
        const lease = await withTimeout(second, 5000, 'hand-off to the second waiter');
        await lease.release();
        assert.deepEqual(await queueNodes(a, dir), []);
    });
    it('the leader tracker names the real leader, and a second participant does not lead beside it', async () => {
        const root = testRoot();
        const leader = new LeaderElection(a, { root, name: 'e', identity: 'real', drainTimeoutMs: 1000 });
        const second = new LeaderElection(b, { root, name: 'e', identity: 'second', drainTimeoutMs: 1000 });
        try {
            leader.join();
            await waitFor(() => leader.isLeader, { timeoutMs: 5000, message: 'the first participant leads' });
            const named = await withTimeout(firstValueFrom(second.leader$.pipe(filter((value) => value !== undefined))), 5000, 'leader$ names someone');
            assert.equal(named, 'real', 'leader$ of an observer names the leader');
            second.join();
            await waitFor(async () => (await b.getChildren(`${root}/elections/e`)).children.length === 2, { timeoutMs: 5000, message: 'the second participant queued' });
            for (let i = 0; i < 3; i++)
                await b.exists('/');
            assert.equal(second.isLeader, false, 'two leaders');
        }
        finally {
            await Promise.all([leader.close(), second.close()]);
        }
    });
});
//# sourceMappingURL=server-id-255.test.js.map