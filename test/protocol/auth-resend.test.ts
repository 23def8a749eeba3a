/**
 * Credentials added to a session are sent again after every reconnection, and an `addAuth` whose
 * reply was lost with its connection is answered by the reply to the re-sent packet: it settles,
 * it never hangs. Driven over in-memory links, so that the test decides when each link drops.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JuteReader } from '../../src/zookeeper/protocol/jute-reader.js';
import { JuteWriter } from '../../src/zookeeper/protocol/jute-writer.js';
import { OpCode, Xid } from '../../src/zookeeper/protocol/op-codes.js';
import { ProtocolHandle } from '../../src/zookeeper/protocol/protocol-handle.js';
import type { Dialer, ServerLinkEvents } from '../../src/zookeeper/protocol/server-link.js';
import { waitFor, withTimeout } from '../support/wait.js';

/** Links opened by the client, in order; the test answers on the latest. */
function memoryLinks() {
  const links: { events: ServerLinkEvents; sent: Buffer[] }[] = [];
  const dialer: Dialer = (_address, events) => {
    const link = { events, sent: [] as Buffer[] };
    links.push(link);
    queueMicrotask(() => events.opened());
    return { send: (frame) => void link.sent.push(frame), close: () => events.closed() };
  };
  const latest = () => links.at(-1)!;
  const accept = () => latest().events.data(new JuteWriter().int(0).int(10_000).long(0x42n).buffer(Buffer.alloc(16, 7)).bool(false).frame());
  /** The type of each request frame sent on the latest link after its handshake (auth packets by their xid). */
  const sentTypes = () => latest().sent.slice(1).map((frame) => {
    const reader = new JuteReader(frame.subarray(4), 'request');
    const xid = reader.int();
    return xid === Xid.auth ? 'auth' : String(reader.int());
  });
  return { dialer, links, latest, accept, sentTypes };
}

describe('ProtocolHandle credentials', () => {
  it('an addAuth whose connection dropped before its reply settles with the reply to the re-sent packet', async () => {
    const server = memoryLinks();
    let connects = 0;
    const handle = new ProtocolHandle({ connectString: '127.0.0.1:1,127.0.0.1:2', sessionTimeoutMs: 10_000, dialer: server.dialer }, { onConnected: () => void connects++, onConnecting() {}, onClosed() {} });
    try {
      await waitFor(() => server.links.length === 1, { timeoutMs: 1000 });
      await new Promise((resolve) => setImmediate(resolve));
      server.accept();
      await waitFor(() => connects === 1, { timeoutMs: 1000, message: 'first connection' });
      const added = handle.addAuth('digest', 'app:secret');
      assert.deepEqual(server.sentTypes(), ['auth']);
      server.latest().events.closed(new Error('dropped before the auth reply'));

      await waitFor(() => server.links.length === 2, { timeoutMs: 3000, message: 'redial' });
      await new Promise((resolve) => setImmediate(resolve));
      server.accept();
      await waitFor(() => connects === 2, { timeoutMs: 1000, message: 'second connection' });
      assert.deepEqual(server.sentTypes(), ['auth'], 'the credentials went first on the new connection');
      server.latest().events.data(new JuteWriter().int(Xid.auth).long(0n).int(0).frame());
      await withTimeout(added, 1000, 'addAuth never settled');

      // A later reconnection sends them again, with nobody waiting.
      server.latest().events.closed(new Error('dropped again'));
      await waitFor(() => server.links.length === 3, { timeoutMs: 3000, message: 'redial' });
      await new Promise((resolve) => setImmediate(resolve));
      server.accept();
      await waitFor(() => connects === 3, { timeoutMs: 1000 });
      server.latest().events.data(new JuteWriter().int(Xid.auth).long(0n).int(0).frame());
      const read = handle.exists('/');
      assert.deepEqual(server.sentTypes(), ['auth', String(OpCode.exists)]);
      read.catch(() => undefined);
    } finally {
      handle.close();
    }
  });
});
