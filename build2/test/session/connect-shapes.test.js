/**
 * An accepted connect-string shape really connects: two hosts (one of them a bracketed IPv6
 * address, which the C client cannot parse by itself) and a chroot, with blanks around entries,
 * to the shared server. Nodes created through it land under the chroot.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { validateConnectString } from '../../src/zk-lock.options-validator.js';
import { openSession, sharedConnect } from '../lock/lock-test-kit.js';
describe('connect string shapes', () => {
    const sessions = [];
    after(() => sessions.forEach((session) => session.close()));
    it('two hosts and a chroot, through the validator, reach the shared server under the chroot', async () => {
        const [host, port] = sharedConnect().split(',')[0].split(':');
        const chroot = `/t-${randomUUID()}`;
        const plain = await openSession(sharedConnect());
        sessions.push(plain);
        await plain.create(chroot, null, 'persistent');
        // [::1] has no server (it listens on 127.0.0.1 only): the session must still come up on the other host.
        const connect = validateConnectString(` [::1]:${port} , ${host}:${port} ${chroot} `);
        assert.equal(connect, `[::1]:${port},${host}:${port}${chroot}`);
        const chrooted = await openSession(connect);
        sessions.push(chrooted);
        await chrooted.create('/inside', Buffer.from('x'), 'persistent');
        assert.deepEqual((await plain.getData(`${chroot}/inside`)).data, Buffer.from('x'), 'created under the chroot');
        assert.deepEqual((await chrooted.getChildren('/')).children, ['inside']);
    });
});
//# sourceMappingURL=connect-shapes.test.js.map