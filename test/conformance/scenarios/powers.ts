/**
 * Scenarios of the requests the default driver adds to what the C client of the `zookeeper`
 * package can send (issue 32): a create that answers with the node's stat (`create2`), `multi`
 * with `check`, `removeWatches`, and the watches `addWatch` leaves (ZooKeeper 3.6+). They need
 * those powers: a target on the native driver skips them (see `needs`).
 */
import type { MultiResult } from '../../../src/zookeeper/protocol/multi.js';
import { CreateFlag } from '../../../src/zookeeper/protocol/op-codes.js';
import { CREATOR_ALL_ACL, OPEN_ACL_UNSAFE } from '../../../src/zookeeper/types.js';
import { type Recorded, scenario, type Transcript } from '../transcript.js';

const open = OPEN_ACL_UNSAFE;

/** A multi's results as the transcript keeps them: each op's kind and what it answered (paths relative, stats without times, errors by name). */
function results(t: Transcript, list: readonly MultiResult[]): Recorded {
  return list.map((result): Recorded => {
    switch (result.type) {
      case 'create':
        return { create: t.rel(result.path), stat: result.stat ? t.stat(result.stat) : null };
      case 'setData':
        return { setData: t.stat(result.stat) };
      case 'error':
        return { error: result.err };
      default:
        return result.type;
    }
  });
}

