/**
 * Foreign children in a lock directory (names no client of ours makes, election nodes, a persistent
 * node named exactly like a queue node, as a CLI user might make) are never taken for holders: they
 * neither block an acquisition forever nor let two holders in. Real server, LockClient directly.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { filter, firstValueFrom } from 'rxjs';
import { LockClient } from '../../src/recipes/lock/lock-client.js';
import { LeaderElection } from '../../src/recipes/election/leader-election.js';
import { ensurePath } from '../../src/recipes/queue/ensure-path.js';
import { waitFor, withTimeout } from '../support/wait.js';
import { openSession, queueNodes, sharedConnect, testRoot } from './lock-test-kit.js';
describe('foreign children in a lock directory', () => {
    let a;
    let b;
    before(async () => {
        [a, b] = await Promise.all([openSession(sharedConnect()), openSession(sharedConnect())]);
    });
    after(() => {
        a?.close();
        b?.close();
    });
    it('names that are not our queue nodes are ignored: acquire is immediate, exclusion holds', async () => {
        const root = testRoot();
        const locks = new LockClient(a, { root });
        const dir = locks.pathOf('res');
        await ensurePath(a, dir, 'persistent');
        const uuid = randomUUID();
        for (const name of ['foo', 'lock-', 'x-lock-abc', '_c_nouuid-lock-0000000001', `x_c_${uuid}-lock-0000000000`, `_c_${uuid}-n-0000000000`, `_c_${uuid}-lock-`]) {
            await a.create(`${dir}/${name}`, null, 'persistent');
        }
        await a.create(`${dir}/lock-`, null, 'persistent_sequential'); // a CLI `create -s`: sequence suffix, wrong prefix
        const first = await withTimeout(locks.acquire('res'), 5000, 'acquire behind foreign children');
        assert.equal(await new LockClient(b, { root }).tryAcquire('res'), undefined, 'a second holder is refused while the first holds');
        await first.release();
        const second = await withTimeout(new LockClient(b, { root }).acquire('res'), 5000, 'second acquire');
        await second.release();
    });
    it('a persistent node named exactly like the head queue node is skipped, not waited for forever; one holder at a time', async () => {
        const root = testRoot();
        const la = new LockClient(a, { root });
        const lb = new LockClient(b, { root });
        const dir = la.pathOf('res');
        await ensurePath(a, dir, 'persistent');
        // Persistent-sequential with our own prefix: the lowest sequence, and it never goes away.
        const fake = await a.create(`${dir}/_c_${randomUUID()}-lock-`, null, 'persistent_sequential');
        assert.equal((await queueNodes(a, dir))[0], fake.slice(dir.length + 1), 'it sorts as the head');
        const first = await withTimeout(la.acquire('res', { waitMs: 5000 }), 6000, 'acquire behind a persistent look-alike');
        let secondGranted = false;
        const second = lb.acquire('res', { waitMs: 5000 }).then((lease) => ((secondGranted = true), lease));
        await withTimeout(new Promise((resolve) => setTimeout(resolve, 300)), 1000);
        assert.equal(secondGranted, false, 'the second waiter does not skip the real holder');
        await first.release();
        const lease = await withTimeout(second, 6000, 'hand-off to the second waiter');
        await lease.release();
        assert.deepEqual(await queueNodes(a, dir), [fake.slice(dir.length + 1)], 'only the foreign node is left');
    });
    it('an election skips a persistent look-alike at its head: the real participant leads, and leader$ names it', async () => {
        const root = testRoot();
        const dir = `${root}/elections/e`;
        await ensurePath(a, dir, 'persistent');
        await a.create(`${dir}/_c_${randomUUID()}-n-`, Buffer.from('impostor'), 'persistent_sequential');
        const election = new LeaderElection(b, { root, name: 'e', identity: 'real', drainTimeoutMs: 1000 });
        const observer = new LeaderElection(a, { root, name: 'e', identity: 'observer', drainTimeoutMs: 1000 });
        try {
            election.join();
            await waitFor(() => election.isLeader, { timeoutMs: 5000, message: 'the real participant leads' });
            const named = await withTimeout(firstValueFrom(observer.leader$.pipe(filter((leader) => typeof leader === 'string'))), 5000, 'leader$ names a leader');
            assert.equal(named, 'real');
        }
        finally {
            await Promise.all([election.close(), observer.close()]);
        }
    });
});
//# sourceMappingURL=foreign-children.test.js.map