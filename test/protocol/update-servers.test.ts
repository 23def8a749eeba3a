/**
 * `ProtocolHandle.updateServers` (the ensemble's membership changed, see `EnsembleTracker`) on two
 * fake servers sharing a session table: the connection stays where it is while its server has not
 * left, even when the new list names it otherwise (a connect string's DNS name for the config's
 * address); it moves, with the same session, once its server is among those that left; and later
 * dials go only to the listed servers.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { ProtocolHandle } from '../../src/zookeeper/protocol/protocol-handle.js';
import { FakeSessionTable, FakeZkServer } from '../support/fake-zk-server.js';
import { waitFor } from '../support/wait.js';

const opened: { close(): unknown }[] = [];
after(async () => {
  for (const thing of opened.reverse()) await thing.close();
});

const address = (server: FakeZkServer) => {
  const [host, port] = server.hostPort.split(':');
  return { host: host!, port: Number(port) };
};

describe('ProtocolHandle.updateServers', () => {
  it('keeps the connection unless its server left; then resumes the session on a listed server', async () => {
    const sessions = new FakeSessionTable();
    const first = await FakeZkServer.start(sessions);
    const second = await FakeZkServer.start(sessions);
    opened.push(first, second);
    const events: string[] = [];
    // `random` near 1 leaves the order as given: the first server is dialed first.
    const handle: ProtocolHandle = new ProtocolHandle(
      { connectString: first.hostPort, sessionTimeoutMs: 4000, random: () => 0.999 },
      { onConnected: () => events.push(`connected ${handle.sessionId}`), onConnecting: () => events.push('connecting'), onClosed: (code) => events.push(`closed ${code}`) },
    );
    opened.push(handle);
    await waitFor(() => events.length === 1, { timeoutMs: 5000, message: 'connected to the first server' });
    const sessionId = handle.sessionId;

    handle.updateServers([address(first), address(second)], []);
    handle.updateServers([address(second)], []); // not listed, but not known to have left
    await handle.exists('/');
    assert.deepEqual(events, [`connected ${sessionId}`]);
    assert.equal(second.handshakes.length, 0);

    handle.updateServers([address(second)], [address(first)]);
    await waitFor(() => events.length === 3, { timeoutMs: 5000, message: 'moved to the second server' });
    assert.deepEqual(events, [`connected ${sessionId}`, 'connecting', `connected ${sessionId}`]);
    assert.equal(second.handshakes.length, 1);
    assert.equal(second.handshakes[0]!.sessionId, BigInt(`0x${sessionId}`), 'the same session, resumed');
    assert.equal(first.handshakes.length, 1, 'the server that left is not dialed again');
  });
});
