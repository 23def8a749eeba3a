/**
 * The dev server gives a node the ACL its create carries (`create2`, and a create inside a
 * `multi`), as ZooKeeper does: a node created for `digest:owner` cannot be read by another
 * identity, and an `auth` ACL from a session without credentials is INVALIDACL. (It used to read
 * the ACL and drop it: every node was world-open, whatever the client asked for, in silence.)
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { DevServer } from '../../src/dev-server/dev-server.js';
import { ZooKeeperError } from '../../src/errors/zookeeper.error.js';
import { openSessionHandle } from '../../src/zookeeper/open-session-handle.js';
import { CreateFlag } from '../../src/zookeeper/protocol/op-codes.js';
import type { SessionHandle } from '../../src/zookeeper/session-handle.js';
import { ZK_PERMS } from '../../src/zookeeper/types.js';
import { withTimeout } from '../support/wait.js';

const OWNER_ONLY = [{ perms: ZK_PERMS.ALL, scheme: 'auth', id: '' }];

describe('dev server: the ACL of a create', () => {
  let server: DevServer;
  const handles: SessionHandle[] = [];
  const root = `/acl-${randomUUID()}`;

  async function open(credentials?: string): Promise<SessionHandle> {
    let connected!: () => void;
    const ready = new Promise<void>((resolve) => (connected = resolve));
    const zk = openSessionHandle({ connectString: server.connectString, sessionTimeoutMs: 6000, driver: 'typescript' }, { onConnected: () => connected(), onConnecting: () => undefined, onClosed: () => undefined });
    handles.push(zk);
    await withTimeout(ready, 10_000, 'no session');
    if (credentials) await zk.addAuth('digest', credentials);
    return zk;
  }

  before(async () => {
    server = await DevServer.start({ port: 0 });
    await (await open()).create(root);
  });
  after(async () => {
    await Promise.all(handles.map((zk) => zk.close()));
    await server?.close();
  });

  it('keeps a node created for its owner from everybody else (create2 and multi)', async () => {
    const owner = await open('owner:secret');
    const stranger = await open('stranger:secret');
    await owner.create2!(`${root}/single`, Buffer.from('x'), 'persistent', OWNER_ONLY);
    await owner.multi!([{ type: 'create', path: `${root}/in-multi`, data: Buffer.from('y'), acl: OWNER_ONLY, flags: CreateFlag.persistent }]);
    for (const path of [`${root}/single`, `${root}/in-multi`]) {
      assert.deepEqual((await owner.getData(path)).data.length, 1, `the owner reads ${path}`);
      await assert.rejects(stranger.getData(path), (error: unknown) => ZooKeeperError.is(error, 'NOAUTH'), `another identity reads ${path}`);
      const { acl } = await owner.getAcl(path);
      assert.deepEqual(acl.map(({ scheme, perms }) => `${scheme}:${perms}`), [`digest:${ZK_PERMS.ALL}`]);
    }
  });

  it('refuses an auth ACL from a session without credentials (INVALIDACL)', async () => {
    const anonymous = await open();
    await assert.rejects(anonymous.create2!(`${root}/nobody`, null, 'persistent', OWNER_ONLY), (error: unknown) => ZooKeeperError.is(error, 'INVALIDACL'));
  });
});
