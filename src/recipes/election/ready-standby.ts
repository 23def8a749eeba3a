import type { ZkSessionClient } from '../../zookeeper/session-requests.js';
import type { Watcher } from '../../zookeeper/types.js';
import type { ReadyRead, ReadyState } from '../ready/ready-state.js';
import type { StandingRead } from './succession.js';

/** The record under a standing watch. */
interface StandingWatch {
  /** The watch was set on this session: a replaced session has none. */
  readonly sessionId: string | undefined;
  /** Set and not fired yet: `latest` is still current. */
  armed: boolean;
  /** A standby uses it: read again when the watch fires. */
  active: boolean;
  latest: Promise<ReadyRead>;
  /** The watcher of the latest read, for `leave` to drop. */
  watcher?: Watcher;
}

/**
 * The election's ready record kept current while a successor waits right behind the leader (see
 * `Succession`): a watch on the ready znode (`ReadyState.readWatched`; it also fires on the
 * record's creation) re-reads it on every change. ZooKeeper delivers one session's notifications
 * and replies in order, so when the leader's node-deleted notification arrives, every write the
 * leader made before it has notified us already and its re-read has been sent: `current()` is then
 * as fresh as a read sent after the deletion. 1 request (2 while no record exists), again after
 * each change.
 */
export class ReadyStandby {
  /** The one watch kept on the record: a watch still armed from an earlier standby of the same session is taken over rather than set again (nothing piles up). */
  private standing: StandingWatch | undefined;

  constructor(
    private readonly ready: ReadyState,
    private readonly session: ZkSessionClient,
  ) {}

  standby(): StandingRead<ReadyRead> {
    let standing = this.standing;
    if (!standing?.armed || standing.sessionId !== this.session.sessionId) {
      standing = this.standing = { sessionId: this.session.sessionId, armed: false, active: true, latest: Promise.resolve(undefined) };
      this.rearm(standing);
    }
    const current = standing;
    current.active = true;
    return {
      current: () => current.latest,
      stop: () => void (current.active = false),
    };
  }

  /**
   * This participant left the queue (resign, close): the standing watch is dropped here and on the
   * server, instead of standing until the record next changes (for as long as the leader leads).
   * A later `standby()` sets a new one.
   */
  leave(): void {
    const standing = this.standing;
    this.standing = undefined;
    if (!standing?.armed || !standing.watcher) return;
    standing.active = false;
    const { watcher } = standing;
    // After the read settles: its watch is registered as its reply is read.
    const forget = () => this.session.forgetWatch(this.ready.path, 'data', watcher);
    standing.latest.then(forget, forget);
  }

  private rearm(standing: StandingWatch): void {
    standing.armed = true;
    const watcher: Watcher = () => {
      standing.armed = false;
      if (standing.active) this.rearm(standing);
    };
    standing.watcher = watcher;
    const latest = (standing.latest = this.ready.readWatched(watcher));
    // The take-over awaits it, or it was not needed. Failed: read afresh next time.
    latest.catch(() => void (standing.latest === latest && (standing.armed = false)));
  }
}
