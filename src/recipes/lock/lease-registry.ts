import type { Subscription } from 'rxjs';
import { hasSessionEnded, type SessionStateChange } from '../../zookeeper/session-state.js';
import type { ZkSessionClient } from '../../zookeeper/session-requests.js';
import type { Lease } from './lease.js';

/** Why a lease of a session that ended (`hasSessionEnded`) is lost, by the state that ended it. */
const LOSS_REASONS: Partial<Record<SessionStateChange['state'], string>> = {
  lost: 'the session may have expired (the leader has not confirmed it in time: disconnected, cut off, or this process was paused)',
  expired: 'the session expired',
  closed: 'the session was closed',
  connected: 'the session was replaced',
};

/**
 * The leases held through one session. One subscription to the session state tells all of
 * them when they may be lost, and then frees their nodes: a lost lease is never regained, and
 * a node left behind would block the queue for as long as the session lives.
 */
export class LeaseRegistry {
  private readonly leases = new Set<Lease>();
  private readonly subscription: Subscription;

  constructor(session: ZkSessionClient) {
    this.subscription = session.state$.subscribe((change) => this.onStateChange(change));
  }

  get size(): number {
    return this.leases.size;
  }

  /** The leases currently held, in grant order. */
  list(): Lease[] {
    return [...this.leases];
  }

  add(lease: Lease): void {
    this.leases.add(lease);
  }

  delete(lease: Lease): void {
    this.leases.delete(lease);
  }

  dispose(): void {
    this.subscription.unsubscribe();
  }

  private onStateChange(change: SessionStateChange): void {
    if (this.leases.size === 0) return;
    for (const lease of [...this.leases]) {
      if (!hasSessionEnded(change, lease.sessionId)) continue;
      lease.markLost(LOSS_REASONS[change.state]!);
      void lease.release();
    }
  }
}
