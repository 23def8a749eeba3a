import { randomUUID } from 'node:crypto';
import type { Subscription } from 'rxjs';
import { RecordContendedError } from '../../errors/record-contended.error.js';
import { SessionClosedError } from '../../errors/session-closed.error.js';
import { ZooKeeperError } from '../../errors/zookeeper.error.js';
import type { ZkSessionClient } from '../../zookeeper/session-requests.js';
import { isConnectedState } from '../../zookeeper/session-state.js';
import { backoffDelay, pause } from '../backoff.js';
import { ensurePath } from '../queue/ensure-path.js';
import type { FollowerLogger } from './znode-follower.js';
import { encodeMember, parseMember, type MemberRecord } from './partition-records.js';

/** Tries of our record's compare-and-set before giving up on a writer that keeps changing it (as `requestHandOver`). */
const MAX_WRITES = 5;

/**
 * This replica's member node in `<set>/members`: EPHEMERAL, named `m-<uuid>` with a uuid drawn per
 * session, so that a create whose reply was lost is recognised when it is tried again (NODEEXISTS
 * on our own name is our node: the name is nobody else's) and never leaves a second member behind,
 * which the assignment would hand partitions that nobody takes. Made again on every new session
 * (the old one took it along); its data is updated when this replica declines partitions.
 */
export class Membership {
  /** Our member node's name on the current session, once made. */
  private name: string | undefined;
  private nameSession: string | undefined;
  private record: MemberRecord;
  private states: Subscription | undefined;
  private readonly stopped = new AbortController();
  private work: Promise<void> = Promise.resolve();

  constructor(
    private readonly session: ZkSessionClient,
    private readonly dir: string,
    identity: string,
    capacity: number,
    private readonly logger: FollowerLogger,
    /** Told each time our member node (re)appears, with its name: the assignment names us by it. */
    private readonly named: (name: string) => void,
  ) {
    this.record = { v: 1, identity, capacity, declined: [] };
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
  }

  /** Sets the partitions this replica asks to give up, and writes them into its member node for the assigner. */
  decline(partitions: readonly number[]): Promise<void> {
    this.setDeclined(partitions);
    return this.enqueue(() => this.writeRecord());
  }

  /** Sets them for the member node's next write only (a request taken back after its write failed). */
  setDeclined(partitions: readonly number[]): void {
    this.record = { ...this.record, declined: [...partitions] };
  }

  /** Leaves: deletes our node (the assigner moves our partitions at once). */
  async leave(): Promise<void> {
    this.states?.unsubscribe();
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

  private async create(): Promise<void> {
    const sessionId = this.session.sessionId;
    const name = `m-${randomUUID()}`;
    const path = `${this.dir}/${name}`;
    for (let failures = 0; !this.stopped.signal.aborted && this.session.sessionId === sessionId; ) {
      try {
        try {
          await this.session.create(path, encodeMember(this.record), 'ephemeral');
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
      this.named(name);
      return;
    }
  }

  /**
   * Writes our declined partitions, keeping any that an operator added meanwhile
   * (`requestHandOver`, `nestjs-zk-lock hand-over`): read, merge, compare-and-set. A record that
   * changes between every read and write (a tool rewriting it in a loop) fails the call with
   * `RecordContendedError` after `MAX_WRITES` tries instead of holding up every later step.
   */
  private async writeRecord(): Promise<void> {
    const name = this.id;
    if (name === undefined) return; // the create writes the current record
    const path = `${this.dir}/${name}`;
    for (let writes = 1; ; writes++) {
      const { data, stat } = await this.session.getData(path);
      const stored = parseMember(path, name, data).declined ?? [];
      const declined = [...new Set([...stored, ...this.record.declined])];
      try {
        await this.session.setData(path, encodeMember({ ...this.record, declined }), stat.version);
        return;
      } catch (error) {
        if (!ZooKeeperError.is(error, 'BADVERSION')) throw error; // an operator's write came first: merge again
        if (writes === MAX_WRITES) throw new RecordContendedError(path, writes);
      }
    }
  }
}
