import { clearInterval, setInterval } from 'node:timers';
import type { ZkLockEventSink } from '../observability/zk-lock-event.js';
import { sortQueue, type QueueMarker } from '../recipes/queue/queue-node.js';
import type { ResolvedZkLockOptions } from '../zk-lock.options.js';
import { RealTimeClock } from '../zookeeper/simulated/real-time-clock.js';
import { SimulatedEnsemble } from '../zookeeper/simulated/simulated-ensemble.js';
import { ZkSession } from '../zookeeper/supervised-session.js';

/** The actors of the two sessions on the ensemble: this process's, and the operator's. */
const PROCESS = 'process';
const OPERATOR = 'operator';

/** What the operator's session does is staging, not this process's doing: it reports nothing. */
const UNREPORTED: ZkLockEventSink = { wants: () => false, emit() {} };

/** A queue node as the server holds it. */
export interface QueuedNode {
  readonly path: string;
  /** Hex id of the session that owns it. */
  readonly owner: string;
  /** Its fencing token, were it granted by succession (an election's): its `czxid`. */
  readonly czxid: bigint;
}

/**
 * The ZooKeeper of `ZkLockTestingModule`: one simulated server (`SimulatedEnsemble`) with no
 * network delay, on a `RealTimeClock`, so that the module's real `ZkSession` runs on it inside a
 * unit test without patching any global. A second session on it, the operator's, does what other
 * processes would (see `StandIns`).
 *
 * The server's clock runs at the speed of real time, and `advance` moves it ahead: sessions time
 * out, containers are swept, the clients' pings and reconnection attempts run, on that clock.
 * ZooKeeper's defaults apply: tickTime 2000 ms (a session timeout between 4 and 40 s), containers
 * checked every 60 s.
 */
export class TestingEnsemble {
  /** The one server's address (the simulator's binding never resolves it). */
  static readonly connectString = 'zk1.sim:2181';

  private readonly clock = new RealTimeClock({
    actor: PROCESS,
    // The loops that re-arm themselves as long as the ensemble lives, and the client's give-up of
    // a connection attempt (pending long after the attempt succeeded): a forgotten module must not
    // keep the process alive. (Labels as `SimulatedEnsemble` and `SimulatedHandle` schedule them.)
    background: ['session tick', 'container sweep', 'ping', 'connect timeout'],
  });
  private readonly ensemble = new SimulatedEnsemble(this.clock, { serverIds: [1], tickMs: 2000, containerCheckMs: 60_000, latencyMs: [0, 0], applyDelayMs: [0, 0] });
  /** The operator's session: stand-in participants and holders (`StandIns`). */
  readonly operator: ZkSession;

  private constructor(options: ResolvedZkLockOptions) {
    this.operator = this.newSession(options, UNREPORTED);
  }

  /** An ensemble with the operator's session connected. */
  static async start(options: ResolvedZkLockOptions): Promise<TestingEnsemble> {
    const zk = new TestingEnsemble(options);
    await zk.clock.as(OPERATOR, () => zk.operator.connect());
    return zk;
  }

  /** This process's session, connected. */
  async connect(options: ResolvedZkLockOptions, events: ZkLockEventSink): Promise<ZkSession> {
    const session = this.newSession(options, events);
    keepAliveWhileDisconnected(session);
    await this.clock.as(PROCESS, () => session.connect());
    return session;
  }

  /**
   * The server closes this process's connection; with `forMs`, the process cannot reach the
   * server for that long on the server's clock (its reconnection attempts time out).
   */
  cut(forMs: number): void {
    if (forMs > 0) this.ensemble.partition(PROCESS, forMs);
    for (const connection of this.ensemble.connectionsOf(PROCESS)) connection.close('ZkLockTesting.cutConnection()');
  }

  /** Moves the server's clock `ms` ahead; resolves once everything due by then has run. */
  advance(ms: number): Promise<void> {
    return this.clock.advance(ms);
  }

  /** The queue in `dir` as the server holds it now, in grant order (empty without `dir`). */
  queue(dir: string, marker: QueueMarker): QueuedNode[] {
    const children = this.ensemble.readNode(dir)?.children ?? [];
    return sortQueue(children, marker).flatMap(({ name }) => {
      const path = `${dir}/${name}`;
      const stat = this.ensemble.readNode(path)?.stat;
      return stat ? [{ path, owner: stat.ephemeralOwner.toString(16), czxid: stat.czxid }] : [];
    });
  }

  /** Closes the operator's session and stops the clock: nothing of the ensemble runs any more. */
  close(): void {
    this.operator.close();
    this.clock.stop();
  }

  private newSession(options: ResolvedZkLockOptions, events: ZkLockEventSink): ZkSession {
    return new ZkSession({
      connectString: this.ensemble.connectString,
      sessionTimeoutMs: options.sessionTimeoutMs,
      connectTimeoutMs: options.connectTimeoutMs,
      maxRecordBytes: options.maxRecordBytes,
      events,
      // The simulated C client, not the TypeScript driver: its pings and timeouts run on the
      // ensemble's clock, which advanceTime() moves, and not on the global timers a test may fake.
      binding: this.ensemble.binding,
    });
  }
}

/**
 * While `session` is disconnected, keeps the process alive, as the native client's socket would:
 * its reconnection waits on the clock's unref'd connect timeouts, and a test awaiting it must not
 * see the process exit under it. Connected or closed, nothing is held.
 */
function keepAliveWhileDisconnected(session: ZkSession): void {
  let hold: NodeJS.Timeout | undefined;
  session.state$.subscribe((change) => {
    if (change.state === 'suspended' || change.state === 'lost' || change.state === 'expired') {
      hold ??= setInterval(() => undefined, 60_000);
    } else {
      clearInterval(hold);
      hold = undefined;
    }
  });
}
