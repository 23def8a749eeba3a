/**
 * In-process helpers for the election tests: supervised sessions that are always closed,
 * elections that are always closed, a recorder of `isLeader$` values on one global sequence, and
 * a way to make the server expire a session now. Every wait is bounded.
 */
import { LeaderElection, type LeaderElectionLogger, type LeaderElectionOptions } from '../../src/recipes/election/leader-election.js';
import { sortQueue } from '../../src/recipes/queue/queue-node.js';
import { isConnectedState } from '../../src/zookeeper/session-state.js';
import type { ZkSessionClient } from '../../src/zookeeper/session-requests.js';
import { ZkSession } from '../../src/zookeeper/supervised-session.js';
import { afterEach } from 'node:test';
import { closeFromSecondClient } from '../support/expire-session.js';
import { FaultySession } from '../support/faulty-session.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { waitFor, withTimeout } from '../support/wait.js';
import { sharedConnect, testRoot } from './election-cluster.js';
import { withTestDriver } from '../support/test-driver.js';

/** One sequence for every recorded value of a test: "A's false came before B's true" is a comparison of numbers. */
let sequence = 0;

export interface Recorded<T> {
  readonly value: T;
  readonly seq: number;
}

/** Records every value of an observable-like source (and whether it completed). */
export class Recorder<T> {
  readonly values: Recorded<T>[] = [];
  completed = false;
  private readonly subscription: { unsubscribe(): void };

  constructor(source: { subscribe(observer: { next(value: T): void; complete(): void }): { unsubscribe(): void } }) {
    this.subscription = source.subscribe({
      next: (value) => this.values.push({ value, seq: ++sequence }),
      complete: () => (this.completed = true),
    });
  }

  get last(): T | undefined {
    return this.values.at(-1)?.value;
  }

  /** Waits for a value equal to `value` recorded after `afterSeq`; returns its record. */
  async next(value: T, afterSeq = 0, timeoutMs = 10_000): Promise<Recorded<T>> {
    return waitFor(() => this.values.find((r) => r.seq > afterSeq && r.value === value), {
      timeoutMs,
      intervalMs: 5,
      message: `value ${String(value)} after #${afterSeq} (seen ${this.values.map((r) => `${String(r.value)}#${r.seq}`).join(' ')})`,
    });
  }

  stop(): void {
    this.subscription.unsubscribe();
  }
}

export const currentSeq = (): number => sequence;

/**
 * For a test file whose tests each use one `Kit` on the shared server, under a root of its own:
 * registers the `afterEach` that disposes it, and returns what makes the test's kit.
 */
export function kitPerTest(): () => Kit {
  let kit: Kit | undefined;
  afterEach(async () => {
    await kit?.dispose();
    kit = undefined;
  });
  return () => (kit = new Kit(sharedConnect(), testRoot()));
}

/** Sessions and elections of one test; `dispose()` closes them all. */
export class Kit {
  private readonly sessions: ZkSession[] = [];
  private readonly elections: LeaderElection[] = [];
  private readonly proxies: TcpProxy[] = [];

  constructor(
    readonly connect: string,
    readonly root: string,
  ) {}

  async session(connectString = this.connect, sessionTimeoutMs = 2000): Promise<ZkSession> {
    const session = new ZkSession(withTestDriver({ connectString, sessionTimeoutMs, connectTimeoutMs: 10_000 }));
    this.sessions.push(session);
    await session.connect();
    return session;
  }

  election(session: ZkSessionClient, identity: string, overrides: Partial<LeaderElectionOptions> = {}): LeaderElection {
    const logger = process.env.ELECTION_DEBUG ? debugLogger(identity) : undefined;
    const election = new LeaderElection(session, { root: this.root, name: 'e', identity, drainTimeoutMs: 1000, logger, ...overrides });
    this.elections.push(election);
    return election;
  }

