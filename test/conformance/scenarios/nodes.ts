/**
 * Scenarios of one session's requests on nodes: creates, lists, deletes and their error codes,
 * sequential names, stat fields, versions, containers, sync.
 */
import { OPEN_ACL_UNSAFE } from '../../../src/zookeeper/types.js';
import { type Recorded, scenario } from '../transcript.js';

export const nodeScenarios = [
  scenario('create, list and delete, with their error codes', async (env, t) => {
    const { zk } = await env.open();
    const at = (path: string) => `${env.root}/${path}`;
    return {
      create: await t.created(zk.create(at('a'))),
      createAgain: await t.created(zk.create(at('a'))),
      createUnderMissing: await t.created(zk.create(at('missing/x'))),
      createChild: await t.created(zk.create(at('a/b'), Buffer.from('b'))),
      // Checked by the C client before sending: a path must not end with '/' (unless sequential) or hold '//'.
      createTrailingSlash: await t.created(zk.create(at('a/'))),
      createDoubleSlash: await t.created(zk.create(at('a//c'))),
      deleteNotEmpty: await t.outcome(zk.delete(at('a'))),
      list: await t.outcome(zk.getChildren(env.root), (listing) => t.children(listing)),
      deleteChild: await t.outcome(zk.delete(at('a/b'))),
      delete: await t.outcome(zk.delete(at('a'))),
      deleteAgain: await t.outcome(zk.delete(at('a'))),
      listAfter: await t.outcome(zk.getChildren(env.root), (listing) => t.children(listing)),
      getMissing: await t.outcome(zk.getData(at('a'))),
      setMissing: await t.outcome(zk.setData(at('a'), Buffer.from('x'), -1)),
      listMissing: await t.outcome(zk.getChildren(at('a'))),
      existsMissing: await t.outcome(zk.exists(at('a')), (stat) => t.stat(stat)),
      ephemeral: await t.created(zk.create(at('e'), null, 'ephemeral')),
      childOfEphemeral: await t.created(zk.create(at('e/x'))),
      ephemeralChildOfEphemeral: await t.created(zk.create(at('e/x'), null, 'ephemeral')),
      sequentialChildOfEphemeral: await t.created(zk.create(at('e/x-'), null, 'ephemeral_sequential')),
      containerChild: await t.created(zk.create(at('box'), null, 'container')),
      childOfContainer: await t.created(zk.create(at('box/x'), null, 'ephemeral')),
      // The C client's check lets a sequential create end with '/' (the number becomes the name)
      // and refuses a '.' segment, which the server would answer with NONODE (no parent 'box/.').
      sequentialTrailingSlash: await t.created(zk.create(at('box/'), null, 'persistent_sequential')),
      dotSegment: await t.created(zk.create(at('box/./y'))),
    };
  }, {
    create: 'a',
    createAgain: 'NODEEXISTS',
    createUnderMissing: 'NONODE',
    createChild: 'a/b',
    createTrailingSlash: 'BADARGUMENTS',
    createDoubleSlash: 'BADARGUMENTS',
    deleteNotEmpty: 'NOTEMPTY',
    list: {
      children: ['a'],
      stat: { czxid: 'z1', mzxid: 'z1', pzxid: 'z2', version: 0, cversion: 1, aversion: 0, owner: 'none', dataLength: 0, numChildren: 1 },
    },
    deleteChild: 'ok',
    delete: 'ok',
    deleteAgain: 'NONODE',
    listAfter: {
      children: [],
      stat: { czxid: 'z1', mzxid: 'z1', pzxid: 'z3', version: 0, cversion: 2, aversion: 0, owner: 'none', dataLength: 0, numChildren: 0 },
    },
    getMissing: 'NONODE',
    setMissing: 'NONODE',
    listMissing: 'NONODE',
    existsMissing: null,
    ephemeral: 'e',
    childOfEphemeral: 'NOCHILDRENFOREPHEMERALS',
    ephemeralChildOfEphemeral: 'NOCHILDRENFOREPHEMERALS',
    sequentialChildOfEphemeral: 'NOCHILDRENFOREPHEMERALS',
    containerChild: 'box',
    childOfContainer: 'box/x',
    sequentialTrailingSlash: 'box/0000000001',
    dotSegment: 'BADARGUMENTS',
  }),

  // Surprise: the suffix is not the parent's cversion as a client reads it. The server counts
  // child creates only, names sequential nodes by that count, and reports cversion as
  // 2 * creates - numChildren (DataNode.copyStat), i.e. creates + deletes.
  scenario("sequential names count the parent's child creates; its cversion counts deletes too", async (env, t) => {
    const { zk } = await env.open();
    const at = (path: string) => `${env.root}/${path}`;
    const steps: Recorded[] = [];
    /** The outcome, then the root's cversion. */
    const step = async (request: Promise<Recorded>) => {
      const outcome = await request;
      steps.push([outcome, (await zk.exists(env.root))!.cversion]);
    };
    await step(t.created(zk.create(at('x'))));
    await step(t.created(zk.create(at('q-'), null, 'persistent_sequential')));
    await step(t.created(zk.create(at('q-'), null, 'ephemeral_sequential')));
    await step(t.outcome(zk.delete(at('x'))));
    await step(t.created(zk.create(at('q-'), null, 'persistent_sequential')));
    await step(t.outcome(zk.delete(at('q-0000000001'))));
    await step(t.created(zk.create(at('x'))));
    // Failed creates and deletes change nothing.
    await step(t.created(zk.create(at('x'))));
    await step(t.outcome(zk.delete(at('nothing'))));
    await step(t.created(zk.create(at('r-'), null, 'persistent_sequential')));
    // The number is the bare suffix: an empty prefix names the node by it alone.
    await step(t.created(zk.create(`${env.root}/`, null, 'persistent_sequential')));
    // A sequential create whose name is taken fails, and fails again: the count did not move.
    await step(t.created(zk.create(at('s-0000000008'))));
    await step(t.created(zk.create(at('s-'), null, 'persistent_sequential')));
    await step(t.created(zk.create(at('s-'), null, 'persistent_sequential')));
    await step(t.created(zk.create(at('fresh'))));
    const fresh = await t.created(zk.create(at('fresh/n-'), null, 'persistent_sequential'));
    return { steps, fresh, root: await t.outcome(zk.getChildren(env.root), (listing) => t.children(listing)) };
  }, {
    steps: [
      ['x', 1],
      ['q-0000000001', 2],
      ['q-0000000002', 3],
      ['ok', 4],
      ['q-0000000003', 5],
      ['ok', 6],
      ['x', 7],
      ['NODEEXISTS', 7],
      ['NONODE', 7],
      ['r-0000000005', 8],
      ['0000000006', 9],
      ['s-0000000008', 10],
      ['NODEEXISTS', 10],
      ['NODEEXISTS', 10],
      ['fresh', 11],
    ],
    fresh: 'fresh/n-0000000000',
    root: {
      children: ['0000000006', 'fresh', 'q-0000000002', 'q-0000000003', 'r-0000000005', 's-0000000008', 'x'],
      stat: { czxid: 'z1', mzxid: 'z1', pzxid: 'z2', version: 0, cversion: 11, aversion: 0, owner: 'none', dataLength: 0, numChildren: 7 },
    },
  }),

  // A container's ephemeralOwner reads 0, as a persistent node's: the server marks containers in
  // that field (Long.MIN_VALUE) but shows clients 0 for the mark (DataNode.copyStat).
  scenario('stat fields of persistent, ephemeral, sequential and container nodes', async (env, t) => {
    const a = await env.open();
    t.name(a, 'a');
    const at = (path: string) => `${env.root}/${path}`;
    const { zk } = a;
    await zk.create(at('p'), Buffer.from('abc'));
    await zk.create(at('e'), Buffer.from('e'), 'ephemeral');
    const sequential = await zk.create(at('s-'), null, 'ephemeral_sequential');
    await zk.create(at('c'), Buffer.from('container'), 'container');
    await zk.create(at('c/child'));
    const created = {
      persistent: t.stat(await zk.exists(at('p'))),
      ephemeral: t.stat(await zk.exists(at('e'))),
      sequential: t.stat(await zk.exists(sequential)),
      container: t.stat(await zk.exists(at('c'))),
    };
    const written = t.stat(await zk.setData(at('p'), Buffer.from(''), -1));
    await zk.create(at('p/one'));
    await zk.create(at('p/two'));
    await zk.delete(at('p/one'));
    const afterChildren = t.stat(await zk.exists(at('p')));
    await zk.setAcl(at('p'), OPEN_ACL_UNSAFE, 0);
    const afterAcl = (await zk.getData(at('p'))).stat;
    return { created, written, afterChildren, afterAcl: t.stat(afterAcl), root: t.stat(await zk.exists(env.root)) };
  }, {
    created: {
      persistent: { czxid: 'z2', mzxid: 'z2', pzxid: 'z2', version: 0, cversion: 0, aversion: 0, owner: 'none', dataLength: 3, numChildren: 0 },
      ephemeral: { czxid: 'z3', mzxid: 'z3', pzxid: 'z3', version: 0, cversion: 0, aversion: 0, owner: 'a', dataLength: 1, numChildren: 0 },
      sequential: { czxid: 'z4', mzxid: 'z4', pzxid: 'z4', version: 0, cversion: 0, aversion: 0, owner: 'a', dataLength: 0, numChildren: 0 },
      container: { czxid: 'z5', mzxid: 'z5', pzxid: 'z6', version: 0, cversion: 1, aversion: 0, owner: 'none', dataLength: 9, numChildren: 1 },
    },
    written: { czxid: 'z2', mzxid: 'z7', pzxid: 'z2', version: 1, cversion: 0, aversion: 0, owner: 'none', dataLength: 0, numChildren: 0 },
    afterChildren: { czxid: 'z2', mzxid: 'z7', pzxid: 'z8', version: 1, cversion: 3, aversion: 0, owner: 'none', dataLength: 0, numChildren: 1 },
    afterAcl: { czxid: 'z2', mzxid: 'z7', pzxid: 'z8', version: 1, cversion: 3, aversion: 1, owner: 'none', dataLength: 0, numChildren: 1 },
    root: { czxid: 'z1', mzxid: 'z1', pzxid: 'z5', version: 0, cversion: 4, aversion: 0, owner: 'none', dataLength: 0, numChildren: 4 },
  }),

  scenario('setData and delete check the version', async (env, t) => {
    const { zk } = await env.open();
    const node = `${env.root}/v`;
    await zk.create(node, Buffer.from('0'));
    const version = (request: Promise<{ version: number }>) => t.outcome(request, (stat) => stat.version);
    return {
      set0: await version(zk.setData(node, Buffer.from('1'), 0)),
      set0Again: await version(zk.setData(node, Buffer.from('2'), 0)),
      setAhead: await version(zk.setData(node, Buffer.from('2'), 7)),
      setSameData: await version(zk.setData(node, Buffer.from('1'), 1)),
      setAny: await version(zk.setData(node, Buffer.from('3'), -1)),
      data: await t.outcome(zk.getData(node), (read) => read.data.toString()),
      deleteStale: await t.outcome(zk.delete(node, 1)),
      deleteCurrent: await t.outcome(zk.delete(node, 3)),
      deleteMissingWithVersion: await t.outcome(zk.delete(node, 3)),
      setMissingWithVersion: await version(zk.setData(node, Buffer.from('4'), 3)),
    };
  }, {
    set0: 1,
    set0Again: 'BADVERSION',
    setAhead: 'BADVERSION',
    setSameData: 2,
    setAny: 3,
    data: '3',
    deleteStale: 'BADVERSION',
    deleteCurrent: 'ok',
    deleteMissingWithVersion: 'NONODE',
    setMissingWithVersion: 'NONODE',
  }),

  scenario('a container goes once its last child is deleted, never before it had one', async (env, t) => {
    const a = await env.open();
    const b = await env.open();
    const at = (path: string) => `${env.root}/${path}`;
    for (const name of ['unused', 'emptied', 'occupied', 'orphaned', 'nested']) await a.zk.create(at(name), null, 'container');
    // Watched before it is emptied: the server may sweep it any time after that.
    const emptied = t.watch();
    await a.zk.exists(at('emptied'), emptied.watcher);
    await a.zk.delete(await a.zk.create(at('emptied/x')));
    await a.zk.create(at('occupied/x'));
    await b.zk.create(at('orphaned/x'), null, 'ephemeral');
    // A container holding an emptied container is not empty until the sweep removed the inner one.
    await a.zk.create(at('nested/inner'), null, 'container');
    await a.zk.delete(await a.zk.create(at('nested/inner/x')));
    await b.close();
    await env.sweepContainers();
    const present = async (names: string[]) => Object.fromEntries(
      await Promise.all(names.map(async (name) => [name, (await a.zk.exists(at(name))) !== null] as const)),
    );
    // Not 'nested' yet: the sweep that emptied it may or may not have been followed by another.
    const afterOneSweep = await present(['unused', 'emptied', 'occupied', 'orphaned', 'nested/inner']);
    await env.sweepContainers();
    return {
      afterOneSweep,
      afterTwoSweeps: await present(['unused', 'emptied', 'occupied', 'orphaned', 'nested', 'nested/inner']),
      emptiedWatch: await emptied.until(1),
      root: t.stat(await a.zk.exists(env.root)),
    };
  }, {
    afterOneSweep: { unused: true, emptied: false, occupied: true, orphaned: false, 'nested/inner': false },
    afterTwoSweeps: { unused: true, emptied: false, occupied: true, orphaned: false, nested: false, 'nested/inner': false },
    emptiedWatch: ['deleted emptied'],
    root: { czxid: 'z1', mzxid: 'z1', pzxid: 'z2', version: 0, cversion: 8, aversion: 0, owner: 'none', dataLength: 0, numChildren: 2 },
  }),

  scenario('sync, then read what another session wrote', async (env, t) => {
    const a = await env.open();
    const b = await env.open();
    const node = `${env.root}/n`;
    await a.zk.create(node, Buffer.from('old'));
    await a.zk.setData(node, Buffer.from('new'), -1);
    return {
      sync: await t.outcome(b.zk.sync(node)),
      read: await t.outcome(b.zk.getData(node), (read) => ({ data: read.data.toString(), stat: t.stat(read.stat) })),
      // sync does not look at the node: a missing path syncs as well.
      syncMissing: await t.outcome(b.zk.sync(`${env.root}/missing`)),
    };
  }, {
    sync: 'ok',
    read: {
      data: 'new',
      stat: { czxid: 'z1', mzxid: 'z2', pzxid: 'z1', version: 1, cversion: 0, aversion: 0, owner: 'none', dataLength: 3, numChildren: 0 },
    },
    syncMissing: 'ok',
  }),
];
