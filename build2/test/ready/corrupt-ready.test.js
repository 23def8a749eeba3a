/**
 * A ready znode with data written by hand (not JSON, or JSON that is not a ready record) makes a
 * guarded section fail with `CorruptStateError` naming the path: the body never runs, the lock is
 * released, and once an operator removes the bad node the lock works again.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CorruptStateError } from '../../src/errors/corrupt-state.error.js';
import { ensurePath } from '../../src/recipes/queue/ensure-path.js';
import { lockAppSuite, queueNodes, testRoot } from '../lock/lock-test-kit.js';
const MALFORMED = [
    '', 'not json', '{"v":1,"state":"dirty"', 'null', '[]', '42', '"ready"', '{}',
    '{"v":1,"state":"busy","token":"1","holder":"h","since":1}',
    '{"v":1,"state":"dirty","token":"-5","holder":"h","since":1}',
    '{"v":1,"state":"dirty","token":"1e3","holder":"h","since":1}',
    '{"v":1,"state":"dirty","token":7,"holder":"h","since":1}',
    '{"v":1,"state":"ready","token":"1","holder":null,"since":1}',
    '{"v":1,"state":"ready","token":"1","holder":"h","since":"yesterday"}',
    '\u0000\u00ff\u0001',
];
describe('malformed ready znode', () => {
    const root = testRoot();
    const suite = lockAppSuite(root);
    it('CorruptStateError naming the ready path for each malformed value; the body never runs, the lock is released', async () => {
        let bodyRuns = 0;
        let recoveries = 0;
        for (const [i, data] of MALFORMED.entries()) {
            const name = `corrupt-${i}`;
            const ready = `${root}/locks/${name}/ready`;
            await ensurePath(suite.observer, `${root}/locks/${name}`, 'persistent');
            await suite.observer.create(ready, Buffer.from(data, 'latin1'), 'persistent');
            await assert.rejects(suite.locks.withLock(name, () => void (bodyRuns += 1), { recover: () => void (recoveries += 1), waitMs: 5000 }), (error) => error instanceof CorruptStateError && error.statePath === ready && error.message.includes(ready), JSON.stringify(data));
            assert.deepEqual(await queueNodes(suite.observer, `${root}/locks/${name}`), [], `lock released after ${JSON.stringify(data)}`);
            assert.deepEqual((await suite.observer.getData(ready)).data, Buffer.from(data, 'latin1'), 'the bad node is left for the operator to see');
        }
        assert.equal(bodyRuns, 0);
        assert.equal(recoveries, 0);
        // The operator removes a bad node: the section runs again.
        await suite.observer.delete(`${root}/locks/corrupt-1/ready`);
        assert.equal(await suite.locks.withLock('corrupt-1', () => 'ran', { recover: () => undefined }), 'ran');
    });
});
//# sourceMappingURL=corrupt-ready.test.js.map