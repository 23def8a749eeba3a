/**
 * The simulated sockets of the TypeScript client (issue 30): `ProtocolHandle` dials the ensemble
 * through `ensemble.dialer`, and the frame server behind each link answers jute frames as a
 * server does: handshakes (a new session, a resume, a resume of an expired session, a member
 * behind the client's last zxid), requests, watches set again after a reconnection, auth packets.
 * No recipe involved; time is the simulator's (`installVirtualRuntime`).
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { ProtocolHandle } from '../../src/zookeeper/protocol/protocol-handle.js';
import { SimScheduler } from '../../src/zookeeper/simulated/sim-scheduler.js';
import { SimulatedEnsemble } from '../../src/zookeeper/simulated/simulated-ensemble.js';
import { installVirtualRuntime } from '../../src/zookeeper/simulated/virtual-runtime.js';

const TIMEOUT = 4000;
let uninstall: (() => void) | undefined;

afterEach(() => {
  uninstall?.();
  uninstall = undefined;
});

/** An ensemble of `serverIds` and one `ProtocolHandle` on it, opened as the actor `client`. */
async function connected(serverIds: number[]) {
  const scheduler = new SimScheduler(30);
  uninstall = installVirtualRuntime(scheduler);
  const ensemble = new SimulatedEnsemble(scheduler, { serverIds });
  const seen = { connected: 0, connecting: 0, closed: undefined as number | undefined, failures: [] as string[] };
  let handle!: ProtocolHandle;
  const events = {
    onConnected: () => seen.connected++,
    onConnecting: () => seen.connecting++,
    onClosed: (code: number) => (seen.closed = code),
    onAttemptFailed: (_server: string, reason: Error) => seen.failures.push(reason.message),
  };
  scheduler.schedule(0, () => (handle = new ProtocolHandle({ connectString: ensemble.connectString, sessionTimeoutMs: TIMEOUT, dialer: ensemble.dialer }, events)), 'open', 'client');
  await scheduler.run({ untilMs: 1000, done: () => seen.connected > 0 });
  assert.equal(seen.connected, 1, 'connected');
  /** Runs the simulation until `promise` settles (bounded), then hands it back. */
  const settle = async <T>(promise: Promise<T>, ms = 5000): Promise<T> => {
    let settled = false;
    promise.then(() => (settled = true), () => (settled = true));
    await scheduler.run({ untilMs: scheduler.now + ms, done: () => settled });
    assert.ok(settled, `settled within ${ms} ms`);
    return promise;
  };
  const runFor = (ms: number) => scheduler.run({ untilMs: scheduler.now + ms });
  const cut = () => {
    for (const connection of ensemble.connectionsOf('client')) connection.close('test: connection cut');
  };
  return { scheduler, ensemble, handle: () => handle, seen, settle, runFor, cut };
}