export const powerScenarios = [
  scenario('create2 answers with the stat exists reads of the new node; a failed create2 answers its error', async (env, t) => {
    const a = await env.open();
    t.name(a, 'a');
    const at = (path: string) => `${env.root}/${path}`;
    const made = await a.zk.create2!(at('p'), Buffer.from('abc'), 'persistent');
    const sequential = await a.zk.create2!(at('e-'), null, 'ephemeral_sequential');
    return {
      persistent: { path: t.rel(made.path), stat: t.stat(made.stat), same: JSON.stringify(t.stat(made.stat), bigints) === JSON.stringify(t.stat(await a.zk.exists(made.path)), bigints) },
      sequential: { path: t.rel(sequential.path), stat: t.stat(sequential.stat) },
      again: await t.outcome(a.zk.create2!(at('p'), null, 'persistent')),
      orphan: await t.outcome(a.zk.create2!(at('missing/child'), null, 'persistent')),
    };
  }, {
    persistent: { path: 'p', stat: { czxid: 'z1', mzxid: 'z1', pzxid: 'z1', version: 0, cversion: 0, aversion: 0, owner: 'none', dataLength: 3, numChildren: 0 }, same: true },
    sequential: { path: 'e-0000000001', stat: { czxid: 'z2', mzxid: 'z2', pzxid: 'z2', version: 0, cversion: 0, aversion: 0, owner: 'a', dataLength: 0, numChildren: 0 } },
    again: 'NODEEXISTS',
    orphan: 'NONODE',
  }, { needs: ['create2'] }),

  scenario('multi with check: one transaction under one zxid, or nothing, the failed op named', async (env, t) => {
    const a = await env.open();
    const b = await env.open();
    t.name(a, 'a');
    const at = (path: string) => `${env.root}/${path}`;
    await a.zk.create(at('n'), Buffer.from('0'));
    await a.zk.create(at('gone'));
    const done = await a.zk.multi!([
      { type: 'check', path: at('n'), version: 0 },
      { type: 'create', path: at('m'), data: Buffer.from('m'), acl: open, flags: CreateFlag.persistent },
      { type: 'setData', path: at('n'), data: Buffer.from('1'), version: 0 },
      { type: 'delete', path: at('gone'), version: -1 },
    ]);
    // The check fails (n is at version 1 now): nothing of the transaction is applied.
    const refused = await a.zk.multi!([
      { type: 'create', path: at('x'), data: Buffer.from('x'), acl: open, flags: CreateFlag.persistent },
      { type: 'check', path: at('n'), version: 0 },
      { type: 'setData', path: at('n'), data: Buffer.from('2'), version: -1 },
    ]);
    // Another session sees the first transaction whole, and nothing of the second.
    const seen = {
      n: (await b.zk.getData(at('n'))).data.toString(),
      m: (await b.zk.exists(at('m'))) !== null,
      gone: (await b.zk.exists(at('gone'))) !== null,
      x: (await b.zk.exists(at('x'))) !== null,
    };
    return { done: results(t, done), refused: results(t, refused), seen };
  }, {
    done: ['check', { create: 'm', stat: null }, { setData: { czxid: 'z1', mzxid: 'z2', pzxid: 'z1', version: 1, cversion: 0, aversion: 0, owner: 'none', dataLength: 1, numChildren: 0 } }, 'delete'],
    refused: [{ error: 0 }, { error: -103 }, { error: -2 }],
    seen: { n: '1', m: true, gone: false, x: false },
  }, { needs: ['multi'] }),

  scenario("a guarded lock section's end: our node's delete and the record's versioned delete, all or nothing, each failure named", async (env, t) => {
    const a = await env.open();
    const b = await env.open();
    t.name(a, 'a');
    const at = (path: string) => `${env.root}/${path}`;
    const end = (node: string, version: number) =>
      a.zk.multi!([
        { type: 'delete', path: at(node), version: -1 },
        { type: 'delete', path: at('ready'), version },
      ]);
    await a.zk.create(at('ready'), Buffer.from('dirty'));
    await a.zk.create(at('mine'), null, 'ephemeral');
    await a.zk.setData(at('ready'), Buffer.from('checkpoint'), 0); // version 1
    const nodeGone = await end('someone-elses', 1); // our node deleted behind our back
    const taken = await end('mine', 0); // the record written since
    const applied = await end('mine', 1);
    const again = await end('mine', 1); // a retry of an applied transaction
    await a.zk.create(at('mine'), null, 'ephemeral');
    const recordGone = await end('mine', 1);
    return {
      nodeGone: results(t, nodeGone),
      taken: results(t, taken),
      applied: results(t, applied),
      again: results(t, again),
      recordGone: results(t, recordGone),
      mineLeft: (await b.zk.exists(at('mine'))) !== null,
    };
  }, {
    nodeGone: [{ error: -101 }, { error: -2 }],
    taken: [{ error: 0 }, { error: -103 }],
    applied: ['delete', 'delete'],
    again: [{ error: -101 }, { error: -2 }],
    recordGone: [{ error: 0 }, { error: -101 }],
    mineLeft: true,
  }, { needs: ['multi'] }),

  scenario('removeWatches: a removed watch fires no more; removing one that is not there is NOWATCHER', async (env, t) => {
    const a = await env.open();
    const b = await env.open();
    const at = (path: string) => `${env.root}/${path}`;
    await b.zk.create(at('n'), Buffer.from('0'));
    await b.zk.create(at('k'), Buffer.from('0'));
    const removed = t.watch();
    const kept = t.watch();
    await a.zk.getData(at('n'), removed.watcher);
    await a.zk.getData(at('k'), kept.watcher);
    const removal = await t.outcome(a.zk.removeWatches!(at('n'), 'data'));
    await b.zk.setData(at('n'), Buffer.from('1'), -1);
    await b.zk.setData(at('k'), Buffer.from('1'), -1);
    const keptFired = await kept.until(1);
    // A read behind the changes: any notification of n would have come before its reply.
    await a.zk.getData(at('n'));
    return {
      removal,
      removedEvents: removed.events.filter((event) => !event.startsWith('notwatching')),
      keptFired,
      again: await t.outcome(a.zk.removeWatches!(at('n'), 'data')),
      never: await t.outcome(a.zk.removeWatches!(at('nowhere'), 'any')),
    };
  }, { removal: 'ok', removedEvents: [], keptFired: ['changed k'], again: 'NOWATCHER', never: 'NOWATCHER' }, { needs: ['removeWatches'] }),
];

