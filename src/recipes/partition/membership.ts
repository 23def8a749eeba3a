import { randomUUID } from 'node:crypto';
import type { Subscription } from 'rxjs';
import { CorruptStateError } from '../../errors/corrupt-state.error.js';
import { RecordContendedError } from '../../errors/record-contended.error.js';
import { SessionClosedError } from '../../errors/session-closed.error.js';
import { ZooKeeperError } from '../../errors/zookeeper.error.js';
import type { ZkSessionClient } from '../../zookeeper/session-requests.js';
import { isConnectedState } from '../../zookeeper/session-state.js';
import type { Watcher } from '../../zookeeper/types.js';
import { backoffDelay, pause } from '../backoff.js';
import { ensurePath } from '../queue/ensure-path.js';
import { DeclinedPartitions } from './declined-partitions.js';
import { ZnodeFollower, type FollowerLogger } from './znode-follower.js';
import { encodeMember, parseMember, type MemberRecord } from './partition-records.js';

/** Tries of our record's compare-and-set before giving up on a writer that keeps changing it (as `requestHandOver`). */
const MAX_WRITES = 5;

/**
 * This replica's member node in `<set>/members`: EPHEMERAL, named `m-<uuid>` with a uuid drawn per
 * session, so that a create whose reply was lost is recognised when it is tried again (NODEEXISTS
 * on our own name is our node: the name is nobody else's) and never leaves a second member behind,
 * which the assignment would hand partitions that nobody takes. Made again on every new session
 * (the old one took it along); its data lists the partitions this replica declines
 * (`DeclinedPartitions`, the one owner of that list), rewritten when they change. The node is
 * followed (watched) too, for the partitions an operator declines for us there.
 */
export class Membership {
  /** Our member node's name on the current session, once made. */
  private name: string | undefined;
  private nameSession: string | undefined;
  private readonly asked = new DeclinedPartitions();
  private readonly follower: ZnodeFollower;
  private states: Subscription | undefined;
  private readonly stopped = new AbortController();
  private work: Promise<void> = Promise.resolve();

  constructor(
    private readonly session: ZkSessionClient,
    private readonly dir: string,
    private readonly identity: string,
    private readonly capacity: number,
    private readonly logger: FollowerLogger,
    /** Told each time our member node (re)appears (the assignment names us by its name), and when an operator declined a partition for us. */
    private readonly changed: () => void,
  ) {
    this.follower = new ZnodeFollower(session, `our member node in ${dir}`, (watcher) => this.follow(watcher), logger);
  }

  /** Our member node's name, once made on the current session. */
  get id(): string | undefined {
    return this.nameSession === this.session.sessionId ? this.name : undefined;
  }

  start(): void {
    let sessionId: string | undefined;
    this.states = this.session.state$.subscribe((change) => {
      if (!isConnectedState(change.state) || change.sessionId === sessionId) return;
      sessionId = change.sessionId;
      this.enqueue(() => this.create()).catch((error: unknown) => this.logger.warn(`Could not join ${this.dir}: ${String(error)}`));
    });
    this.follower.start();
  }

  /** The partitions this replica declines now (its own requests and an operator's), ascending. */
  get declined(): readonly number[] {
    return this.asked.list;
  }

  /**
   * Declines `partition` and writes it into our member node for the assigner. A request that could
   * not be written is forgotten (unless the node lists it already): no later write carries it.
   */
  async decline(partition: number): Promise<void> {
    const added = this.asked.add(partition);
    try {
      await this.enqueue(() => this.writeRecord());
    } catch (error) {
      if (added) this.asked.forget(partition);
      throw error;
    }
  }

  /** No longer declines `partitions` (they went elsewhere), and writes our member node without them. */
  withdraw(partitions: readonly number[]): Promise<void> {
    this.asked.delete(partitions);
    return this.enqueue(() => this.writeRecord());
  }

  /** Leaves: deletes our node (the assigner moves our partitions at once). */
  async leave(): Promise<void> {
    this.states?.unsubscribe();
    this.follower.stop();
    this.stopped.abort();
    await this.work;
    const name = this.id;
    this.name = undefined;
    if (name === undefined) return;
    const deleted = this.session.delete(`${this.dir}/${name}`).catch((error: unknown) => {
      // Gone already (with its session), or unreachable: the server removes it with the session.
      if (!ZooKeeperError.is(error, 'NONODE')) this.logger.warn(`Could not delete member node ${this.dir}/${name} (it goes with the session): ${String(error)}`);
    });
    // Disconnected: the delete goes on in the background; leaving never waits for an unreachable ensemble.
    if (isConnectedState(this.session.state)) await deleted;
  }

