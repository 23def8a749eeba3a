/**
 * Records over the size bound (`maxRecordBytes`) are refused before they are sent. A request over
 * the server's `jute.maxbuffer` (1 MiB by default) makes the server drop the connection instead of
 * answering, and a caller that retries through connection loss would send it again after every
 * reconnection: the session would flap forever without ever expiring. So the session refuses it
 * with `RecordTooLargeError`, the connection stays up and the state never leaves `connected`.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { RecordTooLargeError } from '../../src/errors/record-too-large.error.js';
import { ZkLockError } from '../../src/errors/zk-lock.error.js';
import { ReadyState } from '../../src/recipes/ready/ready-state.js';
import { DEFAULT_MAX_RECORD_BYTES } from '../../src/zookeeper/types.js';
import { randomRoot, SessionPool, StateRecorder } from '../fixtures/session-helpers.js';
import { withTimeout } from '../support/wait.js';
/** Over jute.maxbuffer (1 MiB - 1): today's server drops the connection of a request this big. */
const HUGE = Buffer.alloc(1_500_000, 0x61);
async function refusal(promise) {
    const error = await withTimeout(promise, 10_000, 'the oversized write did not settle').then(() => assert.fail('the oversized write succeeded'), (error) => error);
    assert.ok(error instanceof RecordTooLargeError, `expected RecordTooLargeError, got ${String(error)}`);
    assert.ok(error instanceof ZkLockError);
    assert.equal(error.code, 'ZK_RECORD_TOO_LARGE');
    return error;
}
describe('Record size bound', () => {
    const pool = new SessionPool();
    afterEach(() => pool.closeAll());
    it('refuses an oversized create and setData before sending; the connection stays up', async () => {
        const session = await pool.open();
        const root = randomRoot();
        await session.create(root, Buffer.from('small'));
        const recorder = new StateRecorder(session);
        const created = await refusal(session.create(`${root}/big`, HUGE));
        assert.equal(created.path, `${root}/big`);
        assert.equal(created.size, HUGE.length);
        assert.equal(created.maxBytes, DEFAULT_MAX_RECORD_BYTES);
        assert.match(created.message, new RegExp(`${root}/big`));
        assert.match(created.message, /1500000 bytes/);
        const set = await refusal(session.setData(root, HUGE, -1));
        assert.equal(set.path, root);
        // Nothing reached the server: the node is unchanged, no connection was dropped, and the
        // session still answers.
        assert.equal(await session.exists(`${root}/big`), null);
        assert.equal((await session.getData(root)).data.toString(), 'small');
        assert.deepEqual(recorder.states, [], 'the state never left connected');
        assert.equal(session.state, 'connected');
        recorder.stop();
    });
    it('applies a configured bound exactly: at the bound passes, one byte over is refused', async () => {
        const session = await pool.open({ maxRecordBytes: 1000 });
        const root = randomRoot();
        await session.create(root, Buffer.alloc(1000));
        await session.setData(root, Buffer.alloc(1000), -1);
        const error = await refusal(session.setData(root, Buffer.alloc(1001), -1));
        assert.equal(error.size, 1001);
        assert.equal(error.maxBytes, 1000);
        assert.equal((await session.exists(root))?.dataLength, 1000);
    });
    it('refuses a checkpoint too big for a record with the typed error, keeping the section alive', async () => {
        const session = await pool.open();
        const recorder = new StateRecorder(session);
        const dir = randomRoot();
        await session.create(dir);
        const state = new ReadyState(session, dir);
        const section = await state.enter({ token: 1n, holder: 'me' }, undefined);
        const error = await refusal(section.checkpoint({ rows: 'x'.repeat(1_200_000) }));
        assert.equal(error.path, state.path);
        // The refused checkpoint changed nothing: the section goes on and completes.
        await section.checkpoint({ rows: 'small' });
        await section.complete();
        assert.equal((await state.read()).record.state, 'ready');
        assert.deepEqual(recorder.states, [], 'the state never left connected');
        recorder.stop();
    });
});
//# sourceMappingURL=record-size.test.js.map