/**
 * The election recipe in one process (each participant with its own ZooKeeper session, on the
 * shared server): isLeader$ semantics, resign/join, named elections, leader$, connection states
 * (through a TcpProxy), expiry. Requests are counted with FaultySession (a wrapper over a real
 * session), never mocked.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { ElectionClosedError } from '../../src/errors/election-closed.error.js';
import { LeadershipLostError } from '../../src/errors/leadership-lost.error.js';
import type { LeaderElection } from '../../src/recipes/election/leader-election.js';
import { sortQueue } from '../../src/recipes/queue/queue-node.js';
import type { SessionStateChange } from '../../src/zookeeper/session-state.js';
import { connectionLoss, FaultySession, type Outcome } from '../support/faulty-session.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { waitFor } from '../support/wait.js';
import { sharedConnect, testRoot } from './election-cluster.js';
import { currentSeq, expireSession, Kit, Recorder } from './election-kit.js';

let kit: Kit | undefined;
let proxy: TcpProxy | undefined;
afterEach(async () => {
  await kit?.dispose();
  await proxy?.close();
  kit = proxy = undefined;
});

const newKit = () => (kit = new Kit(sharedConnect(), testRoot()));

async function startProxy(): Promise<TcpProxy> {
  const [host, port] = sharedConnect().split(',')[0]!.split(':');
  return (proxy = await TcpProxy.start(host!, Number(port)));
}

/** The queue node names of election `e`, in queue order. */
async function queueNodes(k: Kit): Promise<string[]> {
  const admin = await k.session();
  const { children } = await admin.getChildren(`${k.root}/elections/e`);
  return sortQueue(children, 'n').map((node) => `${k.root}/elections/e/${node.name}`);
}

