import type { Subscription } from 'rxjs';
import { CorruptStateError } from '../../errors/corrupt-state.error.js';
import { ZooKeeperError } from '../../errors/zookeeper.error.js';
import type { ZkSessionClient } from '../../zookeeper/session-requests.js';
import type { Watcher } from '../../zookeeper/types.js';
import type { Election } from '../election/leader-election.js';
import { assignPartitions, type Owners, type PartitionMember } from './assignment.js';
import { encodeAssignment, parseAssignment, parseMember } from './partition-records.js';
import { ZnodeFollower, type FollowerLogger } from './znode-follower.js';

/** Where a partition set keeps its members and assignment. */
export interface SetPaths {
  readonly members: string;
  readonly assignment: string;
}

/**
 * The assigning replica's side: while this replica leads the set's election, it follows the
 * members (their list and each one's data, for declined partitions) and rewrites the assignment
 * whenever `assignPartitions` gives another answer than the one stored.
 *
 * The write is a compare-and-set on the version read with the assignment it started from, so a
 * computation never overwrites an assignment it did not see (two replicas that both believe they
 * lead for a moment write one after the other, each from the other's result). Safety never
 * depends on the assignment: a partition is owned only by the holder of its lock, so a stale or
 * conflicting assignment costs balance or time, never exclusivity.
 */
export class Assigner {
  private readonly follower: ZnodeFollower;
  private leading: Subscription | undefined;

  constructor(
    private readonly session: ZkSessionClient,
    private readonly election: Election,
    private readonly paths: SetPaths,
    private readonly count: number,
    private readonly logger: FollowerLogger,
  ) {
    this.follower = new ZnodeFollower(session, `the members of ${paths.members}`, (watcher) => this.reassign(watcher), logger);
  }

  start(): void {
    this.leading = this.election.isLeader$.subscribe((leads) => (leads ? this.follower.start() : this.follower.stop()));
    this.election.join();
  }

  /** Wakes the assigner (a member asked for a change that no watch reports). */
  poke(): void {
    this.follower.poke();
  }

  async stop(): Promise<void> {
    this.leading?.unsubscribe();
    this.follower.stop();
    await this.election.close();
  }

  /** One look: the members (watched), the stored assignment, and the write if they call for one. */
  private async reassign(watcher: Watcher): Promise<void> {
    for (;;) {
      const members = await this.readMembers(watcher);
      const stored = await this.readAssignment();
      const owners = assignPartitions(this.count, members, stored?.owners ?? []);
      if (stored && sameOwners(stored.owners, owners)) return;
      if (!this.election.isLeader) return; // deposed meanwhile: the next leader looks for itself
      try {
        const data = encodeAssignment(this.count, owners);
        if (stored) await this.session.setData(this.paths.assignment, data, stored.version);
        else await this.session.create(this.paths.assignment, data, 'persistent');
        return;
      } catch (error) {
        // Another write came first (an assigner that led a moment ago): compute again from it.
        if (!ZooKeeperError.is(error, 'BADVERSION', 'NODEEXISTS', 'NONODE')) throw error;
      }
    }
  }

  private async readMembers(watcher: Watcher): Promise<PartitionMember[]> {
    let children: string[];
    try {
      ({ children } = await this.session.getChildren(this.paths.members, watcher));
    } catch (error) {
      if (ZooKeeperError.is(error, 'NONODE')) return [];
      throw error;
    }
    const members = await Promise.all(
      children.map(async (id) => {
        const path = `${this.paths.members}/${id}`;
        try {
          // Watched too: a member that declines partitions rewrites its data.
          const { data } = await this.session.getData(path, watcher);
          return parseMember(path, id, data);
        } catch (error) {
          if (ZooKeeperError.is(error, 'NONODE')) return undefined; // left meanwhile; the child watch has fired
          // A node that is no member of ours (written by hand, another version): it gets no partitions.
          if (error instanceof CorruptStateError) {
            this.logger.warn(`${error.message}: not counted as a member`);
            return undefined;
          }
          throw error;
        }
      }),
    );
    return members.filter((member) => member !== undefined);
  }

  private async readAssignment(): Promise<{ owners: Owners; version: number } | undefined> {
    let read: { data: Buffer; stat: { version: number } };
    try {
      read = await this.session.getData(this.paths.assignment);
    } catch (error) {
      if (ZooKeeperError.is(error, 'NONODE')) return undefined;
      throw error;
    }
    const { data, stat } = read;
    let parsed: { count: number; owners: Owners };
    try {
      parsed = parseAssignment(this.paths.assignment, data);
    } catch (error) {
      // Not ours to read (written by hand, another version): overwritten from scratch, or no replica could ever follow it.
      if (!(error instanceof CorruptStateError)) throw error;
      this.logger.warn(`${error.message}: reassigning all`);
      return { owners: [], version: stat.version };
    }
    // Written for another count (the set was redeclared): start afresh rather than keep a wrong shape.
    if (parsed.count !== this.count) this.logger.warn(`${this.paths.assignment} was computed for ${parsed.count} partitions, this replica declares ${this.count}: reassigning all`);
    return { owners: parsed.count === this.count ? parsed.owners : [], version: stat.version };
  }
}

function sameOwners(a: Owners, b: Owners): boolean {
  return a.length === b.length && a.every((owner, k) => owner === b[k]);
}
