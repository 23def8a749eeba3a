import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
function withResolvers() { let resolve; const promise = new Promise((r) => (resolve = r)); return { promise, resolve }; }
import { ProtocolHandle } from '../../src/zookeeper/protocol/protocol-handle.js';
import { randomRoot, sharedConnectString } from '../fixtures/session-helpers.js';
describe('smoke', () => {
    it('talks', async () => {
        const connected = withResolvers();
        const h = new ProtocolHandle({ connectString: sharedConnectString(), sessionTimeoutMs: 4000 }, { onConnected: () => connected.resolve(), onConnecting() { }, onClosed(c) { console.log('closed', c); } });
        await connected.promise;
        console.log(h.sessionId, h.sessionPassword, h.negotiatedTimeoutMs);
        const root = randomRoot();
        console.log(await h.create(root, Buffer.from('x')));
        console.log(await h.create2(root + '/a-', null, 'ephemeral_sequential'));
        const fired = withResolvers();
        console.log(await h.getChildren(root, (e) => fired.resolve(e)));
        await h.create(root + '/b');
        console.log(await fired.promise, h.watcherCount);
        console.log(await h.exists(root + '/nope', (e) => console.log('exist ev', e)));
        console.log(await h.getData(root));
        console.log(await h.setData(root, Buffer.from('y'), 0));
        await assert.rejects(h.setData(root, Buffer.from('y'), 0), /BADVERSION/);
        console.log(await h.getAcl(root));
        await assert.rejects(h.getAcl(root + '/missing'), /NONODE/);
        await h.sync(root);
        console.log(await h.multi([{ type: 'check', path: root, version: 1 }, { type: 'create', path: root + '/m', data: Buffer.from('m'), acl: [{ perms: 31, scheme: 'world', id: 'anyone' }], flags: 0 }]));
        console.log(JSON.stringify(await h.multi([{ type: 'check', path: root, version: 7 }, { type: 'delete', path: root + '/m', version: -1 }]).catch((e) => String(e))));
        console.log(await h.multiRead([{ type: 'getData', path: root }, { type: 'getChildren', path: root }, { type: 'getData', path: root + '/zz' }]));
        console.log(await h.whoAmI(), await h.getEphemerals(root));
        await h.addWatch(root, true, (e) => console.log('persistent', e));
        await h.create(root + '/c');
        await h.removeWatches(root, 'any');
        console.log(await h.getData('/zookeeper/config').catch(String));
        await h.addAuth('digest', 'u:p');
        console.log(await h.whoAmI());
        h.close();
        await new Promise((r) => setTimeout(r, 100));
    });
});
//# sourceMappingURL=smoke.test.js.map