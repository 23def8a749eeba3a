import { CorruptStateError } from '../../errors/corrupt-state.error.js';
import { ZooKeeperError } from '../../errors/zookeeper.error.js';
import type { ZkSessionClient } from '../../zookeeper/session-requests.js';
import type { Watcher } from '../../zookeeper/types.js';
import type { Owners } from './assignment.js';
import { parseAssignment } from './partition-records.js';
import { ZnodeFollower, type FollowerLogger } from './znode-follower.js';

/**
 * The set's stored assignment as one replica follows it (every replica does; the assigner writes
 * it): the owner of each partition, read again on every change (a watch on the znode, or on its
 * creation while it does not exist yet). 1 request per change.
 */
export class AssignmentView {
  /** The owners of the last assignment read that was computed for our `count`; [] before any. */
  owners: Owners = [];
  private readonly follower: ZnodeFollower;

  constructor(
    private readonly session: ZkSessionClient,
    private readonly path: string,
    private readonly count: number,
    private readonly logger: FollowerLogger & { error(message: string): void },
    /** Called after each read that may have changed `owners`. */
    private readonly changed: () => void,
  ) {
    this.follower = new ZnodeFollower(session, path, (watcher) => this.read(watcher), logger);
  }

  start(): void {
    this.follower.start();
  }

  stop(): void {
    this.follower.stop();
  }

  private async read(watcher: Watcher): Promise<void> {
    try {
      const { data } = await this.session.getData(this.path, watcher);
      let parsed: { count: number; owners: Owners };
      try {
        parsed = parseAssignment(this.path, data);
      } catch (error) {
        if (!(error instanceof CorruptStateError)) throw error;
        // The assigner overwrites it; our watch (set with this read) brings that in.
        this.logger.error(`${error.message}: kept the previous assignment until the assigner rewrites it`);
        return;
      }
      const { count, owners } = parsed;
      if (count !== this.count) {
        this.logger.error(`${this.path} assigns ${count} partitions, this replica declares ${this.count}: ignored until the assigner rewrites it (every replica of a set must declare the same count)`);
        return;
      }
      this.owners = owners;
    } catch (error) {
      if (!ZooKeeperError.is(error, 'NONODE')) throw error;
      // Not written yet: a watch for its creation (getData leaves none on a missing node).
      if (await this.session.exists(this.path, watcher)) return this.follower.poke(); // created in between
      this.owners = [];
    }
    this.changed();
  }
}
