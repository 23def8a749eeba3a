/**
 * `ProtocolHandle` against fake servers that misbehave (test/support/fake-zk-server.ts), two per
 * test on loopback. The first server in the connect string misbehaves on the first request; the
 * second shares its session table, as an ensemble does. Proves, for garbage, replies out of
 * order, a huge frame length and a stall mid-frame (dropped by the read timeout, two thirds of
 * the session timeout): the connection is dropped, the requests in flight fail with
 * CONNECTIONLOSS (OPERATIONTIMEOUT after the stall), and the same session is resumed on the other server (its handshake carries
 * the first server's session id, password and last zxid). Also: a resume answered with timeOut 0
 * closes the handle as expired and fails the queued request with SESSIONEXPIRED; a request over
 * 1 MiB is refused with `RecordTooLargeError` without a byte of it reaching the server.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { RecordTooLargeError } from '../../src/errors/record-too-large.error.js';
import { ZooKeeperError } from '../../src/errors/zookeeper.error.js';
import { ProtocolHandle } from '../../src/zookeeper/protocol/protocol-handle.js';
import { SERVER_MAX_PACKET_BYTES } from '../../src/zookeeper/protocol/protocol-session.js';
import { FakeSessionTable, FakeZkServer, type Misbehaviour } from '../support/fake-zk-server.js';
import { waitFor, withTimeout } from '../support/wait.js';

/** Read timeout 1333 ms, connect timeout 1000 ms per server: the stall test waits for the former. */
const SESSION_TIMEOUT_MS = 2000;
const BOUND_MS = 10_000;

const opened: { close(): unknown }[] = [];
after(async () => {
  for (const thing of opened.reverse()) await thing.close();
});

/** A handle on `servers` in that order (`random` near 1 leaves `HostList`'s shuffle as it is). */
function openHandle(servers: FakeZkServer[], onConnecting?: (handle: ProtocolHandle) => void) {
  const events: string[] = [];
  const handle: ProtocolHandle = new ProtocolHandle(
    { connectString: servers.map((s) => s.hostPort).join(','), sessionTimeoutMs: SESSION_TIMEOUT_MS, random: () => 0.999 },
    {
      onConnected: () => events.push(`connected ${handle.sessionId}`),
      onConnecting: () => {
        events.push('connecting');
        onConnecting?.(handle);
      },
      onClosed: (code) => events.push(`closed ${code}`),
    },
  );
  opened.push(handle);
  return { handle, events };
}

async function startFakes(misbehaviour: Misbehaviour | undefined, shared = true): Promise<[FakeZkServer, FakeZkServer, FakeSessionTable]> {
  const sessions = new FakeSessionTable();
  const first = await FakeZkServer.start(sessions, misbehaviour);
  const second = await FakeZkServer.start(shared ? sessions : new FakeSessionTable());
  opened.push(first, second);
  return [first, second, sessions];
}

/** The error a request failed with (bounded: a request that never settles fails the test). */
async function failure(request: Promise<unknown>, what: string): Promise<ZooKeeperError> {
  const outcome = await withTimeout(
    request.then(
      () => undefined,
      (error: unknown) => error,
    ),
    BOUND_MS,
    `${what} never settled`,
  );
  assert.ok(outcome instanceof ZooKeeperError, `${what}: expected a ZooKeeperError, got ${String(outcome)}`);
  return outcome;
}

const cases: { misbehaviour: Misbehaviour; why: RegExp }[] = [
  { misbehaviour: 'garbage-frame', why: /Malformed ZooKeeper reply: truncated/ },
  { misbehaviour: 'garbage-body', why: /buffer length 2147483647 exceeds/ },
  { misbehaviour: 'out-of-order', why: /reply xid \d+ while xid \d+ was next/ },
  { misbehaviour: 'huge-length', why: /frame length: 2147483647 is outside/ },
  { misbehaviour: 'stall-mid-frame', why: /no answer from the server .*read timeout/ },
];