  /** A TCP proxy in front of the first server, closed with the kit: cut it to disconnect sessions behind it. */
  async proxy(): Promise<TcpProxy> {
    const [host, port] = this.connect.split(',')[0]!.split(':');
    const proxy = await TcpProxy.start(host!, Number(port));
    this.proxies.push(proxy);
    return proxy;
  }

  /** The queue node paths of election `e`, in queue order. */
  async queueNodes(): Promise<string[]> {
    const admin = await this.session();
    const { children } = await admin.getChildren(`${this.root}/elections/e`);
    return sortQueue(children, 'n').map((node) => `${this.root}/elections/e/${node.name}`);
  }

  async dispose(): Promise<void> {
    const closed = await Promise.allSettled(this.elections.map((election) => withTimeout(election.close(), 5000, 'election close')));
    for (const session of this.sessions) session.close();
    await Promise.all(this.proxies.map((proxy) => proxy.close()));
    const failed = closed.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
  }
}

/** ELECTION_DEBUG=1 shows what each election logs (stderr), for diagnosing a failure. */
function debugLogger(identity: string): LeaderElectionLogger {
  const write = (level: string) => (message: string) => process.stderr.write(`[${identity}] ${level}${message}\n`);
  return { log: write(''), warn: write('WARN '), error: write('ERROR ') };
}

/**
 * Makes the server expire `session` now, as if it had timed out: a second handle resumes it with
 * its id and password (taking it over from the original connection) and closes it. The original
 * client may win the session back by reconnecting before the close lands; then it tries again,
 * until the session reports `expired` (bounded).
 */
export async function expireSession(connectString: string, session: ZkSession): Promise<void> {
  let expired = false;
  const subscription = session.state$.subscribe((change) => {
    if (change.state === 'expired') expired = true;
  });
  try {
    for (let attempt = 1; !expired; attempt++) {
      if (attempt > 5) throw new Error(`session 0x${session.sessionId} did not expire after 5 attempts`);
      await session.waitForConnection();
      // The session's own client may win the session back before the second client's handshake
      // is answered (it reconnects at once): that attempt failed, the next one tries again.
      const resumed = await closeFromElsewhere(connectString, session).then(
        () => true,
        (error: unknown) => {
          if (error instanceof Error && /could not resume session/.test(error.message)) return false;
          throw error;
        },
      );
      if (!resumed) continue;
      await waitFor(() => expired, { timeoutMs: 2000, intervalMs: 10 }).catch(() => undefined);
    }
  } finally {
    subscription.unsubscribe();
  }
}

/**
 * The server closes the first client's connection as soon as the second one resumes the session.
 * Separate processes hear of that long before an expiry a round trip later; in one process the
 * second client's close blocks the event loop until the server answers, after which the first
 * client's disconnection and the next leader's watch event are handled in no set order. So the
 * close waits (at most 1 s) for the disconnection to reach the session, as it would elsewhere.
 */
function closeFromElsewhere(connectString: string, session: ZkSession): Promise<void> {
  const disconnected = () => waitFor(() => !isConnectedState(session.state), { timeoutMs: 1000, intervalMs: 2 }).then(() => undefined, () => undefined);
  return closeFromSecondClient(connectString, session.sessionId!, session.sessionPassword!, session.sessionTimeoutMs, disconnected);
}

/** Elections joined one after another, each queued before the next joins: the first leads. */
export async function queuedInOrder(k: Kit, ...identities: string[]): Promise<LeaderElection[]> {
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
export const standingBy = (session: { readonly watcherCount: number }) => waitFor(() => session.watcherCount === 3, { timeoutMs: 5000, message: 'standing by' });

/** A leads; B (not joined yet) sends its requests through a counting FaultySession. */
export async function leaderAAndObservedB(k: Kit) {
  const a = k.election(await k.session(), 'A');
  const bSession = await k.session();
  const observed = new FaultySession(bSession);
  const b = k.election(observed, 'B');
  a.join();
  await new Recorder(a.isLeader$).next(true);
  return { k, a, b, observed, bSession };
}