describe('LeaderElection', () => {
  it('isLeader$ replays the current value, emits only on change, and completes on close', async () => {
    const k = newKit();
    const a = k.election(await k.session(), 'A');
    const early = new Recorder(a.isLeader$);
    assert.deepEqual(early.values.map((r) => r.value), [false], 'replays false before joining');
    a.join();
    a.join(); // no-op while participating
    await early.next(true);
    const late = new Recorder(a.isLeader$);
    assert.deepEqual(late.values.map((r) => r.value), [true], 'a late subscriber gets the current value at once');
    assert.equal(a.isLeader, true);

    await a.resign();
    assert.equal(a.isLeader, false);
    a.join();
    await early.next(true, early.values.at(-1)!.seq);
    await a.close();
    assert.deepEqual(early.values.map((r) => r.value), [false, true, false, true, false]);
    assert.equal(early.completed, true, 'completes on close');
    assert.equal(late.completed, true);
    assert.throws(() => a.join(), ElectionClosedError);
  });

  it('resign() hands over to the next in line at once; join() queues up again at the back', async () => {
    const k = newKit();
    const a = k.election(await k.session(), 'A');
    const b = k.election(await k.session(), 'B');
    const c = k.election(await k.session(), 'C');
    const [ra, rb] = [new Recorder(a.isLeader$), new Recorder(b.isLeader$)];
    a.join();
    await ra.next(true);
    b.join();
    await waitFor(async () => (await a.participants()).length === 2, { timeoutMs: 5000 });
    c.join();
    await waitFor(async () => (await a.participants()).length === 3, { timeoutMs: 5000 });
    assert.deepEqual(await c.participants(), ['A', 'B', 'C']);

    const resigned = currentSeq();
    await a.resign();
    const bTrue = await rb.next(true, resigned);
    const aFalse = ra.values.find((r) => r.seq > resigned && r.value === false)!;
    assert.ok(aFalse.seq < bTrue.seq, 'A reported false before B reported true');
    assert.deepEqual(await c.participants(), ['B', 'C']);
    a.join();
    await waitFor(async () => JSON.stringify(await c.participants()) === JSON.stringify(['B', 'C', 'A']), { timeoutMs: 5000, message: 'A at the back' });
    assert.equal(a.isLeader, false);
  });

  it('keeps several named elections per process apart', async () => {
    const k = newKit();
    const [s1, s2] = [await k.session(), await k.session()];
    const reports1 = k.election(s1, 'P1', { name: 'reports' });
    const billing1 = k.election(s1, 'P1', { name: 'billing' });
    const reports2 = k.election(s2, 'P2', { name: 'reports' });
    const billing2 = k.election(s2, 'P2', { name: 'billing' });
    reports1.join();
    await new Recorder(reports1.isLeader$).next(true);
    billing2.join();
    await new Recorder(billing2.isLeader$).next(true);
    reports2.join();
    billing1.join();
    await waitFor(async () => (await reports1.participants()).length === 2 && (await billing1.participants()).length === 2, { timeoutMs: 5000 });
    assert.deepEqual([reports1.isLeader, billing1.isLeader, reports2.isLeader, billing2.isLeader], [true, false, false, true]);
    assert.notEqual(reports1.path, billing1.path);

    await reports1.resign();
    await new Recorder(reports2.isLeader$).next(true);
    assert.equal(billing2.isLeader, true, 'the other election is not affected');
    assert.equal(billing1.isLeader, false);
  });

  /** Elections joined one after another, each queued before the next joins: the first leads. */
  async function queuedInOrder(k: Kit, ...identities: string[]): Promise<LeaderElection[]> {
    const elections: LeaderElection[] = [];
    for (const identity of identities) {
      const election = k.election(await k.session(), identity);
      elections.push(election);
      election.join();
      await waitFor(async () => (await election.participants()).length === elections.length, { timeoutMs: 5000 });
    }
    await new Recorder(elections[0]!.isLeader$).next(true);
    return elections;
  }

  /** B stands right behind the leader, every standby request answered: watches on its own node, the ready record and the leader's node. */
  const standingBy = (session: { readonly watcherCount: number }) => waitFor(() => session.watcherCount === 3, { timeoutMs: 5000, message: 'standing by' });

  /** A leads; B (not joined yet) sends its requests through a counting FaultySession. */
  async function leaderAAndObservedB() {
    const k = newKit();
    const a = k.election(await k.session(), 'A');
    const bSession = await k.session();
    const observed = new FaultySession(bSession);
    const b = k.election(observed, 'B');
    a.join();
    await new Recorder(a.isLeader$).next(true);
    return { k, a, b, observed, bSession };
  }

  it('the successor right behind the leader takes over with no request before it: no listing, and the ready record it kept under a watch', async () => {
    const { k, a, b, observed, bSession } = await leaderAAndObservedB();
    await a.runAsLeader(() => undefined); // a ready znode exists, as in any election with leader work
    b.join();
    await standingBy(bSession);
    // While B stands by, each write of A's to the existing record costs B one read (a getData
    // that sets the next watch), never an exists; two writes close together may share one.
    const watching = observed.sent.length;
    for (let i = 0; i < 3; i++) await a.runAsLeader(() => undefined);
    // A reply on B's session comes after the notifications of every write before it: the last
    // re-read has been sent by then, and is answered once B holds its 3 watches again.
    await bSession.sync(`${k.root}/elections/e/ready`);
    await standingBy(bSession);
    const readyOps = observed.sent.slice(watching).filter((r) => r.path === `${k.root}/elections/e/ready`);
    assert.equal(readyOps.filter((r) => r.op !== 'getData').length, 0, readyOps.map((r) => r.op).join(' '));
    assert.ok(readyOps.length >= 1 && readyOps.length <= 6, `${readyOps.length} reads for 6 writes`);
    const resigned = observed.sent.length;
    const rb = new Recorder(b.isLeader$);
    await a.resign();
    await rb.next(true);
    const ops = observed.sent.slice(resigned).map((r) => `${r.op} ${r.path.slice(k.root.length)}`);
    // Only the write of our token into the ready record (the fence against the previous leader's
    // late section writes). Nothing read, nothing listed, no watch set: the own-node watch B set
    // while queuing goes on serving the new term.
    assert.deepEqual(ops, ['setData /elections/e/ready']);
  });

  it("the standby's ready record follows the leader's writes: the first section ever, failed just before the leader resigned, is repaired by the successor", async () => {
    const k = newKit();
    const a = k.election(await k.session(), 'A');
    const bSession = await k.session();
    const b = k.election(bSession, 'B');
    const repaired: { holder: string; token: bigint }[] = [];
    b.onRecovery((interrupted) => void repaired.push({ holder: interrupted.holder, token: interrupted.token }));
    a.join();
    await new Recorder(a.isLeader$).next(true);
    const aToken = a.token!;
    b.join();
    // B stands by, its read answered: no ready record yet. Had B kept that answer, it would see nothing to repair: a versioned write cannot tell it.
    await standingBy(bSession);
    await assert.rejects(a.runAsLeader(() => Promise.reject(new Error('half-way'))), /half-way/); // created dirty under A's token
    const rb = new Recorder(b.isLeader$);
    await a.resign();
    await rb.next(true);
    assert.deepEqual(repaired, [{ holder: 'A', token: aToken }], 'B repaired what A left dirty, once');
    assert.ok(b.token! > aToken);
  });

  it('a standby whose own node is deleted (by hand) does not lead when the leader leaves; it queues again at the back', async () => {
    const k = newKit();
    const [a, b, c] = await queuedInOrder(k, 'A', 'B', 'C');
    const rb = new Recorder(b.isLeader$);
    const rc = new Recorder(c.isLeader$);
    const [, bNode] = await queueNodes(k);
    await (await k.session()).delete(bNode!);
    // B queues again behind C (its node's watch told it); C now stands by behind A.
    await waitFor(async () => (await a.participants()).join() === 'A,C,B', { timeoutMs: 5000 });
    await a.resign();
    await rc.next(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(rb.values.map((r) => r.value), [false], 'B never led');
    assert.equal(c.isLeader, true);
  });

  it("a leader whose node is deleted (by hand) stops leading at once and queues again: the watch its queue set on that node tells it", async () => {
    const k = newKit();
    // A leads from its first look, B by a standby grant: each term relies on the queue's own-node watch.
    const [a, b] = await queuedInOrder(k, 'A', 'B');
    const ra = new Recorder(a.isLeader$);
    const rb = new Recorder(b.isLeader$);
    const admin = await k.session();
    await admin.delete((await queueNodes(k))[0]!);
    await rb.next(true);
    await ra.next(false);
    await waitFor(async () => (await b.participants()).join() === 'B,A', { timeoutMs: 5000, message: 'A queues again behind B' });
    assert.equal(a.isLeader, false);
    await admin.delete((await queueNodes(k))[0]!);
    await rb.next(false);
    await ra.next(true);
    await waitFor(async () => (await a.participants()).join() === 'A,B', { timeoutMs: 5000, message: 'B queues again behind A' });
  });

  it('a standby disconnected while the leader left lists the queue before it leads (watches fired on reconnection come in no order)', async () => {
    const k = newKit();
    const p = await startProxy();
    const a = k.election(await k.session(), 'A');
    const bSession = await k.session(p.connectString, 4000);
    const observed = new FaultySession(bSession);
    const b = k.election(observed, 'B');
    const states = new Recorder<SessionStateChange>(bSession.state$);
    a.join();
    await new Recorder(a.isLeader$).next(true);
    b.join();
    await standingBy(bSession);
    let sentWhenLeading = -1;
    b.isLeader$.subscribe((leading) => void (leading && sentWhenLeading < 0 && (sentWhenLeading = observed.sent.length)));
    const cutAt = currentSeq();
    p.cut();
    await waitFor(() => states.values.find((r) => r.seq > cutAt && r.value.state === 'suspended'), { timeoutMs: 6000 });
    await a.resign(); // A's node goes while B cannot hear of it
    const restoredAt = observed.sent.length;
    p.restore();
    await waitFor(() => sentWhenLeading >= 0, { timeoutMs: 6000, message: 'B leads' });
    const ops = observed.sent.slice(restoredAt, sentWhenLeading).map((r) => `${r.op} ${r.path.slice(k.root.length)}`);
    assert.ok(ops.includes('getChildren /elections/e'), `B listed the queue before leading (${ops.join(', ')})`);
    assert.deepEqual(states.values.filter((r) => r.seq > cutAt).map((r) => r.value.state).slice(-1), ['reconnected'], 'the same session');
  });

  it('a standby that looks at the queue again keeps its one watch on the ready record: watches do not pile up', async () => {
    const { k, b, observed, bSession } = await leaderAAndObservedB();
    b.join();
    await standingBy(bSession);
    const [aNode] = await queueNodes(k);
    const admin = await k.session();
    for (let i = 1; i <= 5; i++) {
      const listed = observed.count('getChildren');
      await admin.setData(aNode!, Buffer.from(`A${i}`), -1); // fires B's watch on A's node: B looks again
      await waitFor(() => observed.count('getChildren') > listed && bSession.watcherCount === 3, { timeoutMs: 5000, message: `look ${i}` });
    }
    assert.equal(bSession.watcherCount, 3, "B's own node, the ready record, A's node");
    assert.equal(observed.count('exists'), 2, 'one exists for its own node, one for the ready record, ever');
  });

  it('a look whose listing and own-node read both fail leaves no unhandled rejection, and the next look stands by', async () => {
    const { k, b, observed } = await leaderAAndObservedB();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      observed.after('getChildren', (request): Outcome => ({ ok: false, error: connectionLoss('getChildren', request.path) }), 1);
      observed.after('exists', (request): Outcome => ({ ok: false, error: connectionLoss('exists', request.path) }), 1);
      b.join();
      const [aNode] = await queueNodes(k);
      await waitFor(() => observed.sent.some((r) => r.op === 'getData' && r.path === aNode), { timeoutMs: 5000, message: "B watches A's node" });
      await new Promise((resolve) => setTimeout(resolve, 50)); // an unhandled rejection is reported after the microtasks
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it("the leader's token is the czxid of its queue node, and a successor's is larger", async () => {
    const k = newKit();
    const [a, b] = await queuedInOrder(k, 'A', 'B');
    const admin = await k.session();
    const [aNode, bNode] = await queueNodes(k);
    assert.equal(a.token, (await admin.exists(aNode!))!.czxid);
    await a.resign();
    await new Recorder(b.isLeader$).next(true);
    assert.equal(b.token, (await admin.exists(bNode!))!.czxid);
  });

  it('leader$ follows the head of the queue; a change of leader costs an observer 2 requests, a follower joining behind costs nothing', async () => {
    const { k, a, b, observed } = await leaderAAndObservedB();
    b.join();
    const leaders = new Recorder(b.leader$);
    await leaders.next('A');
    const c = k.election(await k.session(), 'C');
    await waitFor(async () => (await a.participants()).length === 2, { timeoutMs: 5000 });
    const before = observed.sent.length;
    c.join();
    await waitFor(async () => (await a.participants()).length === 3, { timeoutMs: 5000 });
    assert.equal(observed.sent.length, before, 'B sent nothing when C queued behind it');

    const resigned = observed.sent.length;
    await a.resign();
    await leaders.next('B');
    await waitFor(() => observed.count('getData', resigned) >= 1, { timeoutMs: 2000 });
    // B's own leadership path reads its node (and the queue does not list: B stood by right
    // behind A); count leader$'s share only.
    const listings = observed.sent.slice(resigned).filter((r) => r.op === 'getChildren');
    assert.equal(listings.length, 1, `one listing, by leader$ (${observed.sent.slice(resigned).map((r) => r.op).join(' ')})`);
    assert.deepEqual(leaders.values.map((r) => r.value), ['A', 'B']);
    await b.resign();
    await leaders.next('C');
  });

  /** A leads through a TcpProxy, on a counting FaultySession. 4 s sessions: a cut healed within a second or two never expires it. */
  async function leaderBehindProxy() {
    const k = newKit();
    const p = await startProxy();
    const session = new FaultySession(await k.session(p.connectString, 4000));
    const a = k.election(session, 'A');
    const leading = new Recorder(a.isLeader$);
    // Subscribed before the election: a state change is recorded before the election's reaction.
    const states = new Recorder<SessionStateChange>(session.state$);
    a.join();
    const led = await leading.next(true);
    return { k, p, session, a, leading, led, states };
  }

  it('reports false as soon as the connection is suspended (policy immediate), and true again after reconnection only once its node is confirmed ours', async () => {
    const { k, p, session, a, leading, states } = await leaderBehindProxy();
    const [node] = await queueNodes(k);

    const cutAt = currentSeq();
    p.cut();
    const suspended = await waitFor(() => states.values.find((r) => r.seq > cutAt && r.value.state === 'suspended'), { timeoutMs: 6000 });
    const lostLeadership = await leading.next(false, cutAt);
    assert.ok(lostLeadership.seq === suspended.seq + 1, 'false right at the suspension');
    assert.equal(a.isLeader, false);

    const sentBefore = session.sent.length;
    p.restore();
    const reconnected = await waitFor(() => states.values.find((r) => r.seq > cutAt && r.value.state === 'reconnected'), { timeoutMs: 6000 });
    const again = await leading.next(true, reconnected.seq);
    const checks = session.sent.slice(sentBefore).filter((r) => r.op === 'getData' && r.path === node);
    assert.equal(checks.length, 1, 'one read of our own node (exists + ephemeralOwner + watch) before reporting true');
    assert.ok(again.seq > reconnected.seq);
    assert.deepEqual(await queueNodes(k), [node], 'same node, same place: the session survived');
  });

  it('a leader section whose leadership ended while it was entering (connection dropped) does not start: the tenure\'s end stops its entry', async () => {
    const { p, session, a, leading, led } = await leaderBehindProxy();
    // The section's first read of the ready znode: the network goes, leadership is reported
    // false (policy immediate), and the read itself is lost.
    let stopped = led;
    session.before('getData', async (request) => {
      p.cut();
      stopped = await leading.next(false, led.seq);
      throw connectionLoss('getData', request.path);
    }, 1);
    let ran = false;
    const section = a.runAsLeader(() => void (ran = true));
    await waitFor(() => session.state === 'suspended', { timeoutMs: 6000, message: 'suspended' });
    p.restore(); // well within the session timeout: the same session comes back
    // The tenure's signal ends the entry's retry (SectionOwner.signal) or, had the entry finished
    // first, the check after it: either way the section ends with LeadershipLostError unstarted.
    await assert.rejects(section, LeadershipLostError);
    assert.equal(ran, false, 'the work did not start');
    await leading.next(true, stopped.seq); // leading again, under a new tenure
  });

  it('after reconnection, joins again instead of leading when its node is gone', async () => {
    const k = newKit();
    const p = await startProxy();
    const session = await k.session(p.connectString, 4000);
    const a = k.election(session, 'A');
    const leading = new Recorder(a.isLeader$);
    a.join();
    await leading.next(true);
    const firstToken = a.token!;
    const [node] = await queueNodes(k);

    const cutAt = currentSeq();
    p.cut();
    await leading.next(false, cutAt);
    const admin = await k.session();
    await admin.delete(node!); // deleted by hand while A cannot see it
    p.restore();
    await leading.next(true, cutAt);
    const [newNode] = await queueNodes(k);
    assert.notEqual(newNode, node, 'led again only with a new node');
    assert.ok(a.token! > firstToken, 'with a new, larger token');
  });

  it('after its session expired, joins again with the new session at the back of the queue', async () => {
    const k = newKit();
    const aSession = await k.session();
    const a = k.election(aSession, 'A');
    const b = k.election(await k.session(), 'B');
    const [ra, rb] = [new Recorder(a.isLeader$), new Recorder(b.isLeader$)];
    a.join();
    await ra.next(true);
    b.join();
    await waitFor(async () => (await b.participants()).length === 2, { timeoutMs: 5000 });
    const oldSession = aSession.sessionId;
    const states = new Recorder<SessionStateChange>(aSession.state$);

    await expireSession(k.connect, aSession);
    assert.ok(states.values.some((r) => r.value.state === 'expired'));
    // B may lead before A hears of its expiry (the server tells A only when it reconnects), but
    // never while A still reports leadership: A reported false when its connection was taken.
    const bTrue = await rb.next(true);
    const aBefore = ra.values.filter((r) => r.seq < bTrue.seq).at(-1)!;
    assert.equal(aBefore.value, false, 'A reported false before B reported true');
    await waitFor(async () => JSON.stringify(await b.participants()) === JSON.stringify(['B', 'A']), { timeoutMs: 10_000, message: 'A re-joined at the back' });
    assert.notEqual(aSession.sessionId, oldSession);
    assert.equal(a.isParticipating, true);
    assert.equal(ra.values.filter((r) => r.seq > bTrue.seq && r.value === true).length, 0, 'A did not lead again');
  });
});
