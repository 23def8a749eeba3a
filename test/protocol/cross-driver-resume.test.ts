/**
 * A session's id and password, as `SessionHandle` hands them out, resume it in either driver
 * (the interface's promise: "with the id, enough to resume it"). The `zookeeper` package parses
 * a password from upper-case hex only (`hexToFourBits` in its node-zk.cpp), so the TypeScript
 * driver's password must be given that way. Against the shared real ZooKeeper.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { ProtocolHandle } from '../../src/zookeeper/protocol/protocol-handle.js';
import { ZooKeeperHandle } from '../../src/zookeeper/zookeeper-handle.js';
import { sharedConnectString } from '../fixtures/session-helpers.js';
import { waitFor } from '../support/wait.js';

it('a session made by the TypeScript driver is resumed by the native driver with its id and password', async () => {
  const events: string[] = [];
  const ts: ProtocolHandle = new ProtocolHandle(
    { connectString: sharedConnectString(), sessionTimeoutMs: 4000 },
    { onConnected: () => events.push('ts connected'), onConnecting: () => events.push('ts connecting'), onClosed: (code) => events.push(`ts closed ${code}`) },
  );
  let native: ZooKeeperHandle | undefined;
  try {
    await waitFor(() => events.includes('ts connected'), { message: 'TypeScript session' });
    native = new ZooKeeperHandle(
      { connectString: sharedConnectString(), sessionTimeoutMs: 4000 },
      { onConnected: () => events.push('native connected'), onConnecting: () => undefined, onClosed: (code) => events.push(`native closed ${code}`) },
      { id: ts.sessionId, password: ts.sessionPassword },
    );
    await waitFor(() => events.some((e) => e.startsWith('native ')), { message: 'native resume' });
    assert.equal(events.find((e) => e.startsWith('native ')), 'native connected', events.join(', '));
    assert.equal(native.sessionId, ts.sessionId);
  } finally {
    native?.close();
    ts.close();
  }
});
