/**
 * The ensemble's configuration node, as a client that follows the membership reads it
 * (`EnsembleTracker`, through `getConfig` where the driver has it, else a plain getData of the
 * same path): empty on a standalone server, made before any transaction (zxid 0), read-only to
 * everyone, and a data watch on it that nothing fires here (only a reconfig writes it).
 */
import { CONFIG_NODE } from '../../../src/zookeeper/ensemble-config.js';
import type { SessionHandle } from '../../../src/zookeeper/session-handle.js';
import type { Watcher } from '../../../src/zookeeper/types.js';
import { scenario } from '../transcript.js';

const readConfig = (zk: SessionHandle, watcher?: Watcher) => (zk.getConfig ? zk.getConfig(watcher) : zk.getData(CONFIG_NODE, watcher));

export const ensembleConfigScenarios = [
  scenario('/zookeeper/config: empty on a standalone server, read-only, its watch fired by nothing else', async (env, t) => {
    const a = await env.open();
    const b = await env.open();
    const watch = t.watch();
    const config = await readConfig(a.zk, watch.watcher);
    const write = await t.outcome(b.zk.setData(CONFIG_NODE, Buffer.from('server.1=127.0.0.1:2888:3888;127.0.0.1:2181'), -1));
    const remove = await t.outcome(b.zk.delete(CONFIG_NODE));
    const { acl } = await a.zk.getAcl(CONFIG_NODE);
    const system = t.children(await a.zk.getChildren('/zookeeper'));
    // A write elsewhere, then a read by the watching session: a notification would come before its reply.
    await b.zk.create(`${env.root}/n`);
    const again = await readConfig(a.zk);
    return { data: config.data.toString('utf8'), stat: t.stat(config.stat), same: again.data.equals(config.data), write, remove, acl: acl.map((entry) => ({ ...entry })), system, fired: watch.events };
  }, {
    data: '',
    // Made before any transaction; its ACL set afterwards with version -1 (`DataTree.addConfigNode`).
    stat: { czxid: 'z1', mzxid: 'z1', pzxid: 'z1', version: 0, cversion: 0, aversion: -1, owner: 'none', dataLength: 0, numChildren: 0 },
    same: true,
    // Read-only to everyone (`READ_ACL_UNSAFE`); a system node is never deleted (`isSpecialPath`).
    write: 'NOAUTH',
    remove: 'BADARGUMENTS',
    acl: [{ perms: 1, scheme: 'world', id: 'anyone' }],
    // Its children were added without a create counted: cversion 0 * 2 - 2 children.
    system: { children: ['config', 'quota'], stat: { czxid: 'z1', mzxid: 'z1', pzxid: 'z1', version: 0, cversion: -2, aversion: 0, owner: 'none', dataLength: 0, numChildren: 2 } },
    fired: [],
  }),
];