  private enqueue(step: () => Promise<void>): Promise<void> {
    const next = this.work.then(step);
    this.work = next.catch(() => undefined);
    return next;
  }

  private record(declined: readonly number[]): MemberRecord {
    return { v: 1, identity: this.identity, capacity: this.capacity, declined };
  }

  private async create(): Promise<void> {
    const sessionId = this.session.sessionId;
    const name = `m-${randomUUID()}`;
    const path = `${this.dir}/${name}`;
    // One list for every try: whichever try landed, the node was made with it (version 0).
    const declined = this.asked.list;
    for (let failures = 0; !this.stopped.signal.aborted && this.session.sessionId === sessionId; ) {
      try {
        try {
          await this.session.create(path, encodeMember(this.record(declined)), 'ephemeral');
        } catch (error) {
          if (!ZooKeeperError.is(error, 'NONODE')) throw error;
          await ensurePath(this.session, this.dir, 'persistent'); // a new set: make its directory, then try again
          continue;
        }
      } catch (error) {
        if (error instanceof SessionClosedError) return;
        // Our earlier try landed although its reply was lost: the name is ours alone.
        if (!ZooKeeperError.is(error, 'NODEEXISTS')) {
          failures += 1;
          if (error instanceof ZooKeeperError && (error.isConnectionError || error.isSessionGone)) {
            // Rejects once stopped or closed: the loop's condition then ends it.
            await this.session.waitForConnection(this.stopped.signal).catch(() => undefined);
          } else {
            this.logger.warn(`Could not create member node ${path} (retrying): ${String(error)}`);
            await pause(backoffDelay(failures), this.stopped.signal);
          }
          continue;
        }
      }
      this.name = name;
      this.nameSession = sessionId;
      this.asked.wrote(name, 0, declined);
      this.follower.poke();
      this.changed();
      return;
    }
  }

  /** One look of the follower: reads our member node (watched) and takes in what an operator declined there. */
  private async follow(watcher: Watcher): Promise<void> {
    const name = this.id;
    if (name === undefined) return; // not made yet on this session: its create looks again
    const path = `${this.dir}/${name}`;
    let read: { data: Buffer; stat: { version: number } };
    try {
      read = await this.session.getData(path, watcher);
    } catch (error) {
      if (ZooKeeperError.is(error, 'NONODE')) return; // gone with its session, or we left: the next node's create looks again
      throw error;
    }
    let declined: readonly number[];
    try {
      declined = parseMember(path, name, read.data).declined ?? [];
    } catch (error) {
      if (!(error instanceof CorruptStateError)) throw error;
      this.logger.warn(`${error.message}: no hand-over request read from it until it is rewritten`); // our watch brings the rewrite
      return;
    }
    // In turn with our writes, so that a read of our own write is never taken for an operator's.
    this.enqueue(async () => {
      if (this.asked.merge(name, read.stat.version, declined)) this.changed();
    }).catch((error: unknown) => this.logger.warn(`Could not take in the hand-over requests of ${path}: ${String(error)}`));
  }

  /**
   * Writes our declined partitions, first taking in any that an operator added since our last write
   * or read (`requestHandOver`, `nestjs-zk-lock hand-over`; see `DeclinedPartitions`): read, merge,
   * compare-and-set. A record that changes between every read and write (a tool rewriting it in a
   * loop) fails the call with `RecordContendedError` after `MAX_WRITES` tries instead of holding up
   * every later step.
   */
  private async writeRecord(): Promise<void> {
    const name = this.id;
    if (name === undefined) return; // the create writes the current record
    const path = `${this.dir}/${name}`;
    for (let writes = 1; ; writes++) {
      const { data, stat } = await this.session.getData(path);
      if (this.asked.merge(name, stat.version, parseMember(path, name, data).declined ?? [])) this.changed();
      const declined = this.asked.list;
      try {
        const written = await this.session.setData(path, encodeMember(this.record(declined)), stat.version);
        this.asked.wrote(name, written.version, declined);
        return;
      } catch (error) {
        if (!ZooKeeperError.is(error, 'BADVERSION')) throw error; // an operator's write came first: merge again
        if (writes === MAX_WRITES) throw new RecordContendedError(path, writes);
      }
    }
  }
}
