/**
 * Digest auth and creator-only ACLs: with `auth` configured, every node the module creates under
 * its root (the root, lock and election directories, queue nodes, the ready znode) is closed to
 * other identities, checked with real second clients (one without credentials, one with another
 * digest identity) against the shared server.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { AclNotAppliedError } from '../../src/errors/acl-not-applied.error.js';
import { InvalidOptionsError } from '../../src/errors/invalid-options.error.js';
import { ZooKeeperError } from '../../src/errors/zookeeper.error.js';
import { ensurePath } from '../../src/recipes/queue/ensure-path.js';
import { ReadyState } from '../../src/recipes/ready/ready-state.js';
import { znodePaths } from '../../src/recipes/znode-paths.js';
import { LeaderService } from '../../src/services/leader.service.js';
import { LockService } from '../../src/services/lock.service.js';
import { resolveZkLockOptions } from '../../src/zk-lock.options-validator.js';
import { OPEN_ACL_UNSAFE, ZK_PERMS } from '../../src/zookeeper/types.js';
import { ZkSession } from '../../src/zookeeper/supervised-session.js';
import { runCli } from '../cli/cli-runner.js';
import { connectionLoss, FaultySession } from '../support/faulty-session.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { waitFor } from '../support/wait.js';
import { openSession, sharedConnect, startLockApp, testRoot } from '../lock/lock-test-kit.js';
const APP = { scheme: 'digest', credentials: 'app:s3cret' };
/** The id ZooKeeper's digest provider stores for `user:password`: `user:base64(sha1(user:password))`. */
function digestId(credentials) {
    return `${credentials.split(':')[0]}:${createHash('sha1').update(credentials).digest('base64')}`;
}
async function openAs(credentials) {
    const session = new ZkSession({
        connectString: sharedConnect(),
        sessionTimeoutMs: 4000,
        connectTimeoutMs: 15_000,
        ...(credentials !== undefined && { auth: [{ scheme: 'digest', credentials }] }),
    });
    await session.connect();
    return session;
}
/** Rejects with NOAUTH: the request reached the server and the ACL refused it. */
async function refused(request, what) {
    await assert.rejects(request, (error) => ZooKeeperError.is(error, 'NOAUTH'), `${what} should be refused with NOAUTH`);
}
describe('creator-only ACLs with digest auth', () => {
    const root = testRoot();
    const apps = [];
    const sessions = [];
    let anonymous;
    let mallory;
    before(async () => {
        anonymous = await openAs(undefined);
        mallory = await openAs('mallory:other');
        sessions.push(anonymous, mallory);
    });
    after(async () => {
        for (const app of apps)
            await app.close();
        for (const session of sessions)
            session.close();
    });
    it('protects the root, lock directory, queue node, ready znode and election node from other identities', async () => {
        const app = await startLockApp({ connect: sharedConnect(), root, auth: APP, sessionTimeoutMs: 4000, election: { name: 'sec' } }, []);
        apps.push(app);
        const locks = app.get(LockService);
        const leaders = app.get(LeaderService);
        await waitFor(() => leaders.isLeader, { timeoutMs: 10_000, message: 'leadership' });
        const own = app.get(ZkSession);
        const lockDir = `${root}/locks/account`;
        const electionDir = `${root}/elections/sec`;
        await locks.withLock('account', async (lock) => {
            await lock.checkpoint({ step: 1 }); // the ready znode now holds a dirty record
            const [queueNode] = (await own.getChildren(lockDir)).children.filter((name) => name.startsWith('_c_'));
            const [electionNode] = (await own.getChildren(electionDir)).children;
            assert.ok(queueNode && electionNode);
            const expected = [{ perms: ZK_PERMS.ALL, scheme: 'digest', id: digestId(APP.credentials) }];
            for (const path of [root, lockDir, `${lockDir}/${queueNode}`, znodePaths.ready(lockDir), electionDir, `${electionDir}/${electionNode}`]) {
                assert.deepEqual((await own.getAcl(path)).acl, expected, `ACL of ${path}`);
            }
            for (const intruder of [anonymous, mallory]) {
                await refused(intruder.getChildren(lockDir), 'listing the lock directory');
                await refused(intruder.delete(`${lockDir}/${queueNode}`, -1), "deleting the holder's queue node");
                await refused(intruder.setData(znodePaths.ready(lockDir), Buffer.from('{}'), -1), 'overwriting the ready znode');
                await refused(intruder.getData(znodePaths.ready(lockDir)), 'reading the ready znode');
                await refused(intruder.create(`${lockDir}/_c_x-lock-`, null, 'ephemeral_sequential'), 'queueing in the lock directory');
                await refused(intruder.delete(`${electionDir}/${electionNode}`, -1), "deleting the leader's node");
                await refused(intruder.setAcl(root, OPEN_ACL_UNSAFE, -1), 'opening the root');
                await refused(intruder.create(`${root}/locks/other`, null, 'persistent'), 'creating a lock directory');
            }
            assert.ok(lock.signal.aborted === false, 'the holder kept its lock');
        }, { recover: () => undefined });
    });
    it('lets `nestjs-zk-lock inspect --auth` read a protected root; without the credentials it fails clearly', async () => {
        const app = await startLockApp({ connect: sharedConnect(), root, auth: APP, sessionTimeoutMs: 4000 }, []);
        apps.push(app);
        const lease = await app.get(LockService).acquire('report');
        try {
            const allowed = await runCli(['inspect', '--connect', sharedConnect(), '--root', root, '--json', '--auth', `digest:${APP.credentials}`, 'report']);
            assert.equal(allowed.code, 0, allowed.stderr);
            assert.equal(JSON.parse(allowed.stdout).locks[0].holder.sessionId, app.get(ZkSession).sessionId);
            const refusedRun = await runCli(['inspect', '--connect', sharedConnect(), '--root', root, 'report']);
            assert.equal(refusedRun.code, 1);
            assert.match(refusedRun.stderr, /NOAUTH/);
        }
        finally {
            await lease.release();
        }
    });
    it('lets a second replica with the same credentials queue and hold after the first', async () => {
        const [first, second] = [
            await startLockApp({ connect: sharedConnect(), root, auth: APP, sessionTimeoutMs: 4000 }, []),
            await startLockApp({ connect: sharedConnect(), root, auth: APP, sessionTimeoutMs: 4000 }, []),
        ];
        apps.push(first, second);
        const held = await first.get(LockService).acquire('account');
        const waiting = second.get(LockService).acquire('account', { waitMs: 10_000 });
        await held.release();
        const next = await waiting;
        assert.ok(next.fencingToken > held.fencingToken);
        await next.release();
    });
});
describe('ACL option', () => {
    it("with 'open', nodes keep ZooKeeper's world ACL although auth is configured", async () => {
        const root = testRoot();
        const app = await startLockApp({ connect: sharedConnect(), root, auth: APP, acl: 'open', sessionTimeoutMs: 4000 }, []);
        const anonymous = await openSession(sharedConnect());
        try {
            const lease = await app.get(LockService).acquire('doc');
            assert.equal((await anonymous.getChildren(`${root}/locks/doc`)).children.length, 1);
            assert.deepEqual((await anonymous.getAcl(`${root}/locks/doc`)).acl, [...OPEN_ACL_UNSAFE]);
            await lease.release();
        }
        finally {
            anonymous.close();
            await app.close();
        }
    });
    it('refuses a creator ACL without credentials, and malformed entries, naming the field', () => {
        const base = { connect: '127.0.0.1:2181' };
        assert.throws(() => resolveZkLockOptions({ ...base, acl: 'creator' }), (e) => e instanceof InvalidOptionsError && e.field === 'acl');
        assert.throws(() => resolveZkLockOptions({ ...base, acl: [{ perms: 0, scheme: 'world', id: 'anyone' }] }), (e) => e instanceof InvalidOptionsError && e.field === 'acl[0].perms');
        assert.throws(() => resolveZkLockOptions({ ...base, acl: [] }), (e) => e instanceof InvalidOptionsError && e.field === 'acl');
        assert.throws(() => resolveZkLockOptions({ ...base, acl: 'closed' }), (e) => e instanceof InvalidOptionsError && e.field === 'acl');
        assert.equal(resolveZkLockOptions(base).acl, undefined, 'no auth: open, no setAcl');
        assert.deepEqual(resolveZkLockOptions({ ...base, auth: APP }).acl, [{ perms: ZK_PERMS.ALL, scheme: 'auth', id: '' }], 'auth: creator by default');
    });
    it('gives the ready znode its ACL when the reply of the create that made it was lost', async () => {
        const root = testRoot();
        const [host, port] = sharedConnect().split(',')[0].split(':');
        const proxy = await TcpProxy.start(host, Number(port));
        const guarded = new ZkSession({
            connectString: proxy.connectString,
            sessionTimeoutMs: 4000,
            connectTimeoutMs: 15_000,
            auth: [APP],
            acl: { root, acl: [{ perms: ZK_PERMS.ALL, scheme: 'auth', id: '' }] },
        });
        const ours = [{ perms: ZK_PERMS.ALL, scheme: 'digest', id: digestId(APP.credentials) }];
        try {
            await guarded.connect();
            const dir = `${root}/locks/l`;
            await ensurePath(guarded, dir, 'persistent');
            const faulty = new FaultySession(guarded);
            const ready = new ReadyState(faulty, dir);
            faulty.after('create', async (request, outcome) => {
                if (!outcome.ok || request.path !== ready.path)
                    return undefined;
                // The create landed, its reply did not: the setAcl that follows it never went out.
                await guarded.setAcl(ready.path, OPEN_ACL_UNSAFE, -1);
                proxy.reset();
                return { ok: false, error: connectionLoss('create', request.path) };
            }, 1);
            const section = await ready.enter({ token: 1n, holder: 'h' }, undefined);
            assert.deepEqual((await guarded.getAcl(ready.path)).acl, ours);
            const other = await openAs('mallory:other');
            await refused(other.setData(ready.path, Buffer.from('x'), -1), 'writing the ready znode').finally(() => other.close());
            await section.complete();
        }
        finally {
            // Proxy first: the C client's close waits synchronously for an answer the in-process proxy could not forward.
            await proxy.close();
            guarded.close();
        }
    });
    it('takes back a node whose ACL another client opened, and gives up on one it is shut out of', async () => {
        const root = testRoot();
        const intruder = await openSession(sharedConnect());
        const guarded = new ZkSession({
            connectString: sharedConnect(),
            sessionTimeoutMs: 4000,
            connectTimeoutMs: 15_000,
            auth: [APP],
            acl: { root, acl: [{ perms: ZK_PERMS.ALL, scheme: 'auth', id: '' }] },
        });
        await guarded.connect();
        const ours = [{ perms: ZK_PERMS.ALL, scheme: 'digest', id: digestId(APP.credentials) }];
        try {
            // The moment between a create and its setAcl, played out by hand: another client changes
            // the ACL first. While that ACL still lets us administer the node, we make it ours...
            await intruder.create(root, null, 'persistent');
            await intruder.setAcl(root, [{ perms: ZK_PERMS.ALL, scheme: 'world', id: 'anyone' }], 0);
            await guarded.secure(root);
            assert.deepEqual((await guarded.getAcl(root)).acl, ours);
            await refused(intruder.setData(root, Buffer.from('x'), -1), 'writing a secured node');
            // ...and securing it again (a retry after a lost reply) changes nothing.
            await guarded.secure(root);
            assert.deepEqual((await guarded.getAcl(root)).acl, ours);
            // An ACL that shuts us out: AclNotAppliedError naming the node, never a silent success.
            await intruder.create(`${root}-theirs`, null, 'persistent');
            await intruder.setAcl(`${root}-theirs`, [{ perms: ZK_PERMS.ALL, scheme: 'digest', id: digestId('mallory:other') }], 0);
            const outside = new ZkSession({
                connectString: sharedConnect(),
                sessionTimeoutMs: 4000,
                connectTimeoutMs: 15_000,
                auth: [APP],
                acl: { root: `${root}-theirs`, acl: [{ perms: ZK_PERMS.ALL, scheme: 'auth', id: '' }] },
            });
            await outside.connect();
            try {
                await assert.rejects(outside.secure(`${root}-theirs`), (e) => e instanceof AclNotAppliedError && e.znodePath === `${root}-theirs` && e.message.includes(root));
            }
            finally {
                outside.close();
                await intruder.delete(`${root}-theirs`, -1); // its parent, /, is open
            }
        }
        finally {
            await guarded.delete(root, -1).catch(() => undefined);
            guarded.close();
            intruder.close();
        }
    });
});
//# sourceMappingURL=acl.test.js.map