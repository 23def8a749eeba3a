/**
 * Scenarios of sessions ending (closed, expired) as other sessions see them, and of digest
 * identities under creator-only ACLs.
 */
import { CREATOR_ALL_ACL } from '../../../src/zookeeper/types.js';
import { scenario } from '../transcript.js';
/**
 * A session `a` with ephemeral nodes in a directory beside session `b`'s, then ended by `end`:
 * what `b` sees (its watches, the listing) and what `a` is told.
 */
function endedSession(name, end, expected) {
    return scenario(name, async (env, t) => {
        const a = await env.open();
        const b = await env.open();
        t.name(a, 'a');
        t.name(b, 'b');
        const at = (path) => `${env.root}/dir/${path}`;
        await a.zk.create(`${env.root}/dir`);
        await a.zk.create(at('a1'), null, 'ephemeral');
        const sequential = await a.zk.create(at('a-'), null, 'ephemeral_sequential');
        await b.zk.create(at('b1'), null, 'ephemeral');
        await a.zk.create(at('kept'));
        const watches = { ephemeral: t.watch(), sequential: t.watch(), kept: t.watch(), own: t.watch() };
        await b.zk.exists(at('a1'), watches.ephemeral.watcher);
        await b.zk.getData(sequential, watches.sequential.watcher);
        await b.zk.getData(at('kept'), watches.kept.watcher);
        await a.zk.getData(at('kept'), watches.own.watcher);
        const before = t.children(await b.zk.getChildren(`${env.root}/dir`));
        const owners = { a1: t.stat(await b.zk.exists(at('a1'))), b1: t.stat(await b.zk.exists(at('b1'))) };
        await end(env, a);
        await watches.ephemeral.until(1);
        await watches.sequential.until(1);
        return {
            before,
            owners,
            after: t.children(await b.zk.getChildren(`${env.root}/dir`)),
            // b's read above would have come after a notification for kept; a gets none for its own
            // watch (the C client hands it a session event, which is no node event).
            watches: Object.fromEntries(Object.entries(watches).map(([key, watch]) => [key, watch.events])),
            events: a.events,
            // The package refuses requests on a closed handle itself: they never reach a server.
            requestAfterEnd: await t.outcome(a.zk.exists(at('kept'))),
        };
    }, expected);
}
/** The transcript of `endedSession`, the same however the session ended but for `a`'s events. */
const ended = (events) => ({
    before: {
        children: ['a-0000000001', 'a1', 'b1', 'kept'],
        stat: { czxid: 'z1', mzxid: 'z1', pzxid: 'z4', version: 0, cversion: 4, aversion: 0, owner: 'none', dataLength: 0, numChildren: 4 },
    },
    owners: {
        a1: { czxid: 'z2', mzxid: 'z2', pzxid: 'z2', version: 0, cversion: 0, aversion: 0, owner: 'a', dataLength: 0, numChildren: 0 },
        b1: { czxid: 'z3', mzxid: 'z3', pzxid: 'z3', version: 0, cversion: 0, aversion: 0, owner: 'b', dataLength: 0, numChildren: 0 },
    },
    after: {
        children: ['b1', 'kept'],
        stat: { czxid: 'z1', mzxid: 'z1', pzxid: 'z5', version: 0, cversion: 6, aversion: 0, owner: 'none', dataLength: 0, numChildren: 2 },
    },
    watches: { ephemeral: ['deleted dir/a1'], sequential: ['deleted dir/a-0000000001'], kept: [], own: [] },
    events,
    requestAfterEnd: 'INVALIDSTATE',
});
export const sessionScenarios = [
    endedSession("closing a session deletes its ephemeral nodes; other sessions' watches fire", (_env, a) => a.close(), ended(['connected', 'closed:0'])),
    endedSession("an expired session's ephemeral nodes go at once; the client learns of it on its next contact", (env, a) => env.expire(a), ended(['connected', 'connecting', 'closed:-112'])),
    scenario('a creator-only node refuses other identities; its parent decides who may delete it', async (env, t) => {
        const alice = { scheme: 'digest', credentials: 'alice:secret' };
        const owner = await env.open({ auth: alice });
        const sameIdentity = await env.open({ auth: alice });
        const anonymous = await env.open();
        const mallory = await env.open({ auth: { scheme: 'digest', credentials: 'mallory:secret' } });
        const secret = `${env.root}/secret`;
        await owner.zk.create(secret, Buffer.from('for alice'));
        await owner.zk.create(`${secret}/child`);
        const setAcl = await t.outcome(owner.zk.setAcl(secret, CREATOR_ALL_ACL, 0));
        // getAcl only where it succeeds: the package's binding crashes the process when it fails.
        const acl = await t.outcome(owner.zk.getAcl(secret), (read) => ({ acl: read.acl.map((entry) => ({ ...entry })), aversion: read.stat.aversion }));
        // Wrong versions throughout: a permitted request fails with BADVERSION and changes nothing,
        // a refused one shows that the ACL is checked first. exists checks no ACL at all.
        // Surprise: an anonymous setAcl of CREATOR_ALL_ACL fails with INVALIDACL, not NOAUTH: the
        // server resolves the `auth` scheme to the session's identities (it has none) before it checks
        // the node's ACL; mallory, who has one, gets NOAUTH.
        const attempts = async (client) => ({
            getData: await t.outcome(client.zk.getData(secret), (read) => read.data.toString()),
            exists: await t.outcome(client.zk.exists(secret), (stat) => stat?.aversion ?? null),
            getChildren: await t.outcome(client.zk.getChildren(secret), (listing) => [...listing.children].sort()),
            setData: await t.outcome(client.zk.setData(secret, Buffer.from('x'), 99)),
            create: await t.created(client.zk.create(`${secret}/other`)),
            deleteChild: await t.outcome(client.zk.delete(`${secret}/child`, 99)),
            setAcl: await t.outcome(client.zk.setAcl(secret, CREATOR_ALL_ACL, 99)),
        });
        return {
            setAcl,
            acl,
            sameIdentity: await attempts(sameIdentity),
            anonymous: await attempts(anonymous),
            mallory: await attempts(mallory),
            // The `auth` scheme gives the ACL to the session's authenticated identities: it has none.
            anonymousCreatorAcl: await t.outcome(anonymous.zk.setAcl(env.root, CREATOR_ALL_ACL, -1)),
            // DELETE is checked on the parent (the open root), not on the node itself.
            deletes: {
                anonymousChild: await t.outcome(anonymous.zk.delete(`${secret}/child`)),
                ownerChildren: [await t.outcome(owner.zk.delete(`${secret}/child`)), await t.outcome(owner.zk.delete(`${secret}/other`))],
                anonymousSecret: await t.outcome(anonymous.zk.delete(secret)),
            },
        };
    }, {
        setAcl: 'ok',
        acl: { acl: [{ perms: 31, scheme: 'digest', id: 'alice:aYXlLOpEooaV1cRAvUL1fp9Qt7E=' }], aversion: 1 },
        sameIdentity: {
            getData: 'for alice',
            exists: 1,
            getChildren: ['child'],
            setData: 'BADVERSION',
            create: 'secret/other',
            deleteChild: 'BADVERSION',
            setAcl: 'BADVERSION',
        },
        anonymous: { getData: 'NOAUTH', exists: 1, getChildren: 'NOAUTH', setData: 'NOAUTH', create: 'NOAUTH', deleteChild: 'NOAUTH', setAcl: 'INVALIDACL' },
        mallory: { getData: 'NOAUTH', exists: 1, getChildren: 'NOAUTH', setData: 'NOAUTH', create: 'NOAUTH', deleteChild: 'NOAUTH', setAcl: 'NOAUTH' },
        anonymousCreatorAcl: 'INVALIDACL',
        deletes: { anonymousChild: 'NOAUTH', ownerChildren: ['ok', 'ok'], anonymousSecret: 'ok' },
    }),
];
//# sourceMappingURL=sessions.js.map