/**
 * `Lease.signal` is made on its first read (issue 19: an AbortSignal and a LockLostError cost
 * every release, and most holders never read the signal). Read before or after the lease ends,
 * it says the same thing: aborted with one LockLostError, the one `assertHeld` throws; read while
 * held, it aborts before the node's delete is sent (DESIGN §8.8). No server: the delete is a stub.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LockLostError } from '../../src/errors/lock-lost.error.js';
import { Lease } from '../../src/recipes/lock/lease.js';
const ENTRY = { dir: '/r/locks/job', path: '/r/locks/job/_c_x-lock-0000000001', sessionId: '1', token: 1n, waited: false };
function lease(onDelete = () => undefined, host) {
    return new Lease('job', ENTRY, async () => onDelete(), host);
}
describe('Lease.signal', () => {
    it('read while held: aborts with "released" before the delete is sent', async () => {
        let abortedAtDelete;
        const held = lease(() => void (abortedAtDelete = held.signal.aborted));
        const signal = held.signal;
        assert.equal(signal.aborted, false);
        await held.release();
        assert.equal(abortedAtDelete, true, 'the signal had not aborted when the delete went out');
        assert.ok(signal.reason instanceof LockLostError);
        assert.match(signal.reason.message, /released/);
        assert.throws(() => held.assertHeld(), (error) => error === signal.reason);
    });
    it('first read after the release: born aborted, with the error assertHeld throws', async () => {
        const held = lease();
        await held.release();
        assert.equal(held.isHeld, false);
        let thrown;
        try {
            held.assertHeld();
        }
        catch (error) {
            thrown = error;
        }
        assert.ok(thrown instanceof LockLostError);
        assert.equal(held.signal.aborted, true);
        assert.equal(held.signal.reason, thrown, 'one error per lease');
        assert.equal(held.signal, held.signal, 'one signal per lease');
    });
    it('lost with the session, never read: the host is told with the error the signal then carries', () => {
        const told = [];
        const host = { sessionInDoubt: () => false, lost: (_, error) => void told.push(error), releaseFailed() { }, watchReleaseRequest() { } };
        const held = lease(undefined, host);
        held.markLost('the session expired');
        assert.equal(told.length, 1);
        assert.equal(held.signal.reason, told[0]);
        assert.match(told[0].message, /the session expired/);
        held.markLost('again');
        assert.equal(told.length, 1, 'lost once');
    });
});
//# sourceMappingURL=lease-signal.test.js.map