describe('simulated links of the TypeScript client', () => {
  it('answer requests with the bodies the client reads: create2 with its stat, getData, getChildren2, setData', async () => {
    const { handle, settle } = await connected([1, 2, 3]);
    const created = await settle(handle().create2('/a', Buffer.from('x'), 'persistent'));
    assert.equal(created.path, '/a');
    assert.equal(created.stat.version, 0);
    assert.ok(created.stat.czxid > 0n);
    const sequential = await settle(handle().create('/a/n-', null, 'ephemeral_sequential'));
    assert.match(sequential, /^\/a\/n-\d{10}$/);
    const { data, stat } = await settle(handle().getData('/a'));
    assert.equal(data.toString(), 'x');
    assert.equal(stat.numChildren, 1);
    assert.deepEqual((await settle(handle().getChildren('/a'))).children, [sequential.slice(3)]);
    assert.equal((await settle(handle().setData('/a', Buffer.from('y'), 0))).version, 1);
    await assert.rejects(settle(handle().setData('/a', Buffer.from('z'), 0)), /BADVERSION/);
  });

  it('tell the client of a connection the server closed before the handshake was answered', async () => {
    const { seen, runFor, cut, ensemble, scheduler, handle } = await connected([1]);
    const session = handle().sessionId;
    cut();
    // The reconnection's connection exists at the server, its answer not yet on the way: close it then.
    await scheduler.run({ untilMs: scheduler.now + 1000, done: () => seen.connecting > 0 && ensemble.connectionsOf('client').length > 0 });
    assert.equal(seen.connected, 1, 'the handshake is still unanswered');
    cut();
    // A client that heard of the close dials again after its back-off (up to 1 s once every server
    // was tried); one that did not waits for its connect timeout, the whole session timeout with
    // one server, and the session expires meanwhile.
    await runFor(TIMEOUT / 2);
    assert.equal(seen.connected, 2, `reconnected within half the session timeout (attempts failed: ${seen.failures.join('; ')})`);
    assert.equal(seen.closed, undefined);
    assert.equal(handle().sessionId, session);
  });

  it('resume a session of server 255 (its id has the top bit set) after the connection drops', async () => {
    const { handle, seen, settle, runFor, cut, ensemble } = await connected([255]);
    const session = handle().sessionId;
    assert.match(session, /^ff/);
    cut();
    await runFor(1000);
    assert.equal(seen.closed, undefined, 'not told the session expired');
    assert.equal(seen.connected, 2, 'reconnected');
    assert.equal(handle().sessionId, session);
    assert.ok(ensemble.liveSessions().includes(session));
    await settle(handle().exists('/'));
  });

  it('answer the resume of an expired session with timeout 0, then close: the handle ends with SESSIONEXPIRED', async () => {
    const { handle, seen, runFor, ensemble, scheduler } = await connected([1, 2, 3]);
    ensemble.partition('client', 3 * TIMEOUT);
    await scheduler.run({ untilMs: scheduler.now + 4 * TIMEOUT, done: () => seen.closed !== undefined });
    assert.ok(!ensemble.liveSessions().includes(handle().sessionId), 'the leader expired it');
    await runFor(100);
    assert.equal(seen.closed, -112);
  });

  it('re-arm watches after a reconnection, firing those whose node changed meanwhile (setWatches)', async () => {
    const { handle, settle, runFor, cut, ensemble } = await connected([1, 2, 3]);
    await settle(handle().create('/w', Buffer.from('1')));
    await settle(handle().create('/kept', Buffer.from('1')));
    const events: string[] = [];
    await settle(handle().getData('/w', (event) => events.push(`${event.type} ${event.path}`)));
    await settle(handle().getData('/kept', (event) => events.push(`${event.type} ${event.path}`)));
    cut();
    const operator = ensemble.operatorSession();
    assert.equal(ensemble.operatorWrite(operator, { op: 'setData', path: '/w', data: Buffer.from('2'), version: -1 }).rc, 0);
    await runFor(1000);
    assert.deepEqual(events, ['changed /w'], 'the change made while disconnected fired on reconnection');
    assert.ok(ensemble.isWatched('/kept'), 'the unchanged node is watched again');
    assert.equal(ensemble.operatorWrite(operator, { op: 'delete', path: '/kept', version: -1 }).rc, 0);
    await runFor(100);
    assert.deepEqual(events, ['changed /w', 'deleted /kept']);
  });

  it('close the connection without answering when the server is behind the last zxid the client saw', async () => {
    const { handle, seen, settle, runFor, cut, ensemble } = await connected([1]);
    await settle(handle().create('/z', null));
    ensemble.wipe(); // the data directory is gone: zxids start over
    cut();
    await runFor(2000);
    assert.equal(seen.connected, 1, 'never accepted again');
    assert.ok(seen.failures.some((reason) => reason.includes('without answering the handshake')), seen.failures.join('; '));
  });

  it('answer digest auth packets, and an unknown scheme with AUTHFAILED, which ends the session', async () => {
    const { handle, seen, settle, runFor } = await connected([1, 2, 3]);
    await settle(handle().addAuth('digest', 'alice:secret'));
    await assert.rejects(settle(handle().addAuth('nosuchscheme', 'x')), /AUTHFAILED/);
    await runFor(100);
    assert.equal(seen.closed, -113);
  });
});
