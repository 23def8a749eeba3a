/**
 * The request methods of `ZkSession` against the shared server: every create mode, versioned
 * reads and writes, stats typed as documented (zxids as bigint, ephemeralOwner as the session id),
 * children with the parent's pzxid, delete, ACL round trip, sync.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { ZooKeeperError } from '../../src/errors/zookeeper.error.js';
import { ZK_PERMS } from '../../src/zookeeper/types.js';
import { randomRoot, SessionPool } from '../fixtures/session-helpers.js';
function assertStatTypes(stat) {
    for (const key of ['czxid', 'mzxid', 'pzxid'])
        assert.equal(typeof stat[key], 'bigint', `${key} is a bigint`);
    for (const key of ['version', 'cversion', 'aversion', 'ctime', 'mtime', 'dataLength', 'numChildren']) {
        assert.equal(typeof stat[key], 'number', `${key} is a number`);
    }
    assert.equal(typeof stat.ephemeralOwner, 'string');
}
describe('ZkSession requests', () => {
    const pool = new SessionPool();
    afterEach(() => pool.closeAll());
    it('creates in every mode, with stats typed and owned as documented', async () => {
        const session = await pool.open();
        const root = randomRoot();
        assert.equal(session.state, 'connected');
        assert.match(session.sessionId, /^[0-9a-f]+$/);
        assert.equal(await session.create(root, Buffer.from('root')), root);
        const persistent = await session.exists(root);
        assert.ok(persistent);
        assertStatTypes(persistent);
        assert.equal(persistent.ephemeralOwner, '0', 'a persistent node has no owner');
        assert.equal(persistent.version, 0);
        assert.equal(persistent.dataLength, 4);
        assert.equal(persistent.czxid, persistent.mzxid, 'never written since its creation');
        await session.create(`${root}/eph`, null, 'ephemeral');
        const ephemeral = await session.exists(`${root}/eph`);
        assert.equal(ephemeral?.ephemeralOwner, session.sessionId, 'our ephemeral node is owned by our session id');
        assert.ok(ephemeral.czxid > persistent.czxid, 'zxids grow with every transaction');
        const first = await session.create(`${root}/q-`, null, 'ephemeral_sequential');
        const second = await session.create(`${root}/q-`, null, 'ephemeral_sequential');
        assert.match(first, new RegExp(`^${root}/q-\\d{10}$`), 'the created path carries the 10-digit sequence');
        assert.ok(Number(second.slice(-10)) > Number(first.slice(-10)));
        assert.equal((await session.exists(second))?.ephemeralOwner, session.sessionId);
        await session.create(`${root}/box`, null, 'container');
        await session.create(`${root}/box/item`);
        const container = await session.exists(`${root}/box`);
        assert.equal(container?.ephemeralOwner, '0');
        assert.equal(container?.numChildren, 1);
        assert.equal(await session.exists(`${root}/missing`), null, 'exists answers null for a missing node');
    });
    it('reads and writes data with versions, and deletes with and without one', async () => {
        const session = await pool.open();
        const root = randomRoot();
        await session.create(root, Buffer.from('v0'));
        const read = await session.getData(root);
        assert.equal(read.data.toString(), 'v0');
        assert.equal(read.stat.version, 0);
        assertStatTypes(read.stat);
        const written = await session.setData(root, Buffer.from('v1'), 0);
        assert.equal(written.version, 1);
        assert.ok(written.mzxid > read.stat.mzxid);
        assert.equal(written.czxid, read.stat.czxid);
        const any = await session.setData(root, Buffer.from('v2'), -1);
        assert.equal(any.version, 2);
        assert.equal((await session.getData(root)).data.toString(), 'v2');
        await session.create(`${root}/a`);
        await session.delete(`${root}/a`, 0);
        await session.delete(root);
        assert.equal(await session.exists(root), null);
    });
    it('lists children with the parent stat, whose pzxid moves with child creates and deletes', async () => {
        const session = await pool.open();
        const root = randomRoot();
        await session.create(root);
        const empty = await session.getChildren(root);
        assert.deepEqual(empty.children, []);
        assertStatTypes(empty.stat);
        const child = await session.create(`${root}/c-`, null, 'ephemeral_sequential');
        await session.create(`${root}/p`);
        const listed = await session.getChildren(root);
        assert.deepEqual([...listed.children].sort(), [child.slice(root.length + 1), 'p'].sort());
        assert.equal(listed.stat.numChildren, 2);
        assert.equal(listed.stat.cversion, 2);
        assert.equal(listed.stat.pzxid, (await session.exists(`${root}/p`)).czxid, 'pzxid is the zxid of the last child change');
        await session.delete(`${root}/p`);
        const after = await session.getChildren(root);
        assert.deepEqual(after.children, [child.slice(root.length + 1)]);
        assert.ok(after.stat.pzxid > listed.stat.pzxid, 'a child delete moves pzxid');
    });
    it('round-trips an ACL with its version, and syncs', async () => {
        const session = await pool.open();
        const root = randomRoot();
        await session.create(root);
        const initial = await session.getAcl(root);
        assert.deepEqual(initial.acl, [{ perms: ZK_PERMS.ALL, scheme: 'world', id: 'anyone' }], 'the package creates with OPEN_ACL_UNSAFE');
        assert.equal(initial.stat.aversion, 0);
        const readOnly = [{ perms: ZK_PERMS.READ | ZK_PERMS.ADMIN, scheme: 'world', id: 'anyone' }];
        await session.setAcl(root, readOnly, 0);
        const changed = await session.getAcl(root);
        assert.deepEqual(changed.acl, readOnly);
        assert.equal(changed.stat.aversion, 1);
        // The ACL is enforced: reading works, writing is refused.
        assert.equal((await session.getData(root)).stat.version, 0);
        await assert.rejects(session.setData(root, Buffer.from('x'), -1), (error) => ZooKeeperError.is(error, 'NOAUTH'));
        await assert.rejects(session.setAcl(root, readOnly, 0), (error) => ZooKeeperError.is(error, 'BADVERSION'), 'setAcl checks the aversion');
        await session.sync(root);
        await session.sync('/');
    });
});
//# sourceMappingURL=operations.test.js.map