describe('ProtocolHandle against a misbehaving server', () => {
  for (const { misbehaviour, why } of cases) {
    it(`${misbehaviour}: connection dropped, both requests in flight fail with ${misbehaviour === 'stall-mid-frame' ? 'OPERATIONTIMEOUT' : 'CONNECTIONLOSS'}, the same session resumes on the other server`, async () => {
      const [bad, good, sessions] = await startFakes(misbehaviour);
      const { handle, events } = openHandle([bad, good]);
      await waitFor(() => events.length === 1, { timeoutMs: BOUND_MS, message: 'first connection' });
      const sessionId = handle.sessionId;
      assert.deepEqual(events, [`connected ${sessionId}`]);
      assert.equal(bad.handshakes.length, 1, 'the first server was dialed first');
      const zxidBefore = sessions.zxid;

      const errors = await Promise.all([failure(handle.getData('/a'), 'first request'), failure(handle.exists('/b'), 'second request')]);
      for (const error of errors) {
        // A connection given up for silence fails its requests as the C client does (OPERATIONTIMEOUT).
        assert.equal(error.zkCode, misbehaviour === 'stall-mid-frame' ? 'OPERATIONTIMEOUT' : 'CONNECTIONLOSS', error.message);
        assert.ok(error.isConnectionError);
      }
      assert.match(errors.map((e) => e.message).join('\n'), why);
      assert.ok(bad.requests.length >= 1 && bad.requests.length <= 2, `${bad.requests.length} requests reached the misbehaving server`);

      await waitFor(() => events.length === 3, { timeoutMs: BOUND_MS, message: 'reconnection' });
      assert.deepEqual(events, [`connected ${sessionId}`, 'connecting', `connected ${sessionId}`]);
      assert.equal(good.handshakes.length, 1);
      const [resume] = good.handshakes;
      assert.equal(resume!.sessionId, BigInt(`0x${sessionId}`), 'resume carries the session id');
      assert.ok(resume!.password.equals(sessions.passwords.get(resume!.sessionId)!), 'resume carries the password');
      // No reply was matched, so lastZxid stayed 0; except that a garbled body's header (right xid) counts, as in Java's ClientCnxn.
      assert.equal(resume!.lastZxidSeen, misbehaviour === 'garbage-body' ? zxidBefore + 1n : 0n);
      if (misbehaviour === 'stall-mid-frame') assert.ok(bad.pingsIgnored >= 1, 'the client pinged the stalled server before giving it up');
      assert.equal(bad.handshakes.length, 1, 'the misbehaving server was not dialed again');

      const reply = await withTimeout(handle.getData('/a'), BOUND_MS, 'request on the second server');
      assert.equal(reply.data.toString(), 'fake');
      assert.equal(good.requests.length, 1);
      handle.close();
      await waitFor(() => events.at(-1) === 'closed 0', { timeoutMs: BOUND_MS, message: 'closed' });
      assert.deepEqual(good.requests.map((r) => r.opCode), [4, -11], 'getData, then closeSession');
    });
  }

  it('a request asked from onConnecting waits for the next server and is answered there, costing no further connection', async () => {
    const [bad, good] = await startFakes('hang-up');
    let queued: Promise<unknown> | undefined;
    const { handle, events } = openHandle([bad, good], (h) => (queued ??= h.getData('/queued')));
    await waitFor(() => events.length === 1, { timeoutMs: BOUND_MS, message: 'first connection' });
    assert.equal((await failure(handle.getData('/a'), 'request in flight')).zkCode, 'CONNECTIONLOSS');
    const reply = (await withTimeout(queued!, BOUND_MS, 'queued request')) as { data: Buffer };
    assert.equal(reply.data.toString(), 'fake');
    await withTimeout(handle.getData('/b'), BOUND_MS, 'a later request');
    assert.deepEqual(events, [`connected ${handle.sessionId}`, 'connecting', `connected ${handle.sessionId}`]);
    assert.deepEqual(good.requests.map((r) => r.opCode), [4, 4]);
  });

  it('a garbled ConnectResponse costs that server only: the attempt fails with the protocol error and the next server makes the session', async () => {
    const [bad, good, sessions] = await startFakes('garbage-handshake');
    const failed: string[] = [];
    const events: string[] = [];
    const handle: ProtocolHandle = new ProtocolHandle(
      { connectString: `${bad.hostPort},${good.hostPort}`, sessionTimeoutMs: SESSION_TIMEOUT_MS, random: () => 0.999 },
      {
        onConnected: () => events.push(`connected ${handle.sessionId}`),
        onConnecting: () => events.push('connecting'),
        onClosed: (code) => events.push(`closed ${code}`),
        onAttemptFailed: (server, reason) => failed.push(`${server} ${reason.constructor.name}: ${reason.message}`),
      },
    );
    opened.push(handle);
    await waitFor(() => events.length === 1, { timeoutMs: BOUND_MS, message: 'connection through the second server' });
    assert.equal(failed.length, 1, failed.join('\n'));
    assert.match(failed[0]!, new RegExp(`^${bad.hostPort} ZooKeeperProtocolError: Malformed ZooKeeper connect response: truncated`));
    assert.deepEqual([bad.handshakes.length, good.handshakes.length, good.handshakes[0]!.sessionId], [1, 1, 0n], 'a new session, asked of the second server');
    assert.deepEqual(events, [`connected ${handle.sessionId}`]);
    assert.ok(sessions.passwords.has(BigInt(`0x${handle.sessionId}`)));
  });

  it('a resume answered with timeOut 0 closes the handle as expired (-112) and fails the queued request with SESSIONEXPIRED', async () => {
    const [bad, stranger] = await startFakes('hang-up', false);
    let queued: Promise<ZooKeeperError> | undefined;
    // Asked while the session is between servers: it waits in the outbox for the next handshake.
    const { handle, events } = openHandle([bad, stranger], (h) => (queued ??= failure(h.getData('/queued'), 'queued request')));
    await waitFor(() => events.length === 1, { timeoutMs: BOUND_MS, message: 'first connection' });
    const sessionId = handle.sessionId;

    const lost = await failure(handle.getData('/a'), 'request in flight');
    assert.equal(lost.zkCode, 'CONNECTIONLOSS');
    await waitFor(() => events.length === 3, { timeoutMs: BOUND_MS, message: 'expiry' });
    assert.deepEqual(events, [`connected ${sessionId}`, 'connecting', 'closed -112']);
    const expired = await queued!;
    assert.equal(expired.zkCode, 'SESSIONEXPIRED', expired.message);
    assert.ok(expired.isSessionGone);
    assert.deepEqual(stranger.answeredTimeouts, [0]);
    assert.equal(stranger.handshakes[0]!.sessionId, BigInt(`0x${sessionId}`));
    assert.equal(stranger.requests.length, 0, 'nothing was sent on the expired session');
    assert.ok(handle.isClosed);
    assert.equal((await failure(handle.getData('/after'), 'request after expiry')).zkCode, 'INVALIDSTATE');
  });

  it('a request over 1 MiB is refused with RecordTooLargeError before a byte of it is sent; one at the limit goes', async () => {
    const [server] = await startFakes(undefined);
    const { handle, events } = openHandle([server]);
    // Asked before the handshake: it waits in the outbox, and is refused there too.
    const early = handle.setData('/early', Buffer.alloc(1024 * 1024), -1).catch((error: unknown) => error);
    await waitFor(() => events.length === 1, { timeoutMs: BOUND_MS, message: 'connection' });
    assert.ok((await withTimeout(early, BOUND_MS)) instanceof RecordTooLargeError);
    await assert.rejects(handle.setData('/big', Buffer.alloc(1024 * 1024), -1), (error) => error instanceof RecordTooLargeError && error.message.includes('/big'));
    assert.equal(server.requests.length, 0, 'nothing of either large request reached the server');

    // xid, opCode, path ('/max': 4 + 4 bytes), data length, data, version: exactly the server's bound.
    const atLimit = SERVER_MAX_PACKET_BYTES - (4 + 4 + 8 + 4 + 4);
    await withTimeout(handle.setData('/max', Buffer.alloc(atLimit), -1), BOUND_MS, 'setData at the limit');
    await assert.rejects(handle.setData('/max', Buffer.alloc(atLimit + 1), -1), RecordTooLargeError);
    await withTimeout(handle.getData('/a'), BOUND_MS, 'getData after the refusals');
    assert.deepEqual(
      server.requests.map((r) => [r.opCode, r.length]),
      [
        [5, SERVER_MAX_PACKET_BYTES],
        [4, 4 + 4 + 6 + 1],
      ],
      'the server got the request at the limit and the getData, nothing else',
    );
    assert.deepEqual(events, [`connected ${handle.sessionId}`], 'no request cost the connection');
  });
});
