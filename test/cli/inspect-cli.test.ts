/**
 * `nestjs-zk-lock inspect`, run as a child process from build/src/cli/main.js against the shared
 * server: a lock held by one session with two waiters from two other sessions, its ready znode
 * dirty with a checkpoint (the holder is mid-section), and an election with three participants
 * whose leader is mid-section too. The JSON and the text show holder and waiters (leader and
 * followers) in queue order with their identities and sessions, the ready records with their
 * checkpoints; a name filters; bad usage exits 2; a dead address exits 1 within its bound.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import type { InspectedLock, InspectedElection, Inspection } from '../../src/cli/inspect.js';
import { LockClient } from '../../src/recipes/lock/lock-client.js';
import type { Lease } from '../../src/recipes/lock/lease.js';
import { LeaderElection } from '../../src/recipes/election/leader-election.js';
import type { GuardedSection } from '../../src/recipes/ready/guarded-section.js';
import { ReadyState } from '../../src/recipes/ready/ready-state.js';
import type { ZkSession } from '../../src/zookeeper/supervised-session.js';
import { firstHostPort, randomRoot, SessionPool, sharedConnectString } from '../fixtures/session-helpers.js';
import { waitFor, withTimeout } from '../support/wait.js';
import { freePorts } from '../support/zk-server.js';
import { importGraph } from '../support/import-graph.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { CLI_MAIN, runCli, startCli } from './cli-runner.js';

const HOLDERS = ['billing-a:101', 'billing-b:102', 'billing-c:103'];
const LEADERS = ['sched-1:201', 'sched-2:202', 'sched-3:203'];

describe('nestjs-zk-lock inspect', () => {
  const pool = new SessionPool();
  const root = randomRoot();
  const elections: LeaderElection[] = [];
  const waiting = new AbortController();
  let sessions: ZkSession[];
  let lease: Lease;
  let section: GuardedSection;
  let leaderToken: bigint;
  let endLeaderSection!: () => void;
  let leaderSection: Promise<unknown>;

  before(async () => {
    sessions = await Promise.all(HOLDERS.map(() => pool.open({ sessionTimeoutMs: 4000 })));
    const locks = sessions.map((session, i) => new LockClient(session, { root, identity: HOLDERS[i] }));
    const dir = locks[0]!.pathOf('invoice:42');
    lease = await locks[0]!.acquire('invoice:42');
    section = await new ReadyState(sessions[0]!, dir).enter({ token: lease.fencingToken, holder: HOLDERS[0]! }, undefined);
    await section.checkpoint({ done: 17 });
    // Two waiters, queued one after the other so that their order is known.
    for (const i of [1, 2]) {
      void locks[i]!.acquire('invoice:42', { signal: waiting.signal }).catch(() => undefined);
      await waitFor(async () => (await sessions[0]!.getChildren(dir)).children.length === i + 2, { message: `waiter ${i} queued` });
    }
    // Another lock, so that the name filter has something to leave out.
    await locks[1]!.acquire('other');

    for (const [i, identity] of LEADERS.entries()) {
      const election = new LeaderElection(sessions[i]!, { root, name: 'scheduler', identity, drainTimeoutMs: 1000 });
      elections.push(election);
      election.join();
      await waitFor(async () => (await election.participants()).length === i + 1, { message: `${identity} queued` });
    }
    await waitFor(() => elections[0]!.isLeader, { message: 'first participant leads' });
    const blocker = new Promise<void>((resolve) => (endLeaderSection = resolve));
    let checkpointed!: () => void;
    const written = new Promise<void>((resolve) => (checkpointed = resolve));
    leaderSection = elections[0]!.runAsLeader(async (leader) => {
      leaderToken = leader.token;
      await leader.checkpoint({ shard: 3 });
      checkpointed();
      await blocker;
    });
    await withTimeout(written, 5000, 'leader checkpoint written');
  });

  let proxy: TcpProxy | undefined;
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
  });

  after(async () => {
    endLeaderSection?.();
    await leaderSection?.catch(() => undefined);
    waiting.abort();
    await Promise.allSettled(elections.map((election) => withTimeout(election.close(), 5000, 'election close')));
    pool.closeAll();
  });

  const connect = () => ['--connect', sharedConnectString(), '--root', root];

  it('prints every lock and election as one JSON document', async () => {
    const run = await runCli(['inspect', ...connect(), '--json']);
    assert.equal(run.code, 0, run.stderr);
    const inspection = JSON.parse(run.stdout) as Inspection;
    assert.equal(inspection.version, 2);
    assert.equal(inspection.root, root);
    assert.deepEqual(inspection.locks.map((lock) => lock.name), ['invoice:42', 'other']);

    const lock = inspection.locks[0]!;
    assert.equal(lock.path, `${root}/locks/invoice:42`);
    assert.deepEqual(queueOf(lock).map((node) => node.identity), HOLDERS, 'holder, then waiters in queue order');
    assert.deepEqual(queueOf(lock).map((node) => node.sessionId), sessions.map((session) => session.sessionId));
    assert.equal(`${lock.path}/${lock.holder!.node}`, lease.path);
    assertAscending(queueOf(lock).map((node) => node.sequence));
    assert.ok(BigInt(lock.holder!.zxid) <= lease.fencingToken, 'the node zxid bounds the fencing token from below');
    assert.deepEqual(withoutSince(lock.ready), { state: 'dirty', token: lease.fencingToken.toString(), holder: HOLDERS[0], checkpoint: { done: 17 } });

    assert.deepEqual(inspection.elections.map((election) => election.name), ['scheduler']);
    const election = inspection.elections[0]!;
    assert.deepEqual(queueOf(election).map((node) => node.identity), LEADERS, 'leader, then followers in succession order');
    assert.deepEqual(queueOf(election).map((node) => node.sessionId), sessions.map((session) => session.sessionId));
    assertAscending(queueOf(election).map((node) => node.sequence));
    assert.deepEqual(withoutSince(election.ready), { state: 'dirty', token: leaderToken.toString(), holder: LEADERS[0], checkpoint: { shard: 3 } });
  });

  it('prints the same as text, in queue order', async () => {
    const run = await runCli(['inspect', ...connect()]);
    assert.equal(run.code, 0, run.stderr);
    const text = run.stdout;
    assert.match(text, /invoice:42: held by billing-a:101, 2 waiters/);
    assert.match(text, /scheduler: led by sched-1:201, 2 followers/);
    assert.match(text, /other: held by billing-b:102, 0 waiters/);
    const rows = (identity: string) => text.split('\n').filter((line) => line.includes(` ${identity} `));
    for (const [i, identity] of HOLDERS.entries()) {
      const [row] = rows(identity);
      assert.match(row!, new RegExp(`^  ${i}  ${i === 0 ? 'holder' : 'waiter'} +${identity} +0x${sessions[i]!.sessionId} `));
    }
    for (const [i, identity] of LEADERS.entries()) {
      assert.match(rows(identity)[0]!, new RegExp(`^  ${i}  ${i === 0 ? 'leader  ' : 'follower'} +${identity} +0x${sessions[i]!.sessionId} `));
    }
    assert.ok(text.indexOf(HOLDERS[0]!) < text.indexOf(HOLDERS[1]!) && text.indexOf(HOLDERS[1]!) < text.indexOf(HOLDERS[2]!));
    assert.match(text, new RegExp(`ready: DIRTY  token ${lease.fencingToken}  holder billing-a:101  since .*checkpoint \\{"done":17\\}`));
    assert.match(text, new RegExp(`ready: DIRTY  token ${leaderToken}  holder sched-1:201  since .*checkpoint \\{"shard":3\\}`));
  });

  it('says who the server knows the CLI\'s session as (whoAmI), so that --auth can be seen to take effect', async () => {
    const text = await runCli(['inspect', ...connect(), '--auth', 'digest:operator:secret']);
    assert.equal(text.code, 0, text.stderr);
    const header = text.stdout.split('\n')[0]!;
    assert.match(header, / as .*digest:operator/);
    assert.match(header, / as .*ip:127\.0\.0\.1/);
    const json = await runCli(['inspect', ...connect(), '--auth', 'digest:operator:secret', '--json']);
    const { identities } = JSON.parse(json.stdout) as { identities: { scheme: string; user: string }[] };
    assert.deepEqual(identities.find(({ scheme }) => scheme === 'digest'), { scheme: 'digest', user: 'operator' });
  });

  it('shows only the lock and the election of a given name', async () => {
    const byElection = JSON.parse((await runCli(['inspect', ...connect(), 'scheduler', '--json'])).stdout) as Inspection;
    assert.deepEqual(byElection.locks, []);
    assert.deepEqual(byElection.elections.map((election) => election.name), ['scheduler']);
    const byLock = JSON.parse((await runCli(['inspect', ...connect(), '--json', 'invoice:42'])).stdout) as Inspection;
    assert.deepEqual(byLock.locks.map((lock) => lock.name), ['invoice:42']);
    assert.deepEqual(byLock.elections, []);
    assert.equal(byLock.locks[0]!.waiters.length, 2);
  });

  it('redraws with --watch until interrupted, says so while disconnected, then exits 0', async () => {
    const { host, port } = firstHostPort(sharedConnectString());
    proxy = await TcpProxy.start(host, port);
    const cli = startCli(['inspect', '--connect', proxy.connectString, '--root', root, 'other', '--json', '--watch', '--interval', '100'], 20_000);
    const frames = () => cli.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Inspection);
    await waitFor(() => frames().length >= 2, { message: 'two readings' });
    // The server "goes down": the CLI reports it on stderr instead of showing a stale reading.
    proxy.refuse(true);
    proxy.reset();
    await waitFor(() => cli.stderr.includes('not connected to ZooKeeper'), { message: 'disconnection reported' });
    const before = frames().length;
    proxy.refuse(false);
    await waitFor(() => frames().length >= before + 2, { timeoutMs: 15_000, message: 'readings after reconnection' });
    cli.interrupt();
    const result = await cli.exited;
    assert.equal(result.code, 0, result.stderr);
    for (const frame of frames()) assert.equal(frame.locks[0]!.holder!.identity, HOLDERS[1]);
  });

  it('loads no Nest package (the CLI and inspect() work without Nest)', () => {
    const { files, packages } = importGraph(CLI_MAIN);
    assert.ok(files.size > 10 && packages.has('node:util'), `the walk found the imports (${files.size} files)`);
    const nest = [...packages].filter((name) => name.startsWith('@nestjs/') || name === 'reflect-metadata');
    assert.deepEqual(nest, []);
  });

  it('exits 2 on bad usage, naming the problem', async () => {
    const cases: [string[], RegExp][] = [
      [['inspect'], /--connect is required/],
      [['inspect', '--connect', sharedConnectString(), '--bogus'], /Unknown option '--bogus'/],
      [['inspect', '--connect', sharedConnectString(), 'a/b'], /name "a\/b": must not contain "\/"/],
      [['inspect', '--connect', 'no-port'], /--connect: "no-port" is not host:port/],
      [['inspect', '--connect', sharedConnectString(), '--watch', '--interval', '5'], /--interval: expected whole milliseconds/],
      [['frobnicate'], /unknown command "frobnicate"/],
    ];
    for (const [args, message] of cases) {
      const run = await runCli(args);
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, message);
      assert.equal(run.stdout, '');
    }
    const help = await runCli(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: nestjs-zk-lock inspect --connect/);
  });

  it('exits 1 with a clear message when nothing answers at the address', async () => {
    const [port] = await freePorts(1); // closed again: connections are refused
    const started = Date.now();
    const run = await runCli(['inspect', '--connect', `127.0.0.1:${port}`, '--connect-timeout', '800']);
    const elapsed = Date.now() - started;
    assert.equal(run.code, 1);
    assert.match(run.stderr, new RegExp(`could not connect to ZooKeeper at 127\\.0\\.0\\.1:${port} within 800 ms`));
    // The cause, as the ConnectTimeoutError's reason found it: which server, and what reaching it met.
    assert.match(run.stderr, new RegExp(`127\\.0\\.0\\.1:${port}: connection refused`));
    assert.equal(run.stdout, '');
    // The bound plus process start-up: no second attempt, no hang on the native handle.
    assert.ok(elapsed < 800 + 5000, `exited after ${elapsed} ms`);
    assert.ok(elapsed >= 800, `gave up after ${elapsed} ms, before the bound`);
  });

  it('says when the host name cannot be resolved', async () => {
    const run = await runCli(['inspect', '--connect', 'zk-no-such-host.invalid:2181', '--connect-timeout', '800']);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /could not connect to ZooKeeper at zk-no-such-host\.invalid:2181 within 800 ms/);
    assert.match(run.stderr, /zk-no-such-host\.invalid:2181: cannot resolve the host name/);
    assert.equal(run.stdout, '');
  });
});

function queueOf(entry: InspectedLock | InspectedElection) {
  return 'holder' in entry ? [entry.holder!, ...entry.waiters] : [entry.leader!, ...entry.followers];
}

function assertAscending(values: number[]) {
  assert.deepEqual([...values].sort((a, b) => a - b), values);
  assert.equal(new Set(values).size, values.length);
}

function withoutSince(ready: InspectedLock['ready']) {
  assert.ok(ready && ready.state !== 'corrupt', `a ready record: ${JSON.stringify(ready)}`);
  const { since, ...rest } = ready;
  assert.ok(!Number.isNaN(Date.parse(since)), `since is a date: ${since}`);
  return rest;
}