/** The watches `addWatch` leaves, as the server keeps and fires them. */
export const addWatchScenarios = [
  scenario('addWatch: a persistent watch fires on every change of its node and its children, and stays', async (env, t) => {
    const a = await env.open();
    const b = await env.open();
    const n = `${env.root}/n`;
    const log = t.watch();
    await a.zk.addWatch!(n, false, log.watcher); // no node yet: the watch needs none
    await b.zk.create(n, Buffer.from('0'));
    await b.zk.setData(n, Buffer.from('1'), -1);
    await b.zk.setData(n, Buffer.from('2'), -1);
    await b.zk.create(`${n}/c`);
    await b.zk.create(`${n}/c/deeper`); // below a child: not its node's change
    await b.zk.delete(`${n}/c/deeper`);
    await b.zk.delete(`${n}/c`);
    await b.zk.delete(n);
    await b.zk.create(n);
    const fired = await log.until(7);
    const removal = await t.outcome(a.zk.removeWatches!(n, 'any', log.watcher));
    await b.zk.setData(n, Buffer.from('3'), -1);
    await a.zk.getData(n); // any notification would come before this reply
    return { fired, removal, afterRemoval: log.events.length };
  }, {
    fired: ['created n', 'changed n', 'changed n', 'child n', 'child n', 'deleted n', 'created n'],
    removal: 'ok',
    afterRemoval: 7,
  }, { needs: ['addWatch', 'removeWatches'] }),

  scenario('addWatch recursive: creates, changes and deletes below it, no child events, nothing a session may not read', async (env, t) => {
    const a = await env.open();
    const b = await env.open({ auth: { scheme: 'digest', credentials: 'bob:secret' } });
    const r = `${env.root}/r`;
    await b.zk.create(r);
    const log = t.watch();
    await a.zk.addWatch!(r, true, log.watcher);
    await b.zk.create(`${r}/a`);
    await b.zk.create(`${r}/a/b`, Buffer.from('0'));
    await b.zk.setData(`${r}/a/b`, Buffer.from('1'), -1);
    // A node only bob may read: a is told nothing of it (ZooKeeper checks READ before it notifies).
    await b.zk.create2!(`${r}/secret`, null, 'persistent', CREATOR_ALL_ACL);
    await b.zk.setData(`${r}/secret`, Buffer.from('x'), -1);
    await b.zk.delete(`${r}/a/b`);
    await b.zk.setData(r, Buffer.from('top'), -1);
    const fired = await log.until(5);
    // Changes while a is cut off are not told on its return: the watch is set again, and fires for what comes after.
    await env.cutConnection(a, async () => {
      await b.zk.setData(`${r}/a`, Buffer.from('while cut'), -1);
    });
    await a.zk.sync(r);
    const atReconnection = [...log.events];
    await b.zk.delete(`${r}/a`);
    const later = await log.until(6);
    return { fired, atReconnection: atReconnection.length, later: later.slice(5) };
  }, {
    fired: ['created r/a', 'created r/a/b', 'changed r/a/b', 'deleted r/a/b', 'changed r'],
    atReconnection: 5,
    later: ['deleted r/a'],
  }, { needs: ['addWatch', 'create2'] }),
  scenario("addWatch recursive: the watching session's own change is told before the change's reply", async (env, t) => {
    const a = await env.open();
    const r = `${env.root}/r`;
    await a.zk.create(r);
    const log = t.watch();
    await a.zk.addWatch!(r, true, log.watcher);
    await a.zk.create(`${r}/x`);
    const atCreateReply = [...log.events];
    await a.zk.delete(`${r}/x`);
    return { atCreateReply, atDeleteReply: [...log.events] };
  }, { atCreateReply: ['created r/x'], atDeleteReply: ['created r/x', 'deleted r/x'] }, { needs: ['addWatch'] }),
];

/** JSON.stringify's replacer for stats that still hold zxids. */
function bigints(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}
