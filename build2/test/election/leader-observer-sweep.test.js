/**
 * `leader$` of a process that does not take part, across the server's container sweep: once the
 * last participant left, the election's directory (a container) is deleted; the observer, which
 * watched the empty directory for its first participant, then watches for the directory to be
 * made again, and names the next leader. Its own server: the container manager checks every
 * 100 ms instead of every minute.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LeaderElection } from '../../src/recipes/election/leader-election.js';
import { waitFor } from '../support/wait.js';
import { ZkServer } from '../support/zk-server.js';
import { openSession, testRoot } from '../lock/lock-test-kit.js';
import { Recorder } from './election-kit.js';
describe('leader$ of an observer across a swept election directory', () => {
    let server;
    const sessions = [];
    before(async () => {
        server = await ZkServer.start({ heap: '128m', jvmArgs: ['-Dznode.container.checkIntervalMs=100'] });
    });
    after(async () => {
        sessions.forEach((session) => session.close());
        await server?.dispose();
    });
    it('names the leader that joins after the directory was swept', async () => {
        const root = testRoot();
        const open = async () => {
            const session = await openSession(server.connectString);
            sessions.push(session);
            return session;
        };
        const admin = await open();
        const observer = new LeaderElection(await open(), { root, name: 'e', identity: 'observer' }); // never joins
        const participant = new LeaderElection(await open(), { root, name: 'e', identity: 'A' });
        try {
            const leaders = new Recorder(observer.leader$);
            participant.join();
            const first = await leaders.next('A', 0, 5000);
            await participant.resign();
            const empty = await leaders.next(null, first.seq, 5000);
            await waitFor(async () => (await admin.exists(participant.path)) === null, { timeoutMs: 10_000, message: 'the container manager deleted the empty election directory' });
            participant.join();
            await leaders.next('A', empty.seq, 5000);
            assert.deepEqual(leaders.values.map((r) => r.value), [null, 'A', null, 'A']);
        }
        finally {
            await Promise.all([observer.close(), participant.close()]);
        }
    });
});
//# sourceMappingURL=leader-observer-sweep.test.js.map