/**
 * `ZkLockTestingModule` enforces `maxRecordBytes` as production does: a ready record (a lock's or
 * an election's, with its checkpoint) over the bound is refused with `RecordTooLargeError`, with
 * the same default (512 KiB), the same option and the same measure (the record as it would be
 * stored), so that an oversized checkpoint fails in the unit tests, not first in production.
 * The refused checkpoint leaves the section usable, as a refused write does on ZooKeeper.
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { Test } from '@nestjs/testing';
import { afterEach, describe, it } from 'node:test';
import { InvalidOptionsError, LeaderService, LockService, RecordTooLargeError } from '../../src/index.js';
import { ZK_LOCK_DEFAULTS } from '../../src/zk-lock.options.js';
import { ZkLockTesting, ZkLockTestingModule } from '../../src/testing/index.js';
describe('ZkLockTestingModule: the record size bound', () => {
    let moduleRef;
    afterEach(() => moduleRef?.close());
    async function start(options = {}) {
        moduleRef = await Test.createTestingModule({ imports: [ZkLockTestingModule.forRoot({ drainTimeoutMs: 0, ...options })] }).compile();
        await moduleRef.init();
        return moduleRef;
    }
    it('refuses a lock checkpoint over the default 512 KiB with RecordTooLargeError; the section goes on', async () => {
        const locks = (await start()).get(LockService);
        let refused;
        await locks.withLock('import', async (lock) => {
            refused = await lock.checkpoint({ rows: 'x'.repeat(ZK_LOCK_DEFAULTS.maxRecordBytes) }).then(() => undefined, (error) => error);
            await lock.checkpoint({ rows: 'small' }); // a refused write changed nothing: the section carries on
        }, { recover: () => undefined });
        assert.ok(refused instanceof RecordTooLargeError, `refused with ${String(refused)}`);
        assert.equal(refused.maxBytes, 512 * 1024);
        assert.ok(refused.size > refused.maxBytes, `size ${refused.size}`);
        assert.match(refused.path, /\/locks\/import\/ready$/);
        assert.match(refused.message, /maxRecordBytes/);
    });
    it('takes the bound from the maxRecordBytes option, inclusive, measured on the stored record', async () => {
        const bound = 1000;
        const locks = (await start({ maxRecordBytes: bound })).get(LockService);
        const sizes = [];
        const accepted = [];
        await locks.withLock('bounded', async (lock) => {
            // The refused size tells how many bytes the record adds around the checkpoint string.
            const probe = await lock.checkpoint('x'.repeat(2 * bound)).then(() => undefined, (error) => error);
            assert.ok(probe instanceof RecordTooLargeError, `refused with ${String(probe)}`);
            assert.equal(probe.maxBytes, bound);
            const overhead = probe.size - 2 * bound;
            for (const length of [bound - overhead, bound - overhead + 1]) {
                try {
                    await lock.checkpoint('x'.repeat(length));
                    accepted.push(length + overhead);
                }
                catch (error) {
                    assert.ok(error instanceof RecordTooLargeError, `refused with ${String(error)}`);
                    sizes.push(error.size);
                }
            }
        }, { recover: () => undefined });
        assert.deepEqual(accepted, [bound], 'a record of exactly maxRecordBytes is written');
        assert.deepEqual(sizes, [bound + 1], 'one byte more is refused');
    });
    it('refuses an oversized leader checkpoint too', async () => {
        const ref = await start({ maxRecordBytes: 2048 });
        await ref.get(ZkLockTesting).setLeader(true);
        const refused = await ref
            .get(LeaderService)
            .runAsLeader((section) => section.checkpoint({ shards: 'y'.repeat(4096) }))
            .then(() => undefined, (error) => error);
        assert.ok(refused instanceof RecordTooLargeError, `refused with ${String(refused)}`);
        assert.equal(refused.maxBytes, 2048);
        assert.match(refused.path, /\/elections\/default\/ready$/);
    });
    it('validates the option as ZkLockModule does', () => {
        assert.throws(() => ZkLockTestingModule.forRoot({ maxRecordBytes: 0 }), (error) => error instanceof InvalidOptionsError && /maxRecordBytes/.test(error.message));
    });
});
//# sourceMappingURL=record-size.test.js.map