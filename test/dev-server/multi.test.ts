/**
 * `multi` on the dev server, through our TypeScript client: all of a transaction's ops apply, in
 * order, each seeing the ones before it (a create then a setData of the created node), or none
 * does: the op that failed carries its code, those before it 0, those after it
 * RUNTIMEINCONSISTENCY, as ZooKeeper's FinalRequestProcessor answers.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { DevServer } from '../../src/dev-server/dev-server.js';
import { ZOOKEEPER_ERROR_CODES as RC } from '../../src/errors/zookeeper.error.js';
import { openSessionHandle } from '../../src/zookeeper/open-session-handle.js';
import { CreateFlag } from '../../src/zookeeper/protocol/op-codes.js';
import type { SessionHandle } from '../../src/zookeeper/session-handle.js';
import { OPEN_ACL_UNSAFE } from '../../src/zookeeper/types.js';
import { withTimeout } from '../support/wait.js';

describe('dev server: multi', () => {
  let server: DevServer;
  let zk: SessionHandle;
  const root = `/multi-${randomUUID()}`;

  before(async () => {
    server = await DevServer.start({ port: 0 });
    let connected!: () => void;
    const ready = new Promise<void>((resolve) => (connected = resolve));
    zk = openSessionHandle({ connectString: server.connectString, sessionTimeoutMs: 6000, driver: 'typescript' }, { onConnected: () => connected(), onConnecting: () => undefined, onClosed: () => undefined });
    await withTimeout(ready, 10_000, 'no session');
    await zk.create(root);
  });
  after(async () => {
    await zk?.close();
    await server?.close();
  });

  it('applies every op in order, each seeing the ones before it', async () => {
    const results = await zk.multi!([
      { type: 'create', path: `${root}/a`, data: Buffer.from('1'), acl: OPEN_ACL_UNSAFE, flags: CreateFlag.persistent },
      { type: 'create', path: `${root}/a/s-`, data: Buffer.alloc(0), acl: OPEN_ACL_UNSAFE, flags: CreateFlag.persistent_sequential },
      { type: 'setData', path: `${root}/a`, data: Buffer.from('2'), version: 0 },
      { type: 'check', path: `${root}/a`, version: 1 },
      { type: 'delete', path: `${root}/a/s-0000000000`, version: -1 },
    ]);
    assert.deepEqual(results.map((r) => r.type), ['create', 'create', 'setData', 'check', 'delete']);
    assert.equal((results[1] as { path: string }).path, `${root}/a/s-0000000000`);
    assert.equal((results[2] as { stat: { version: number } }).stat.version, 1);
    const { data, stat } = await zk.getData(`${root}/a`);
    assert.deepEqual(data, Buffer.from('2'));
    assert.equal(stat.numChildren, 0);
    // One transaction: one zxid for all of it.
    assert.equal(stat.czxid, stat.mzxid);
  });

  it('applies none when one fails: its code, 0 before it, RUNTIMEINCONSISTENCY after it', async () => {
    const results = await zk.multi!([
      { type: 'create', path: `${root}/b`, data: Buffer.alloc(0), acl: OPEN_ACL_UNSAFE, flags: CreateFlag.persistent },
      { type: 'check', path: `${root}/a`, version: 7 },
      { type: 'delete', path: `${root}/a`, version: -1 },
    ]);
    assert.deepEqual(results, [
      { type: 'error', err: 0 },
      { type: 'error', err: RC.BADVERSION },
      { type: 'error', err: RC.RUNTIMEINCONSISTENCY },
    ]);
    assert.equal(await zk.exists(`${root}/b`), null);
    assert.notEqual(await zk.exists(`${root}/a`), null);
  });
});
