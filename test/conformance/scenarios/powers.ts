/**
 * Scenarios of the requests the default driver adds to what the C client of the `zookeeper`
 * package can send (issue 32): a create that answers with the node's stat (`create2`), `multi`
 * with `check`, and `removeWatches`. They need those powers: a target on the native driver skips
 * them (see `needs`).
 */
import type { MultiResult } from '../../../src/zookeeper/protocol/multi.js';
import { CreateFlag } from '../../../src/zookeeper/protocol/op-codes.js';
import { OPEN_ACL_UNSAFE } from '../../../src/zookeeper/types.js';
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

/** JSON.stringify's replacer for stats that still hold zxids. */
function bigints(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}
