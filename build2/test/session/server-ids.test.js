/**
 * `ZkEnsemble.start({ serverIds })`: members with chosen server ids, as the chaos run uses them
 * (one member with id 255, whose sessions start with `ff`, like a TTL node's owner). A holder
 * whose session that member made is a holder for the waiters of the other members too.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LockClient } from '../../src/recipes/lock/lock-client.js';
import { waitFor, withTimeout } from '../support/wait.js';
import { ZkEnsemble } from '../support/zk-server.js';
import { randomRoot, SessionPool } from '../fixtures/session-helpers.js';
describe('an ensemble with server ids 1, 2 and 255', () => {
    let ensemble;
    const pool = new SessionPool();
    before(async () => {
        ensemble = await ZkEnsemble.start({ serverIds: [1, 2, 255], heap: '128m' });
    });
    after(async () => {
        pool.closeAll();
        await ensemble?.dispose();
    });
    it('sessions carry the id of the member that made them; a holder on member 255 excludes a waiter on member 1', async () => {
        const [one, , last] = ensemble.members;
        const onLast = await pool.open({ connectString: last.connectString, sessionTimeoutMs: 4000 });
        const onOne = await pool.open({ connectString: one.connectString, sessionTimeoutMs: 4000 });
        assert.match(onLast.sessionId, /^ff/, `session 0x${onLast.sessionId} of member 255`);
        assert.match(onOne.sessionId, /^1[0-9a-f]{14}$/, `session 0x${onOne.sessionId} of member 1`);
        const root = randomRoot();
        const holder = await new LockClient(onLast, { root }).acquire('res');
        const waiters = new LockClient(onOne, { root });
        let granted = false;
        const waiting = waiters.acquire('res', { waitMs: 15_000 }).then((lease) => ((granted = true), lease));
        await waitFor(() => onOne.watcherCount >= 1, { timeoutMs: 5000, message: 'the waiter watches the holder' });
        for (let i = 0; i < 3; i++)
            await onOne.exists('/');
        assert.equal(granted, false, 'two holders');
        await holder.release();
        await (await withTimeout(waiting, 5000, 'hand-off')).release();
    });
});
//# sourceMappingURL=server-ids.test.js.map